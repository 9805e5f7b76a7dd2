import {
	formatMoment,
	formatTimeOfDay,
	formatUtcOffset,
	instantOf,
	wallClockAt,
	wallClockDate,
	wallClockTime,
	zoneOffsetMs,
} from '../core/dates';
/** Pure wording for the workout pages: durations, paces, speeds and the local start time. No schema here. */

export const METRES_PER_UNIT = { km: 1000, mi: 1609.344 } as const;
export type DistanceUnit = keyof typeof METRES_PER_UNIT;

/** 42:05 below an hour, 1:02:03 from an hour. */
export function formatDuration(seconds: number): string {
	const whole = Math.max(0, Math.round(seconds));
	const h = Math.floor(whole / 3600);
	const m = Math.floor((whole % 3600) / 60);
	const s = whole % 60;
	const mm = h > 0 ? String(m).padStart(2, '0') : String(m);
	return `${h > 0 ? `${h}:` : ''}${mm}:${String(s).padStart(2, '0')}`;
}

/** Minutes and seconds per km or mile, from seconds per unit. */
export function formatPace(secondsPerUnit: number, unit: DistanceUnit): string {
	return `${formatDuration(secondsPerUnit)} /${unit}`;
}

/** Average pace over a distance and time, or a dash when either is missing. */
export function paceOf(metres: number | null, seconds: number | null, unit: DistanceUnit): string {
	if (!metres || !seconds) return '—';
	return formatPace(seconds / (metres / METRES_PER_UNIT[unit]), unit);
}

/** km/h or mph from metres per second. */
export function formatSpeed(mps: number, unit: DistanceUnit): string {
	const perHour = (mps * 3600) / METRES_PER_UNIT[unit];
	return `${perHour.toFixed(1)} ${unit === 'km' ? 'km/h' : 'mph'}`;
}

/** The start on the clock of a zone: "Fri, May 1, 2026, 9:30 AM CEST" (UTC for a zone the runtime lacks). */
export function formatWorkoutStart(start: Date, timeZone: string): string {
	try {
		return formatMoment(start, timeZone);
	} catch {
		return formatMoment(start, 'UTC');
	}
}

/**
 * Where a workout was recorded on another clock than the reader's: its start there, labelled with
 * that clock's offset ("5:26 PM where recorded, UTC−5"); null when both clocks read the same.
 */
export function formatRecordedStart(start: Date, recordedZone: string, readerZone: string): string | null {
	try {
		if (zoneOffsetMs(start, recordedZone) === zoneOffsetMs(start, readerZone)) return null;
		return `${formatTimeOfDay(start, recordedZone)} where recorded, ${formatUtcOffset(start, recordedZone)}`;
	} catch {
		return null;
	}
}

/** The recording devices and coaching features a workout may credit, in words. */
export const ATTRIBUTION_LABELS: Record<string, string> = {
	ua_footpod: 'Recorded with a UA footpod',
	tizen_watch: 'Recorded on a Samsung watch',
	tizen_ua_watch: 'Recorded on a Samsung watch with UA',
	apple_watch: 'Recorded on an Apple Watch',
	gait_coaching: 'Gait coaching',
};

export function attributionLabel(code: string): string {
	return ATTRIBUTION_LABELS[code] ?? (code.startsWith('ua_footpod') ? ATTRIBUTION_LABELS.ua_footpod : code);
}

/** An instant as a `datetime-local` value (YYYY-MM-DDTHH:mm) on the clock of a time zone. */
export function toLocalInput(instant: Date, timeZone: string): string {
	const wall = wallClockAt(instant, timeZone);
	return `${wallClockDate(wall)}T${wallClockTime(wall)}`;
}

/**
 * A `datetime-local` value read on the clock of a time zone, as an ISO 8601 instant with `Z`. A
 * time skipped by a clock change moves forward by the change; a time that happens twice is the
 * first.
 */
export function fromLocalInput(value: string, timeZone: string): string | null {
	const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/.exec(value);
	if (!match) return null;
	const [year, month, day, hour, minute] = match.slice(1).map(Number);
	const instant = instantOf({ year, month, day, hour, minute }, timeZone).getTime();
	return Number.isNaN(instant) ? null : new Date(instant).toISOString();
}

/** "1:02:03", "45:10" or "40" (minutes) as seconds; null when it is not a duration. */
export function parseDuration(text: string): number | null {
	const parts = text.trim().split(':');
	if (parts.length > 3 || parts.some((part) => !/^\d{1,5}$/.test(part))) return null;
	const numbers = parts.map(Number);
	if (numbers.length === 1) return numbers[0] * 60;
	if (numbers.slice(1).some((n) => n >= 60)) return null;
	return numbers.reduce((total, n) => total * 60 + n, 0);
}
