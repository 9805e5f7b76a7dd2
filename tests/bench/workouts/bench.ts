/**
 * Workouts as a member gets them, through the API app (validation, parse pool, SQL, JSON):
 *
 * 1. Upload of a 12-hour, 1 Hz FIT ride to `device/file_import/`, from request to stored workout (p50/p95).
 * 2. 100 different files uploaded by one member in parallel batches of 4: how many were stored, and whether
 *    any was lost or stored twice.
 * 3. The workout list and `user_stats` (with summary) of a member with 10,000 workouts (p50/p95).
 * 4. The workout page of a 12-hour recording, server and browser (`detail-page.ts`, run after the rest).
 *
 * PGlite always; PostgreSQL too when BENCH_DATABASE_URL names a database of its own (it is emptied first):
 *
 *   npm run bench:workouts
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_workouts npm run bench:workouts
 *
 * Goals: upload p95 ≤ 1 s; nothing lost or duplicated; list and user_stats p95 ≤ 15 ms; the page's server
 * time p95 ≤ 50 ms and charts drawn ≤ 1 s on the mobile profile.
 * Figures only; nothing passes or fails on speed.
 */

import type { Db } from '../../../src/lib/core/server/deps';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { workouts } from '../../../src/lib/workouts/server/tables';
import { addSignedInMember, createTestApi, createTestDeps } from '../../helpers/app';
import { onBenchDatabases } from '../databases';
import { rideFit } from './ride-fit';

const UPLOAD_RUNS = Number(process.env.BENCH_UPLOAD_RUNS ?? 10);
const BATCH_FILES = 100;
const MEMBER_WORKOUTS = Number(process.env.BENCH_WORKOUTS ?? 10_000);
const QUERY_RUNS = Number(process.env.BENCH_RUNS ?? 300);

function percentile(samples: number[], q: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const summary = (samples: number[]) =>
	`p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms (n=${samples.length})`;

/** A ride of `seconds` at 1 Hz winding around Harrisburg with heights, heart rate, cadence and power. */
async function upload(app: ReturnType<typeof createTestApi>, token: string, bytes: Uint8Array) {
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(bytes)]), 'ride.fit');
	const response = await app.request('/api/v7.1/device/file_import/', {
		method: 'POST',
		headers: { authorization: `Bearer ${token}` },
		body: form,
	});
	await response.text();
	return response.status;
}

async function timed(
	call: () => Response | Promise<Response>,
	runs: number,
	label: string,
): Promise<number[]> {
	for (let i = 0; i < 20; i++) await (await call()).text();
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

async function run(kind: string, db: Db): Promise<void> {
	console.log(`\n${kind}`);
	const deps = createTestDeps(db);
	const app = createTestApi(deps, { routes: [createWorkoutsApi()] });

	// 1. A 12-hour ride, a new recording each time (a repeat would be refused as a duplicate).
	const rider = await addSignedInMember(deps, `rider_${kind}`);
	const base = Date.parse('2026-03-01T06:00:00Z');
	const twelve = rideFit(12 * 3600, base);
	console.log(`  12-hour 1 Hz FIT: ${(twelve.length / 1e6).toFixed(2)} MB, 43,200 records`);
	const uploads: number[] = [];
	for (let i = 0; i < UPLOAD_RUNS; i++) {
		const bytes = i === 0 ? twelve : rideFit(12 * 3600, base + i * 86_400_000);
		const started = performance.now();
		const status = await upload(app, rider.token, bytes);
		uploads.push(performance.now() - started);
		if (status !== 201) throw new Error(`The 12-hour upload answered ${status}`);
	}
	console.log(`  upload, request to stored workout: ${summary(uploads)}   goal p95 ≤ 1 s`);

	// 2. 100 different one-hour files in batches of 4.
	const batcher = await addSignedInMember(deps, `batcher_${kind}`);
	const files = Array.from({ length: BATCH_FILES }, (_, i) => rideFit(3600, base + i * 86_400_000));
	const statuses: number[] = [];
	const batchStarted = performance.now();
	for (let i = 0; i < files.length; i += 4) {
		statuses.push(
			...(await Promise.all(files.slice(i, i + 4).map((file) => upload(app, batcher.token, file)))),
		);
	}
	const batchS = (performance.now() - batchStarted) / 1000;
	const list = await app.request(`/api/v7.1/workout/?user=${batcher.viewer.id}&limit=1`, {
		headers: { authorization: `Bearer ${batcher.token}` },
	});
	const stored = ((await list.json()) as { total_count: number }).total_count;
	const created = statuses.filter((status) => status === 201).length;
	console.log(
		`  ${BATCH_FILES} files in batches of 4: ${created} answered 201, ${stored} stored, in ${batchS.toFixed(1)} s` +
			` (${stored === BATCH_FILES && created === BATCH_FILES ? 'nothing lost or duplicated' : 'LOST OR DUPLICATED'})`,
	);

	// 3. A member with 10,000 hand-logged workouts over the years.
	const busy = await addSignedInMember(deps, `busy_${kind}`);
	const seeded = performance.now();
	for (let offset = 0; offset < MEMBER_WORKOUTS; offset += 1000) {
		const rows = [];
		for (let i = offset; i < Math.min(MEMBER_WORKOUTS, offset + 1000); i++) {
			rows.push({
				ownerId: busy.viewer.id,
				name: `Workout ${i}`,
				activityTypeId: [16, 9, 11, 24][i % 4],
				privacy: 0,
				startDatetime: new Date(Date.parse('2020-01-01T07:00:00Z') + i * 6 * 3600_000),
				distanceTotal: 3000 + (i % 20) * 500,
				activeTimeTotal: 1200 + (i % 30) * 60,
				elapsedTimeTotal: 1300 + (i % 30) * 60,
				metabolicEnergyTotal: 1_500_000 + (i % 10) * 100_000,
			});
		}
		await db.insert(workouts).values(rows);
	}
	console.log(
		`  seeded ${MEMBER_WORKOUTS.toLocaleString('en-US')} workouts in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
	);
	const auth = { headers: { authorization: `Bearer ${busy.token}` } };
	const listTimes = await timed(
		() => app.request(`/api/v7.1/workout/?user=${busy.viewer.id}&limit=20&offset=0`, auth),
		QUERY_RUNS,
		'list',
	);
	console.log(`  workout list, newest 20: ${summary(listTimes)}   goal p95 ≤ 15 ms`);
	const statsTimes = await timed(
		() => app.request(`/api/v7.1/user_stats/${busy.viewer.id}/?include_summary_stats=true`, auth),
		QUERY_RUNS,
		'user_stats',
	);
	console.log(`  user_stats with summary: ${summary(statsTimes)}   goal p95 ≤ 15 ms`);
}

try {
	await onBenchDatabases(({ label, db }) => run(label, db));
} finally {
	await closeSharedParsePool();
}
await import('./detail-page.ts');
