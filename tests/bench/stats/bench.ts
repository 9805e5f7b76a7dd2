/**
 * Stats as a member reads them, through the API app (validation, SQL, time-zone arithmetic, JSON),
 * for a member with 10,000 workouts over ten years in Europe/Ljubljana:
 *
 * 1. workout_stats for a year (weeks, months, years, the week and month of a date) (p50/p95).
 * 2. workout_calendar: the dashboard month (p50/p95).
 * 3. workout_lifetime: lifetime totals, longest and fastest, a year's heatmap (p50/p95).
 * 4. personal_records and user_goal_progress once their workouts are looked at (p50/p95).
 * 5. Personal records of a newly uploaded 12-hour, 1 Hz recording, asked for after the upload (p50/p95); its
 *    best efforts are found as the upload is stored, and that part of the upload is timed too.
 *
 * PGlite always; PostgreSQL too when BENCH_DATABASE_URL names a database of its own (it is emptied first):
 *
 *   npm run bench:stats
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_stats npm run bench:stats
 *
 * Goals: 1–3 p95 ≤ 15 ms; 5 ≤ 50 ms. Figures only; nothing passes or fails on speed.
 */
import { eq } from 'drizzle-orm';
import { users } from '../../../src/lib/auth/server/tables';
import type { Db } from '../../../src/lib/core/server/deps';
import * as schema from '../../../src/lib/db/tables';
import { createGoalsApi } from '../../../src/lib/goals/server/api';
import { effortsOf } from '../../../src/lib/stats/records';
import { createStatsApi } from '../../../src/lib/stats/server/api';
import { scanEfforts } from '../../../src/lib/stats/server/records';
import { writeFit } from '../../../src/lib/workout-files';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { workoutFromSamples } from '../../../src/lib/workouts/analysis';
import type { SeriesSample } from '../../../src/lib/workouts/series';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { workouts } from '../../../src/lib/workouts/server/tables';
import { addSignedInMember, createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import { onBenchDatabases } from '../databases';

const MEMBER_WORKOUTS = Number(process.env.BENCH_WORKOUTS ?? 10_000);
const QUERY_RUNS = Number(process.env.BENCH_RUNS ?? 200);
const UPLOAD_RUNS = Number(process.env.BENCH_UPLOAD_RUNS ?? 5);
const NOW = new Date('2026-11-25T14:00:00Z');

function percentile(samples: number[], q: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const summary = (samples: number[]) =>
	`p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms (n=${samples.length})`;

async function timed(
	call: () => Response | Promise<Response>,
	runs: number,
	label: string,
): Promise<number[]> {
	for (let i = 0; i < 10; i++) await (await call()).text();
	const samples: number[] = [];
	for (let i = 0; i < runs; i++) {
		const started = performance.now();
		const response = await call();
		const body = await response.text();
		samples.push(performance.now() - started);
		if (response.status !== 200) throw new Error(`${label}: ${response.status} ${body.slice(0, 200)}`);
	}
	return samples;
}

/** A 12-hour run at 1 Hz as a watch records it, as a FIT file. */
function twelveHourFit(startMs: number, seed: number): Uint8Array {
	const samples: SeriesSample[] = [];
	let lat = 46.05;
	let lng = 14.5;
	let distance = 0;
	for (let s = 0; s < 12 * 3600; s++) {
		const speed = 3 + Math.sin((s + seed) / 300);
		const heading = (s / 1800) * Math.PI;
		lat += (speed * Math.cos(heading)) / 111_195;
		lng += (speed * Math.sin(heading)) / (111_195 * Math.cos((lat * Math.PI) / 180));
		distance += speed;
		samples.push({ offsetMs: s * 1000, lat, lng, heartRate: 140, speed, distance });
	}
	return writeFit(workoutFromSamples(samples, { startMs, activityType: 16, name: 'Twelve hours' }));
}

async function run(kind: string, db: Db): Promise<void> {
	console.log(`\n${kind}`);
	const deps = createTestDeps(db, { clock: createTestClock(NOW) });
	const app = createTestApi(deps, { routes: [createWorkoutsApi(), createGoalsApi(), createStatsApi()] });
	const busy = await addSignedInMember(deps, `busy_${kind.split(' ')[0]}`);
	await db.update(users).set({ timeZone: 'Europe/Ljubljana' }).where(eq(users.id, busy.viewer.id));

	// Ten years up to now, a workout every 8.8 hours, runs, walks, rides and hikes.
	const seeded = performance.now();
	const first = NOW.getTime() - 3652 * 86_400_000;
	const step = (NOW.getTime() - first) / MEMBER_WORKOUTS;
	for (let offset = 0; offset < MEMBER_WORKOUTS; offset += 1000) {
		const rows = [];
		for (let i = offset; i < Math.min(MEMBER_WORKOUTS, offset + 1000); i++)
			rows.push({
				ownerId: busy.viewer.id,
				name: `Workout ${i}`,
				activityTypeId: [16, 9, 11, 24][i % 4],
				privacy: 0,
				startDatetime: new Date(first + i * step),
				distanceTotal: 3000 + (i % 20) * 500,
				activeTimeTotal: 1200 + (i % 30) * 60,
				elapsedTimeTotal: 1300 + (i % 30) * 60,
				metabolicEnergyTotal: 1_500_000 + (i % 10) * 100_000,
			});
		await db.insert(workouts).values(rows);
	}
	console.log(
		`  seeded ${MEMBER_WORKOUTS.toLocaleString('en-US')} workouts over ten years in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
	);
	const auth = { headers: { authorization: `Bearer ${busy.token}` } };
	const get = (path: string) => () => app.request(path, auth);

	const year = await timed(
		get('/api/v7.1/workout_stats/?year=2025&week_type=isoWeek&activity_groups=run,ride'),
		QUERY_RUNS,
		'stats',
	);
	console.log(`  stats for a year (isoWeek, runs and rides): ${summary(year)}   goal p95 ≤ 15 ms`);
	const month = await timed(get('/api/v7.1/workout_calendar/?month=2026-11'), QUERY_RUNS, 'calendar');
	console.log(`  dashboard month: ${summary(month)}   goal p95 ≤ 15 ms`);
	const life = await timed(get('/api/v7.1/workout_lifetime/'), QUERY_RUNS, 'lifetime');
	console.log(`  lifetime page: ${summary(life)}   goal p95 ≤ 15 ms`);

	const firstScan = performance.now();
	const scanned = await scanEfforts(deps, busy.viewer.id);
	console.log(
		`  first look for best efforts: ${scanned.toLocaleString('en-US')} workouts in ${(performance.now() - firstScan).toFixed(0)} ms (once per member)`,
	);
	const records = await timed(get('/api/v7.1/personal_records/'), QUERY_RUNS, 'records');
	console.log(`  personal records: ${summary(records)}`);
	await app.request('/api/v7.1/user_goal/', {
		method: 'POST',
		headers: { ...auth.headers, 'content-type': 'application/json' },
		body: JSON.stringify({
			period: 'P1W',
			criteria: { threshold_metrics: { data_type_field: 'distance', value: 30_000 }, activity_group: 'run' },
		}),
	});
	const goals = await timed(get('/api/v7.1/user_goal_progress/'), QUERY_RUNS, 'goals');
	console.log(`  weekly goal progress: ${summary(goals)}`);

	// A new 12-hour recording each time, then its page's records as the member asks for them. Its best
	// efforts are found while the upload is stored, from the recording the upload has in hand; that part
	// of the upload is timed on its own, from the stored recording.
	const uploads: number[] = [];
	const finds: number[] = [];
	const searches: number[] = [];
	let found = 0;
	for (let i = 0; i < UPLOAD_RUNS; i++) {
		const form = new FormData();
		const bytes = twelveHourFit(NOW.getTime() - (i + 1) * 86_400_000, i * 97);
		form.append('file', new Blob([new Uint8Array(bytes)]), 'run.fit');
		const sent = performance.now();
		const answer = await app.request('/api/v7.1/device/file_import/', {
			method: 'POST',
			headers: auth.headers,
			body: form,
		});
		uploads.push(performance.now() - sent);
		if (answer.status !== 201)
			throw new Error(`12-hour workout: ${answer.status} ${(await answer.text()).slice(0, 200)}`);
		const id = (await answer.json()).id as number;
		const started = performance.now();
		const records = await app.request(`/api/v7.1/personal_records/?workout=${id}`, auth);
		const ranks = (await records.json()) as { workout_ranks: unknown[] };
		finds.push(performance.now() - started);
		found = ranks.workout_ranks.length;
		const [workout] = await db.select().from(workouts).where(eq(workouts.id, id));
		const [stored] = await db
			.select()
			.from(schema.workoutSeries)
			.where(eq(schema.workoutSeries.workoutId, id));
		const searched = performance.now();
		effortsOf(workout, stored.series);
		searches.push(performance.now() - searched);
	}
	console.log(`  upload of a 12-hour 1 Hz recording: ${summary(uploads)}`);
	console.log(`    of which finding its best efforts: ${summary(searches)}`);
	console.log(
		`  records of a new 12-hour 1 Hz recording, asked after its upload (${found} distances ranked): ${summary(finds)}   goal ≤ 50 ms`,
	);
}

try {
	await onBenchDatabases(({ label, db }) => run(label, db));
} finally {
	await closeSharedParsePool();
}
