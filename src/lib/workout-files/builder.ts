import { cleanText } from '../core/text';
import {
	ActivityTypeId,
	type DeviceTotals,
	defaultLimits,
	type Lap,
	type NormalisedWorkout,
	type ReadLimits,
	type TrackPoint,
	type Waypoint,
	type WorkoutFormat,
} from './contract';
import { WorkoutFileError } from './errors';
import { formatUtc } from './time';

export type Container = NormalisedWorkout['container'];

/** A step back in time up to this long is a recording glitch; anything longer refuses the file. */
export const GLITCH_MS = 10_000;

/**
 * Collects points as a reader finds them and enforces the rules every format shares: the point cap,
 * latitude and longitude ranges and times that never go backwards. Checking here, point by point,
 * means a hostile file is refused as soon as it breaks a rule rather than after it is fully read.
 */
/** 6 Jan 1980, the start of GPS time: no satellite receiver recorded a point before it. */
export const GPS_EPOCH_MS = Date.UTC(1980, 0, 6);

/** How the warning about a device clock that was never set begins (the workout page has its own notice). */
export const UNSET_CLOCK_WARNING = 'The times in this file are not real';

export class WorkoutBuilder {
	readonly points: TrackPoint[] = [];
	readonly segmentStarts: number[] = [];
	readonly laps: Lap[] = [];
	readonly waypoints: Waypoint[] = [];
	readonly warnings: string[] = [];
	deviceTotals: DeviceTotals = {};
	/**
	 * The start the file states (TCX Activity Id, FIT session start_time). Used only when no point has a
	 * time: otherwise the workout starts at its first timed point, so start + elapsed is the last one.
	 */
	startTime: number | undefined;
	/** When the file says it was written (GPX metadata time): the date of a recording whose clock was not set. */
	fileTime: number | undefined;
	recordedUtcOffsetS: number | undefined;
	activityType: NormalisedWorkout['activityType'] = ActivityTypeId.generic;
	sport: string | undefined;
	name: string | undefined;
	creator: string | undefined;
	private readonly maxPoints: number;
	private lastTime = Number.NEGATIVE_INFINITY;
	private newSegment = true;
	private droppedGlitches = 0;

	constructor(
		private readonly format: WorkoutFormat,
		private readonly container: Container,
		limits: ReadLimits = {},
	) {
		this.maxPoints = limits.maxPoints ?? defaultLimits.maxPoints;
	}

	/** The next point starts a new segment; empty segments leave no trace. */
	breakSegment(): void {
		this.newSegment = true;
	}

	addPoint(p: TrackPoint): void {
		const index = this.points.length;
		if (index >= this.maxPoints) {
			throw new WorkoutFileError(
				'too_many_points',
				`This file has more than ${this.maxPoints.toLocaleString('en-US')} points, more than we accept in one workout.`,
				{ maxPoints: this.maxPoints },
			);
		}
		if (p.lat !== undefined && !(p.lat >= -90 && p.lat <= 90)) {
			throw new WorkoutFileError(
				'bad_latitude',
				`Point ${index + 1} has latitude ${p.lat}, outside -90 to 90. The file is damaged.`,
				{ point: index, lat: p.lat },
			);
		}
		if (p.lng !== undefined && !(p.lng >= -180 && p.lng <= 180)) {
			throw new WorkoutFileError(
				'bad_longitude',
				`Point ${index + 1} has longitude ${p.lng}, outside -180 to 180. The file is damaged.`,
				{ point: index, lng: p.lng },
			);
		}
		if (p.time !== undefined) {
			if (p.time < this.lastTime && this.lastTime - p.time <= GLITCH_MS) {
				// Devices sometimes repeat a second at a session change; such a point is dropped, not fatal.
				this.droppedGlitches++;
				return;
			}
			if (p.time < this.lastTime) {
				throw new WorkoutFileError(
					'time_backwards',
					`Point ${index + 1} (${formatUtc(p.time)}) is earlier than the point before it (${formatUtc(this.lastTime)}). Times must not go backwards.`,
					{ point: index },
				);
			}
			this.lastTime = p.time;
		}
		if (this.newSegment) {
			this.segmentStarts.push(index);
			this.newSegment = false;
		}
		this.points.push(p);
	}

	/**
	 * A device whose clock was never set writes a placeholder, such as 13 Dec 1901 (the earliest 32-bit Unix
	 * time), on every point. No satellite receiver can have recorded before the GPS epoch, so such times are
	 * not the member's: the track, distance and heights are kept, the times are left out (no duration, pace or
	 * splits rather than false ones), and the workout is dated by the file itself when it says when it was
	 * written. The member is told, and can correct the date on the workout.
	 */
	private forgetUnsetClock(): void {
		const unset = this.points.some((p) => p.time !== undefined && p.time < GPS_EPOCH_MS);
		if (!unset) return;
		const placeholder = this.points.find((p) => p.time !== undefined)?.time as number;
		for (const p of this.points) delete p.time;
		for (const lap of this.laps) delete lap.startTime;
		const written = [this.fileTime, this.startTime].find((t) => t !== undefined && t >= GPS_EPOCH_MS);
		this.startTime = written;
		const said = new Date(placeholder).toISOString().slice(0, 10);
		this.warnOnce(
			written === undefined
				? `${UNSET_CLOCK_WARNING} (its points say ${said}, before GPS existed: the device's clock was not set). The track and distance were kept; its date, duration, pace and splits are unknown.`
				: `${UNSET_CLOCK_WARNING} (its points say ${said}, before GPS existed: the device's clock was not set). The track and distance were kept, dated ${new Date(written).toISOString().slice(0, 10)} when the file was written; its duration, pace and splits are unknown. Change the date on the workout if it is wrong.`,
		);
	}

	warnOnce(message: string): void {
		if (!this.warnings.includes(message)) this.warnings.push(message);
	}

	finish(): NormalisedWorkout {
		if (this.points.length === 0) {
			throw new WorkoutFileError('no_track_points', 'This file has no track points');
		}
		if (this.droppedGlitches > 0) {
			this.warnOnce(`${this.droppedGlitches} point(s) a few seconds out of time order were left out.`);
		}
		this.forgetUnsetClock();
		let startTime = this.startTime;
		for (const p of this.points) {
			if (p.time !== undefined) {
				startTime = p.time;
				break;
			}
		}
		const workout: NormalisedWorkout = {
			format: this.format,
			container: this.container,
			activityType: this.activityType,
			segmentStarts: this.segmentStarts,
			points: this.points,
			laps: this.laps,
			waypoints: this.waypoints.map((waypoint) =>
				waypoint.name === undefined ? waypoint : { ...waypoint, name: cleanFileText(waypoint.name) },
			),
			deviceTotals: this.deviceTotals,
			warnings: this.warnings,
		};
		if (startTime !== undefined) workout.startTime = startTime;
		if (this.recordedUtcOffsetS !== undefined) workout.recordedUtcOffsetS = this.recordedUtcOffsetS;
		const sport = cleanFileText(this.sport);
		const name = cleanFileText(this.name);
		const creator = cleanFileText(this.creator);
		if (sport !== undefined) workout.sport = sport;
		if (name !== undefined) workout.name = name;
		if (creator !== undefined) workout.creator = creator;
		return workout;
	}
}

/**
 * Text a file carries (names, sport, creator) is whatever its writer put there: NUL, control
 * characters and broken surrogates are cleaned away rather than refusing the file, so it can be
 * shown and stored. Text that cleans down to nothing counts as absent.
 */
function cleanFileText(text: string | undefined): string | undefined {
	if (text === undefined) return undefined;
	return cleanText(text, 'single-line') || undefined;
}

/** Reads an optional number; text that is not a finite number leaves the value absent. */
export function parseOptionalNumber(raw: string): number | undefined {
	// Number() skips surrounding whitespace itself; "+ 0" turns a written "-0" into 0 so a value
	// survives a write and read unchanged.
	const value = Number(raw) + 0;
	if (value === 0 && raw.trim() === '') return undefined;
	return Number.isFinite(value) ? value : undefined;
}
