import { ActivityTypeId, type NormalisedWorkout, type WorkoutSummary } from './contract';
import { haversineM, KM_M, MILE_M } from './geo';
import { formatUtc } from './time';

/**
 * Speed at or above which an interval between two points counts as moving (1.8 km/h) for runs, rides and
 * swims: below it a runner or rider is standing, and GPS drift at a standstill stays under it.
 */
export const MOVING_SPEED_MPS = 0.5;
/**
 * The same for walks, hikes and every file that names no sport we know (1 km/h, the stop threshold gpxpy,
 * Strava-style tools and handheld devices' own timers use): a steep climb, a scramble or a stroll runs at
 * 1–1.8 km/h and is movement, not a stop, and a handheld file without a sport is most often a walk or hike.
 */
export const WALKING_MOVING_SPEED_MPS = 1 / 3.6;

/** The moving-speed threshold for an activity type: 1.8 km/h for runs, rides and swims, 1 km/h otherwise. */
export function movingSpeedThreshold(activityType: NormalisedWorkout['activityType']): number {
	return activityType === ActivityTypeId.run ||
		activityType === ActivityTypeId.ride ||
		activityType === ActivityTypeId.swim
		? MOVING_SPEED_MPS
		: WALKING_MOVING_SPEED_MPS;
}
/**
 * Weights of the light smoothing applied to elevations before counting climb: each height inside a
 * segment becomes 0.3 × the one before + 0.4 × itself + 0.3 × the one after (gpxpy's smoothing); a
 * segment's first and last heights stay as recorded.
 */
export const ELEVATION_SMOOTHING_WEIGHTS = [0.3, 0.4, 0.3] as const;
/**
 * Rise or drop, after smoothing, that confirms a turning point (hysteresis). With 5 m the Garmin
 * fixtures land within 3 % of the barometric totals their devices wrote (Edge 810: 515.2 / 519.2 m
 * against 514 / 515; the multisport file 1619.6 / 1605.4 against 1579 / 1584), and every real fixture
 * lies between a 5 m dead band on the raw heights and gpxpy's figure (tests/unit/workout-files/references.test.ts).
 */
export const ELEVATION_THRESHOLD_M = 5;
/** Shortest window for the max speed when the file has no speed stream. */
export const MAX_SPEED_WINDOW_S = 5;
/** Longest gap between samples that counts towards time-based sums (power work, moving time without distance). */
export const MAX_SAMPLE_GAP_S = 10;
/** Body mass assumed for calorie estimates when the caller does not pass the member's. */
export const DEFAULT_WEIGHT_KG = 70;
export const JOULES_PER_KCAL = 4184;
/** Gross mechanical efficiency of a human on a bike, for calories from power. */
export const HUMAN_EFFICIENCY = 0.24;

export const RECORD_DISTANCES: ReadonlyArray<{ name: string; metres: number }> = [
	{ name: '1 km', metres: 1000 },
	{ name: '1 mi', metres: MILE_M },
	{ name: '5 km', metres: 5000 },
	{ name: '5 mi', metres: 5 * MILE_M },
	{ name: '10 km', metres: 10000 },
	{ name: '10 mi', metres: 10 * MILE_M },
	{ name: 'half marathon', metres: 21097.5 },
	{ name: 'marathon', metres: 42195 },
	{ name: '50 km', metres: 50000 },
	{ name: '50 mi', metres: 50 * MILE_M },
	{ name: '100 km', metres: 100000 },
	{ name: '100 mi', metres: 100 * MILE_M },
];
/** An effort counts for a record distance when it covers 99–105 % of it. */
export const RECORD_WINDOW = { min: 0.99, max: 1.05 } as const;

/**
 * The record distances a whole workout counts for: those whose 99–105 % window holds the
 * workout's distance, e.g. a 5.1 km run is a 5 km effort, a 5.3 km run is not.
 */
export function matchRecordDistances(distanceM: number): Array<{ name: string; metres: number }> {
	return RECORD_DISTANCES.filter(
		(r) => distanceM >= r.metres * RECORD_WINDOW.min && distanceM <= r.metres * RECORD_WINDOW.max,
	);
}

export interface Split {
	index: number;
	distanceM: number;
	elapsedS: number;
	/** Seconds per km (metric splits) or per mile (imperial splits). */
	paceS: number;
}

export interface BestEffort {
	name: string;
	targetM: number;
	distanceM: number;
	timeS: number;
	startPoint: number;
	endPoint: number;
}

export interface StatSummary {
	min: number;
	avg: number;
	max: number;
}

export interface WorkoutMetrics {
	distanceM: number;
	distanceSource: 'positions' | 'recorded' | 'none';
	deviceDistanceM?: number;
	elapsedS: number;
	movingS: number;
	elevationGainM: number;
	elevationLossM: number;
	deviceAscentM?: number;
	deviceDescentM?: number;
	avgSpeedMps: number;
	maxSpeedMps: number;
	avgPaceSPerKm: number | null;
	avgPaceSPerMi: number | null;
	heartRate: StatSummary | null;
	cadence: StatSummary | null;
	power: StatSummary | null;
	calories: { kcal: number; joules: number; source: 'device' | 'power' | 'estimate' } | null;
	splitsKm: Split[];
	splitsMi: Split[];
	bestEfforts: BestEffort[];
	bbox: [number, number, number, number] | null;
	/** Cumulative distance at each point, metres; what splits and best efforts are measured on. */
	cumulativeDistanceM: Float64Array;
}

export interface MetricsOptions {
	/** The member's weight for calorie estimates; DEFAULT_WEIGHT_KG otherwise. */
	weightKg?: number;
	/**
	 * The activity as the member gave it, when it should count instead of the file's own (a GPX that
	 * names no sport, a walk recorded as "Other"): it picks the moving-speed threshold and the calorie
	 * model.
	 */
	activityType?: NormalisedWorkout['activityType'];
}

/**
 * Cumulative distance per point. With positions: haversine between consecutive positioned points of
 * the same segment (no distance is counted across a gap between segments; points without a fix are
 * bridged). Without any position: the device's recorded distance stream, increases only, counted from
 * 0 at the start as FIT and TCX define it (a pool swim's first record already holds its first length).
 */
export function computeCumulativeDistance(w: NormalisedWorkout): {
	cumulative: Float64Array;
	source: WorkoutMetrics['distanceSource'];
} {
	const points = w.points;
	const n = points.length;
	const cumulative = new Float64Array(n);
	let positioned = 0;
	for (const p of points) if (p.lat !== undefined && p.lng !== undefined) positioned++;
	if (positioned >= 2) {
		let segment = 0;
		let lastLat = Number.NaN;
		let lastLng = Number.NaN;
		let total = 0;
		for (let i = 0; i < n; i++) {
			if (segment < w.segmentStarts.length && w.segmentStarts[segment] === i) {
				segment++;
				lastLat = Number.NaN;
			}
			const p = points[i];
			if (p.lat !== undefined && p.lng !== undefined) {
				if (!Number.isNaN(lastLat)) total += haversineM(lastLat, lastLng, p.lat, p.lng);
				lastLat = p.lat;
				lastLng = p.lng;
			}
			cumulative[i] = total;
		}
		return { cumulative, source: 'positions' };
	}
	let recorded = 0;
	let total = 0;
	let last = 0;
	for (let i = 0; i < n; i++) {
		const d = points[i].distance;
		if (d !== undefined) {
			recorded++;
			if (d > last) total += d - last;
			last = d;
		}
		cumulative[i] = total;
	}
	return { cumulative, source: recorded >= 2 ? 'recorded' : 'none' };
}

/**
 * Moving time: the sum of the spans between successive changes of distance within a segment whose
 * average speed (distance ÷ time) is at least the activity's threshold (movingSpeedThreshold:
 * 1 km/h for walks and hikes, 1.8 km/h otherwise); with GPS every sample changes the
 * distance, so a span is the interval between two points. When a span fails (it holds a stop), its
 * last interval alone still counts if it is fast enough, so leaving a stop is not lost. A stop, an auto-pause gap or standing at a
 * crossing therefore does not count. Without any distance information an interval counts when it
 * is at most MAX_SAMPLE_GAP_S long and power or cadence (when recorded) is above zero.
 */
function computeMovingTime(
	w: NormalisedWorkout,
	cumulative: Float64Array,
	source: WorkoutMetrics['distanceSource'],
	threshold: number,
): number {
	const points = w.points;
	const starts = new Set(w.segmentStarts);
	let moving = 0;
	let prev = -1;
	let anchor = -1;
	for (let i = 0; i < points.length; i++) {
		const t = points[i].time;
		if (t === undefined) continue;
		if (starts.has(i)) anchor = -1;
		if (prev >= 0 && !starts.has(i)) {
			const dt = (t - (points[prev].time as number)) / 1000;
			if (source !== 'none') {
				// Speed over the span since distance last changed: a pool swim's distance moves once a length.
				if (anchor >= 0 && cumulative[i] > cumulative[anchor]) {
					const span = (t - (points[anchor].time as number)) / 1000;
					if (span > 0 && (cumulative[i] - cumulative[anchor]) / span >= threshold) moving += span;
					else if (dt > 0 && (cumulative[i] - cumulative[prev]) / dt >= threshold) moving += dt;
					anchor = i;
				}
			} else if (dt > 0) {
				if (dt <= MAX_SAMPLE_GAP_S) {
					const p = points[i];
					const effort = p.power ?? p.cadence;
					if (effort === undefined || effort > 0) moving += dt;
				}
			}
		}
		if (anchor < 0) anchor = i;
		prev = i;
	}
	return moving;
}

/**
 * Elevation gain and loss: the one climb figure of the product (workout files, the CLI, uploads, routes,
 * the planner and challenges all count with it). Each segment (a GPX trkseg, a TCX pause, a FIT timer
 * stop) is smoothed lightly on its own (ELEVATION_SMOOTHING_WEIGHTS over three heights; its first and
 * last heights stay as recorded), so no average reaches across a break. The smoothed profile is then read
 * for turning points with hysteresis: a peak is confirmed once the profile has dropped
 * ELEVATION_THRESHOLD_M below it, a trough once it has risen that much above it, and each climb counts
 * from its trough to its peak (each descent from its peak to its trough); the last leg counts up to its
 * highest (or lowest) level. Rises and drops smaller than the threshold — GPS noise on flat ground —
 * count nothing. A segment carries on from the height the previous one ended at, so the jump between two
 * segments counts nothing (as with distance: a lift ridden while paused is no climb), while a climb
 * interrupted by a pause still counts whole, and a track cut into many short segments counts the same
 * climb as the whole track less its jumps.
 *
 * `segmentStarts` are indices into `elevations` where a segment begins; by default one segment.
 * `smooth: false` leaves out the smoothing, for heights that do not jitter and may lie kilometres apart
 * (a route's points take theirs from the height map; an average over neighbours would blend two hills):
 * the hysteresis still applies.
 */
export function computeElevationChange(
	elevations: ArrayLike<number>,
	segmentStarts: ArrayLike<number> = [0],
	options: { smooth?: boolean } = {},
): { gain: number; loss: number } {
	const n = elevations.length;
	if (n < 2) return { gain: 0, loss: 0 };
	const [before, self, after] = options.smooth === false ? [0, 1, 0] : ELEVATION_SMOOTHING_WEIGHTS;
	let gain = 0;
	let loss = 0;
	// Direction of the current leg: 1 climbing, -1 descending, 0 not yet known.
	let direction = 0;
	// The last confirmed turning point, and the highest (climbing) or lowest (descending) level since;
	// while the direction is unknown, the lowest and highest levels seen.
	let turn = Number.NaN;
	let extreme = Number.NaN;
	let low = Number.NaN;
	let high = Number.NaN;
	let previous = Number.NaN;
	let next = 0;
	for (let start = 0; start < n; ) {
		while (next < segmentStarts.length && segmentStarts[next] <= start) next++;
		const end = next < segmentStarts.length ? Math.min(n, segmentStarts[next]) : n;
		// Each segment carries on from the level the previous one ended at.
		let offset = 0;
		for (let i = start; i < end; i++) {
			let level =
				i > start && i < end - 1
					? before * elevations[i - 1] + self * elevations[i] + after * elevations[i + 1]
					: elevations[i];
			if (i === start && start > 0) offset = previous - level;
			level += offset;
			if (direction === 1) {
				if (level > extreme) extreme = level;
				else if (extreme - level >= ELEVATION_THRESHOLD_M) {
					gain += extreme - turn;
					turn = extreme;
					extreme = level;
					direction = -1;
				}
			} else if (direction === -1) {
				if (level < extreme) extreme = level;
				else if (level - extreme >= ELEVATION_THRESHOLD_M) {
					loss += turn - extreme;
					turn = extreme;
					extreme = level;
					direction = 1;
				}
			} else if (i === 0) {
				low = level;
				high = level;
			} else if (level - low >= ELEVATION_THRESHOLD_M) {
				direction = 1;
				turn = low;
				extreme = level;
			} else if (high - level >= ELEVATION_THRESHOLD_M) {
				direction = -1;
				turn = high;
				extreme = level;
			} else {
				if (level < low) low = level;
				if (level > high) high = level;
			}
			previous = level;
		}
		start = end;
	}
	if (direction === 1) gain += extreme - turn;
	else if (direction === -1) loss += turn - extreme;
	return { gain, loss };
}

/**
 * A workout's climb and descent: computeElevationChange over the points that have a height, each
 * segment of the workout a segment of the profile. What members see for a recording, whether it comes
 * from the CLI, an upload or a file imported as a route.
 */
export function computeWorkoutElevationChange(w: NormalisedWorkout): { gain: number; loss: number } {
	const elevations: number[] = [];
	// Where each segment's elevations begin in `elevations`.
	const segmentStarts: number[] = [];
	let nextSegment = 0;
	for (let i = 0; i < w.points.length; i++) {
		if (nextSegment < w.segmentStarts.length && w.segmentStarts[nextSegment] <= i) {
			while (nextSegment < w.segmentStarts.length && w.segmentStarts[nextSegment] <= i) nextSegment++;
			segmentStarts.push(elevations.length);
		}
		const elevation = w.points[i].elevation;
		if (elevation !== undefined) elevations.push(elevation);
	}
	return computeElevationChange(elevations, segmentStarts);
}

function summarise(values: number[], includeZeros: boolean): StatSummary | null {
	let min = Number.POSITIVE_INFINITY;
	let max = Number.NEGATIVE_INFINITY;
	let sum = 0;
	let count = 0;
	for (const v of values) {
		if (!includeZeros && v <= 0) continue;
		if (v < min) min = v;
		if (v > max) max = v;
		sum += v;
		count++;
	}
	return count === 0 ? null : { min, avg: sum / count, max };
}

/** Splits of `unit` metres; each split's time is interpolated at the exact boundary. The last, partial split is kept. */
export function computeSplits(w: NormalisedWorkout, cumulative: Float64Array, unit: number): Split[] {
	const splits: Split[] = [];
	let lastD = Number.NaN;
	let lastT = Number.NaN;
	let splitStartT = Number.NaN;
	let splitStartD = 0;
	for (let i = 0; i < w.points.length; i++) {
		const t = w.points[i].time;
		if (t === undefined) continue;
		const d = cumulative[i];
		if (Number.isNaN(lastT)) {
			splitStartT = t;
			splitStartD = d;
		} else {
			while (d >= splitStartD + unit && d > lastD) {
				const boundary = splitStartD + unit;
				const at = lastT + ((boundary - lastD) / (d - lastD)) * (t - lastT);
				const elapsedS = (at - splitStartT) / 1000;
				splits.push({ index: splits.length + 1, distanceM: unit, elapsedS, paceS: elapsedS });
				splitStartT = at;
				splitStartD = boundary;
			}
		}
		lastD = d;
		lastT = t;
	}
	if (!Number.isNaN(lastT) && lastD - splitStartD > 1) {
		const distanceM = lastD - splitStartD;
		const elapsedS = (lastT - splitStartT) / 1000;
		splits.push({ index: splits.length + 1, distanceM, elapsedS, paceS: elapsedS / (distanceM / unit) });
	}
	return splits;
}

/**
 * Best efforts inside the workout for each record distance: the fastest stretch between two
 * timed points whose distance lies within 99–105 % of the target (elapsed time, pauses included).
 * Two pointers per target, so the cost is linear in the number of points.
 */
export function computeBestEfforts(w: NormalisedWorkout, cumulative: Float64Array): BestEffort[] {
	const idx: number[] = [];
	for (let i = 0; i < w.points.length; i++) if (w.points[i].time !== undefined) idx.push(i);
	const m = idx.length;
	const d = new Float64Array(m);
	const t = new Float64Array(m);
	for (let k = 0; k < m; k++) {
		d[k] = cumulative[idx[k]];
		t[k] = w.points[idx[k]].time as number;
	}
	const efforts: BestEffort[] = [];
	const total = m > 0 ? d[m - 1] - d[0] : 0;
	for (const target of RECORD_DISTANCES) {
		const lo = target.metres * RECORD_WINDOW.min;
		const hi = target.metres * RECORD_WINDOW.max;
		if (total < lo) continue;
		let best: BestEffort | null = null;
		let j = 0;
		for (let i = 0; i < m; i++) {
			if (j < i) j = i;
			while (j < m && d[j] - d[i] < lo) j++;
			if (j >= m) break;
			const span = d[j] - d[i];
			if (span <= hi) {
				const timeS = (t[j] - t[i]) / 1000;
				if (timeS > 0 && (best === null || timeS < best.timeS)) {
					best = {
						name: target.name,
						targetM: target.metres,
						distanceM: span,
						timeS,
						startPoint: idx[i],
						endPoint: idx[j],
					};
				}
			}
		}
		if (best !== null) efforts.push(best);
	}
	return efforts;
}

function computeMaxSpeed(
	w: NormalisedWorkout,
	cumulative: Float64Array,
	source: WorkoutMetrics['distanceSource'],
): number {
	let max = 0;
	let fromStream = false;
	for (const p of w.points) {
		if (p.speed !== undefined) {
			fromStream = true;
			if (p.speed > max) max = p.speed;
		}
	}
	if (fromStream || source === 'none') return max;
	const points = w.points;
	let j = 0;
	for (let i = 0; i < points.length; i++) {
		const ti = points[i].time;
		if (ti === undefined) continue;
		if (j < i) j = i;
		while (j < points.length && ((points[j].time ?? ti) - ti) / 1000 < MAX_SPEED_WINDOW_S) j++;
		if (j >= points.length) break;
		const dt = ((points[j].time as number) - ti) / 1000;
		const speed = (cumulative[j] - cumulative[i]) / dt;
		// A window spanning a long pause says nothing about top speed.
		if (dt <= MAX_SPEED_WINDOW_S * 4 && speed > max) max = speed;
	}
	return max;
}

/**
 * Calories, in order of preference: the device's own total; from power, mechanical work
 * Σ(watts × seconds) ÷ HUMAN_EFFICIENCY converted at 1 kcal = 4184 J; else an estimate from body
 * mass: running 1.0 kcal per kg per km, walking and hiking 0.5, cycling MET by average moving speed
 * (4 below 16 km/h, 6.8 to 19, 8 to 22, 10 to 25, 12 above) and swimming MET 8 over moving time,
 * anything else MET 5. MET × kg × hours gives kcal.
 */
function computeCalories(
	w: NormalisedWorkout,
	activityType: NormalisedWorkout['activityType'],
	distanceM: number,
	movingS: number,
	avgSpeed: number,
	weightKg: number,
): WorkoutMetrics['calories'] {
	if (w.deviceTotals.calories !== undefined && w.deviceTotals.calories > 0) {
		const kcal = w.deviceTotals.calories;
		return { kcal, joules: kcal * JOULES_PER_KCAL, source: 'device' };
	}
	let work = 0;
	let hasPower = false;
	let prevT: number | undefined;
	for (const p of w.points) {
		if (p.power !== undefined && p.time !== undefined && prevT !== undefined) {
			const dt = (p.time - prevT) / 1000;
			if (dt > 0 && dt <= MAX_SAMPLE_GAP_S) {
				work += p.power * dt;
				hasPower = true;
			}
		}
		if (p.time !== undefined) prevT = p.time;
	}
	if (hasPower && work > 0) {
		const joules = work / HUMAN_EFFICIENCY;
		return { kcal: joules / JOULES_PER_KCAL, joules, source: 'power' };
	}
	if (distanceM <= 0 && movingS <= 0) return null;
	const km = distanceM / 1000;
	const hours = movingS / 3600;
	let kcal: number;
	switch (activityType) {
		case ActivityTypeId.run:
			kcal = 1.0 * weightKg * km;
			break;
		case ActivityTypeId.walk:
		case ActivityTypeId.hike:
			kcal = 0.5 * weightKg * km;
			break;
		case ActivityTypeId.ride: {
			const kmh = avgSpeed * 3.6;
			const met = kmh < 16 ? 4 : kmh < 19 ? 6.8 : kmh < 22 ? 8 : kmh < 25 ? 10 : 12;
			kcal = met * weightKg * hours;
			break;
		}
		case ActivityTypeId.swim:
			kcal = 8 * weightKg * hours;
			break;
		default:
			kcal = 5 * weightKg * hours;
	}
	return { kcal, joules: kcal * JOULES_PER_KCAL, source: 'estimate' };
}

/**
 * Everything members see about a workout. Distance is ours (see computeCumulativeDistance) with the
 * device total beside it; elapsed time runs from the first to the last timed point; averages of
 * speed and pace use moving time; heart rate and cadence ignore zero samples (no strap, coasting)
 * while power keeps them (coasting is part of the ride).
 */
export function computeMetrics(w: NormalisedWorkout, options: MetricsOptions = {}): WorkoutMetrics {
	const { cumulative, source } = computeCumulativeDistance(w);
	const n = w.points.length;
	const distanceM = n > 0 ? cumulative[n - 1] : 0;
	let firstT: number | undefined;
	let lastT: number | undefined;
	const hr: number[] = [];
	const cad: number[] = [];
	const pow: number[] = [];
	let minLat = 90;
	let maxLat = -90;
	let minLng = 180;
	let maxLng = -180;
	let positioned = false;
	for (let i = 0; i < n; i++) {
		const p = w.points[i];
		if (p.time !== undefined) {
			firstT ??= p.time;
			lastT = p.time;
		}
		if (p.heartRate !== undefined) hr.push(p.heartRate);
		if (p.cadence !== undefined) cad.push(p.cadence);
		if (p.power !== undefined) pow.push(p.power);
		if (p.lat !== undefined && p.lng !== undefined) {
			positioned = true;
			if (p.lat < minLat) minLat = p.lat;
			if (p.lat > maxLat) maxLat = p.lat;
			if (p.lng < minLng) minLng = p.lng;
			if (p.lng > maxLng) maxLng = p.lng;
		}
	}
	const elapsedS = firstT !== undefined && lastT !== undefined ? (lastT - firstT) / 1000 : 0;
	const activityType = options.activityType ?? w.activityType;
	const movingS = computeMovingTime(w, cumulative, source, movingSpeedThreshold(activityType));
	const { gain, loss } = computeWorkoutElevationChange(w);
	const avgSpeedMps = movingS > 0 ? distanceM / movingS : 0;
	const metrics: WorkoutMetrics = {
		distanceM,
		distanceSource: source,
		elapsedS,
		movingS,
		elevationGainM: gain,
		elevationLossM: loss,
		avgSpeedMps,
		maxSpeedMps: computeMaxSpeed(w, cumulative, source),
		avgPaceSPerKm: distanceM > 0 && movingS > 0 ? movingS / (distanceM / KM_M) : null,
		avgPaceSPerMi: distanceM > 0 && movingS > 0 ? movingS / (distanceM / MILE_M) : null,
		heartRate: summarise(hr, false),
		cadence: summarise(cad, false),
		power: summarise(pow, true),
		calories: computeCalories(
			w,
			activityType,
			distanceM,
			movingS,
			avgSpeedMps,
			options.weightKg ?? DEFAULT_WEIGHT_KG,
		),
		splitsKm: computeSplits(w, cumulative, KM_M),
		splitsMi: computeSplits(w, cumulative, MILE_M),
		bestEfforts: computeBestEfforts(w, cumulative),
		bbox: positioned ? [minLng, minLat, maxLng, maxLat] : null,
		cumulativeDistanceM: cumulative,
	};
	if (w.deviceTotals.distanceM !== undefined) metrics.deviceDistanceM = w.deviceTotals.distanceM;
	if (w.deviceTotals.ascentM !== undefined) metrics.deviceAscentM = w.deviceTotals.ascentM;
	if (w.deviceTotals.descentM !== undefined) metrics.deviceDescentM = w.deviceTotals.descentM;
	return metrics;
}

const round = (value: number, places: number) => Math.round(value * 10 ** places) / 10 ** places;

/** The summary `inspect` prints and the upload API returns. */
export function summariseWorkout(
	w: NormalisedWorkout,
	m: WorkoutMetrics = computeMetrics(w),
): WorkoutSummary {
	const summary: WorkoutSummary = {
		format: w.format,
		container: w.container,
		activity_type: w.activityType,
		sport: w.sport ?? null,
		start_time: w.startTime === undefined ? null : formatUtc(w.startTime),
		elapsed_s: round(m.elapsedS, 3),
		moving_s: round(m.movingS, 3),
		distance_m: round(m.distanceM, 2),
		point_count: w.points.length,
		elevation_gain_m: round(m.elevationGainM, 1),
		elevation_loss_m: round(m.elevationLossM, 1),
		heart_rate: m.heartRate
			? { min: m.heartRate.min, avg: round(m.heartRate.avg, 1), max: m.heartRate.max }
			: null,
		bbox: m.bbox
			? [round(m.bbox[0], 7), round(m.bbox[1], 7), round(m.bbox[2], 7), round(m.bbox[3], 7)]
			: null,
	};
	if (m.deviceDistanceM !== undefined) summary.device_distance_m = round(m.deviceDistanceM, 2);
	if (m.deviceAscentM !== undefined) summary.device_ascent_m = m.deviceAscentM;
	if (m.deviceDescentM !== undefined) summary.device_descent_m = m.deviceDescentM;
	return summary;
}
