import { haversineM } from '../workout-files/geo';
import { RECORD_DISTANCES, RECORD_WINDOW } from '../workout-files/metrics';
import { decodeSeries, type SeriesSample, type StoredSeries } from '../workouts/series';

/** A record distance's key in the API and the database: "5 km" → "5km", "half marathon" → "half_marathon". */
export function distanceKey(name: string): string {
	return name.replaceAll(' ', '').replace('halfmarathon', 'half_marathon');
}

export const RECORD_TARGETS = RECORD_DISTANCES.map((target) => ({
	key: distanceKey(target.name),
	label: target.name,
	metres: target.metres,
}));

export type Effort = { key: string; seconds: number; distanceM: number; startOffsetS: number };

/**
 * Cumulative distance per sample: the recorded distance where the device gave one, otherwise the
 * great-circle distance between positioned samples.
 */
export function cumulativeDistance(samples: readonly SeriesSample[]): Float64Array {
	const out = new Float64Array(samples.length);
	const recorded = samples.some((sample) => sample.distance !== undefined);
	let total = 0;
	let lastLat = Number.NaN;
	let lastLng = Number.NaN;
	for (let i = 0; i < samples.length; i++) {
		const sample = samples[i];
		if (recorded) {
			if (sample.distance !== undefined && sample.distance >= total) total = sample.distance;
		} else if (sample.lat !== undefined && sample.lng !== undefined) {
			if (!Number.isNaN(lastLat)) total += haversineM(lastLat, lastLng, sample.lat, sample.lng);
			lastLat = sample.lat;
			lastLng = sample.lng;
		}
		out[i] = total;
	}
	return out;
}

/**
 * The fastest stretch of a recording at each record distance: two timed samples whose distance
 * apart lies within 99–105 % of the target, elapsed time (pauses included). Two pointers per
 * target, so the cost is linear in the samples.
 */
export function effortsInRecording(offsetsMs: ArrayLike<number>, cumulative: ArrayLike<number>): Effort[] {
	const n = Math.min(offsetsMs.length, cumulative.length);
	const total = n > 0 ? cumulative[n - 1] - cumulative[0] : 0;
	const efforts: Effort[] = [];
	for (const target of RECORD_TARGETS) {
		const lo = target.metres * RECORD_WINDOW.min;
		const hi = target.metres * RECORD_WINDOW.max;
		if (total < lo) continue;
		let best: Effort | null = null;
		let j = 0;
		for (let i = 0; i < n; i++) {
			if (j < i) j = i;
			while (j < n && cumulative[j] - cumulative[i] < lo) j++;
			if (j >= n) break;
			const span = cumulative[j] - cumulative[i];
			if (span > hi) continue;
			const seconds = (offsetsMs[j] - offsetsMs[i]) / 1000;
			if (seconds > 0 && (best === null || seconds < best.seconds))
				best = { key: target.key, seconds, distanceM: span, startOffsetS: offsetsMs[i] / 1000 };
		}
		if (best) efforts.push(best);
	}
	return efforts;
}

/** A workout logged without a recording counts whole, for the distances its length falls within. */
export function effortsOfWholeWorkout(distanceM: number | null, seconds: number | null): Effort[] {
	if (!distanceM || !seconds || seconds <= 0) return [];
	return RECORD_TARGETS.filter(
		(target) =>
			distanceM >= target.metres * RECORD_WINDOW.min && distanceM <= target.metres * RECORD_WINDOW.max,
	).map((target) => ({ key: target.key, seconds, distanceM, startOffsetS: 0 }));
}

export type EffortRow = { workoutId: number; key: string; group: string; seconds: number; achievedAt: Date };

/**
 * Records per group and distance, best first, with their history: each effort that beat every
 * earlier one at the time it was set, oldest first.
 */
export function recordsFrom(rows: readonly EffortRow[]) {
	const byTarget = new Map<string, EffortRow[]>();
	for (const row of rows) {
		const id = `${row.group}|${row.key}`;
		const list = byTarget.get(id) ?? [];
		list.push(row);
		byTarget.set(id, list);
	}
	const out: { group: string; key: string; best: EffortRow; history: EffortRow[]; ranked: EffortRow[] }[] =
		[];
	for (const list of byTarget.values()) {
		const chronological = [...list].sort(
			(a, b) => a.achievedAt.getTime() - b.achievedAt.getTime() || a.workoutId - b.workoutId,
		);
		const history: EffortRow[] = [];
		for (const row of chronological)
			if (history.length === 0 || row.seconds < (history.at(-1) as EffortRow).seconds) history.push(row);
		const ranked = [...list].sort(
			(a, b) => a.seconds - b.seconds || a.achievedAt.getTime() - b.achievedAt.getTime(),
		);
		out.push({ group: list[0].group, key: list[0].key, best: ranked[0], history, ranked });
	}
	const order = new Map(RECORD_TARGETS.map((target, index) => [target.key, index]));
	return out.sort((a, b) =>
		a.group === b.group ? (order.get(a.key) ?? 0) - (order.get(b.key) ?? 0) : a.group < b.group ? -1 : 1,
	);
}

/** "1st", "2nd", "3rd", "4th" … */
export function ordinal(n: number): string {
	const tens = n % 100;
	if (tens >= 11 && tens <= 13) return `${n}th`;
	return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/**
 * The best efforts of one workout, from its stored recording when it has one. Pure: an upload's are found
 * on the parse pool, beside the file's other figures.
 */
export function effortsOf(
	workout: { distanceTotal: number | null; activeTimeTotal: number | null; elapsedTimeTotal: number | null },
	series: StoredSeries | null,
): Effort[] {
	if (series && series.t.length >= 2) {
		const samples = decodeSeries(series);
		const offsets = new Float64Array(samples.length);
		for (let i = 0; i < samples.length; i++) offsets[i] = samples[i].offsetMs;
		return effortsInRecording(offsets, cumulativeDistance(samples));
	}
	return effortsOfWholeWorkout(workout.distanceTotal, workout.activeTimeTotal ?? workout.elapsedTimeTotal);
}
