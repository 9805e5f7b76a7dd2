import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { instantOf, wallClockAt } from '../../core/dates';
import type { AppDeps } from '../../core/server/deps';
import demoRoutes from '../../routes/server/demo/demo-routes.json' with { type: 'json' };
import type { DemoRoute } from '../../routes/server/demo/types';
import type { NormalisedWorkout, TrackPoint } from '../../workout-files';
import { haversineM } from '../../workout-files/geo';
import recordings from './demo/demo-recordings.json' with { type: 'json' };
import type { DemoRecording } from './demo/types';
import { deriveFromFile } from './derive-file';
import { ownerDefaults, storeDerivedWorkout } from './service';
import { workouts } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** How many weeks back the demo workouts reach. */
export const DEMO_WEEKS = 12;

const ROUTE_ZONES: Record<string, string> = { US: 'America/New_York', AD: 'Europe/Andorra' };
const ACTIVITY = { run: 16, walk: 9, ride: 11, indoor: 102010 } as const;

/**
 * One kind of outing a demo member repeats: a real recording replayed along a demo route (or, for an
 * indoor session, without a route). A loop is run lap after lap and a one-way route out and back,
 * for at most `legs` times its length; the recording is cut where that ends.
 */
type Outing = {
	name: string;
	recording: string;
	route?: string;
	legs: number;
	privacy: 0 | 1 | 3;
	/** Days of the week it happens on (0 Sunday), and the local hour it starts at. */
	weekdays: number[];
	hour: number;
	/** Only in these weeks back (the Andorra holiday), or in every other week. */
	weeks?: number[];
};

const HOLIDAY_WEEKS = [5];

const DEMO_MEMBER_OUTINGS: Outing[] = [
	{
		name: 'Tempo laps',
		recording: 'run-tempo',
		route: 'Private tempo run',
		legs: 2,
		privacy: 0,
		weekdays: [2],
		hour: 6,
	},
	{
		name: 'Easy run through Paxtang',
		recording: 'run-easy',
		route: 'Paxtang neighbourhood walk',
		legs: 1,
		privacy: 1,
		weekdays: [4],
		hour: 18,
	},
	{
		name: 'Long run to Reservoir Park',
		recording: 'run-long',
		route: 'Allison Hill and Reservoir Park loop',
		legs: 2,
		privacy: 3,
		weekdays: [6],
		hour: 8,
	},
	{
		name: 'Sunday ride to Colonial Park',
		recording: 'ride-power',
		route: 'Penbrook to Colonial Park ride',
		legs: 6,
		privacy: 3,
		weekdays: [0],
		hour: 9,
	},
	{ name: 'Trainer session', recording: 'indoor', legs: 1, privacy: 0, weekdays: [3], hour: 19 },
	{
		name: 'Morning walk in Andorra la Vella',
		recording: 'walk',
		route: 'Andorra la Vella to Escaldes walk',
		legs: 3,
		privacy: 3,
		weekdays: [1, 3, 5],
		hour: 9,
		weeks: HOLIDAY_WEEKS,
	},
	{
		name: 'La Massana hill run',
		recording: 'run-easy',
		route: 'La Massana hill run',
		legs: 2,
		privacy: 1,
		weekdays: [2, 6],
		hour: 8,
		weeks: HOLIDAY_WEEKS,
	},
	{
		name: 'Climb from Sant Julià',
		recording: 'ride-power',
		route: 'Sant Julià to Andorra la Vella climb',
		legs: 4,
		privacy: 3,
		weekdays: [0, 4],
		hour: 10,
		weeks: HOLIDAY_WEEKS,
	},
];

const FRIEND_OUTINGS: Outing[] = [
	{
		name: 'Allison Hill loop',
		recording: 'run-tempo',
		route: 'Allison Hill and Reservoir Park loop',
		legs: 1,
		privacy: 3,
		weekdays: [1],
		hour: 7,
	},
	{
		name: 'Evening walk in Paxtang',
		recording: 'walk',
		route: 'Paxtang neighbourhood walk',
		legs: 1,
		privacy: 1,
		weekdays: [3],
		hour: 19,
	},
	{
		name: 'Long ride out of Penbrook',
		recording: 'ride-long',
		route: 'Penbrook to Colonial Park ride',
		legs: 7,
		privacy: 3,
		weekdays: [6],
		hour: 8,
	},
	{
		name: 'Recovery jog',
		recording: 'run-easy',
		route: 'Private tempo run',
		legs: 1,
		privacy: 0,
		weekdays: [5],
		hour: 17,
	},
];

/** A number in [0, 1) fixed by the text, so a restart would plan the same variations. */
function unitHash(text: string): number {
	return createHash('sha256').update(text).digest().readUInt32BE(0) / 2 ** 32;
}

/** The instant a wall-clock time (minutes after midnight) names in `timeZone`. */
export function zonedInstant(ymd: [number, number, number], minutes: number, timeZone: string): Date {
	const [year, month, day] = ymd;
	return instantOf({ year, month, day, hour: Math.floor(minutes / 60), minute: minutes % 60 }, timeZone);
}

function localDate(instant: Date, timeZone: string): [number, number, number] {
	const { year, month, day } = wallClockAt(instant, timeZone);
	return [year, month, day];
}

type Placed = { lat: number; lng: number; elevation?: number };

/** Walks a route: `at(s)` is the point `s` metres along it, lap after lap or out and back. */
function routeWalker(route: DemoRoute) {
	const path = route.path;
	const cumulative = [0];
	for (let i = 1; i < path.length; i++)
		cumulative.push(cumulative[i - 1] + haversineM(path[i - 1][0], path[i - 1][1], path[i][0], path[i][1]));
	const length = cumulative.at(-1) as number;
	// Heights the routing engine had no tile for are taken from the nearest point that has one.
	const heights = route.elevations.map((height, index) => {
		if (height !== null) return height;
		for (let step = 1; step < path.length; step++) {
			const near = route.elevations[index - step] ?? route.elevations[index + step];
			if (near !== null && near !== undefined) return near;
		}
		return undefined;
	});
	const loop = haversineM(path[0][0], path[0][1], path[path.length - 1][0], path[path.length - 1][1]) < 50;
	let cursor = 0;
	const at = (s: number): Placed => {
		let u = s % (2 * length);
		if (loop) u = s % length;
		else if (u > length) u = 2 * length - u;
		if (u < cumulative[cursor]) cursor = 0;
		while (cursor < cumulative.length - 2 && cumulative[cursor + 1] < u) cursor++;
		const span = cumulative[cursor + 1] - cumulative[cursor];
		const f = span > 0 ? (u - cumulative[cursor]) / span : 0;
		const a = path[cursor];
		const b = path[cursor + 1];
		const ha = heights[cursor];
		const hb = heights[cursor + 1];
		return {
			lat: a[0] + (b[0] - a[0]) * f,
			lng: a[1] + (b[1] - a[1]) * f,
			elevation: ha !== undefined && hb !== undefined ? ha + (hb - ha) * f : undefined,
		};
	};
	return { length, at };
}

/**
 * The recording replayed from `start`: its own times (stretched by `pace`, a few per cent either
 * way, so repeats differ as real ones do), distances, heart rate, cadence and power, placed along
 * the route when there is one.
 */
function replay(
	recording: DemoRecording,
	route: DemoRoute | undefined,
	legs: number,
	start: Date,
	pace: number,
) {
	const walker = route ? routeWalker(route) : null;
	const limit = walker ? walker.length * legs : Number.POSITIVE_INFINITY;
	const points: TrackPoint[] = [];
	for (let i = 0; i < recording.t.length; i++) {
		const distance = recording.d[i];
		if (distance > limit) break;
		const point: TrackPoint = { time: start.getTime() + Math.round(recording.t[i] * pace * 1000) };
		if (walker) {
			Object.assign(point, walker.at(distance));
			point.distance = distance;
		}
		const heartRate = recording.hr?.[i];
		const cadence = recording.cad?.[i];
		const power = recording.pow?.[i];
		if (heartRate != null) point.heartRate = heartRate;
		if (cadence != null) point.cadence = cadence;
		if (power != null) point.power = power;
		if (point.elevation === undefined) delete point.elevation;
		points.push(point);
	}
	const workout: NormalisedWorkout = {
		format: 'fit',
		container: 'none',
		startTime: start.getTime(),
		activityType: recording.kind === 'indoor' ? 11 : ACTIVITY[recording.kind],
		creator: recording.device,
		segmentStarts: [0],
		points,
		laps: [],
		waypoints: [],
		deviceTotals: {},
		warnings: [],
	};
	return workout;
}

const routesByName = new Map((demoRoutes as DemoRoute[]).map((route) => [route.name, route]));
const recordingsByKey = new Map(
	(recordings as DemoRecording[]).map((recording) => [recording.key, recording]),
);

/**
 * Gives a demo member `DEMO_WEEKS` weeks of workouts up to yesterday from the outings' real
 * recordings. Does nothing for a member who already has workouts, so it never doubles them.
 */
export async function seedDemoWorkouts(deps: Deps, ownerId: number, outings: Outing[]): Promise<number> {
	const [{ value: existing }] = await deps.db
		.select({ value: count() })
		.from(workouts)
		.where(eq(workouts.ownerId, ownerId));
	if (existing > 0) return 0;
	const { weightKg } = await ownerDefaults(deps, ownerId);
	const now = deps.clock();
	let stored = 0;
	for (let daysAgo = DEMO_WEEKS * 7; daysAgo >= 1; daysAgo--) {
		const week = Math.floor((daysAgo - 1) / 7);
		for (const outing of outings) {
			const holiday = outing.weeks !== undefined;
			if (holiday ? !outing.weeks?.includes(week) : HOLIDAY_WEEKS.includes(week)) continue;
			const route = outing.route ? routesByName.get(outing.route) : undefined;
			const timeZone = ROUTE_ZONES[route?.country ?? 'US'] ?? 'UTC';
			const day = new Date(now.getTime() - daysAgo * 86_400_000);
			const ymd = localDate(day, timeZone);
			const weekday = new Date(Date.UTC(ymd[0], ymd[1] - 1, ymd[2])).getUTCDay();
			if (!outing.weekdays.includes(weekday)) continue;
			const key = `${ownerId}:${outing.name}:${ymd.join('-')}`;
			// At home a member skips about one planned outing in six; on holiday, none.
			if (!holiday && unitHash(`skip:${key}`) < 0.17) continue;
			const start = zonedInstant(ymd, outing.hour * 60 + Math.floor(unitHash(`min:${key}`) * 50), timeZone);
			const pace = 0.96 + unitHash(`pace:${key}`) * 0.08;
			const recording = recordingsByKey.get(outing.recording) as DemoRecording;
			const derived = deriveFromFile(replay(recording, route, outing.legs, start, pace), weightKg);
			if (!derived) continue;
			const outcome = await storeDerivedWorkout(deps, ownerId, derived, {
				name: outing.name,
				activityType: recording.kind === 'indoor' ? ACTIVITY.indoor : undefined,
				privacy: outing.privacy,
				timeZone,
				source: `Demo · replayed ${recording.device} recording`,
			});
			if (outcome.created) stored++;
		}
	}
	return stored;
}

export const DEMO_OUTINGS = { member: DEMO_MEMBER_OUTINGS, friend: FRIEND_OUTINGS };

/** What the test device cloud's test watch can record: demo outings, each a real recording replayed. */
export const TEST_WATCH_OUTINGS = {
	run: 'Easy run through Paxtang',
	walk: 'Evening walk in Paxtang',
	ride: 'Sunday ride to Colonial Park',
} as const;
export type TestWatchOuting = keyof typeof TEST_WATCH_OUTINGS;

function testWatchPlan(outing: TestWatchOuting) {
	const name = TEST_WATCH_OUTINGS[outing];
	const plan = [...DEMO_MEMBER_OUTINGS, ...FRIEND_OUTINGS].find((entry) => entry.name === name) as Outing;
	return {
		plan,
		recording: recordingsByKey.get(plan.recording) as DemoRecording,
		route: plan.route ? routesByName.get(plan.route) : undefined,
	};
}

/** The test watch's recording of an outing from `start`: its real recording replayed along its demo route. */
export function testWatchRecording(outing: TestWatchOuting, start: Date): NormalisedWorkout {
	const { plan, recording, route } = testWatchPlan(outing);
	return replay(recording, route, plan.legs, start, 1);
}

/** How long the test watch's recording of an outing lasts. */
export function testWatchDurationMs(outing: TestWatchOuting): number {
	const recorded = testWatchRecording(outing, new Date(0));
	return recorded.points.at(-1)?.time ?? 0;
}
