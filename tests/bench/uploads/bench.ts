/**
 * Upload benchmark: prints figures, never passes or fails.
 *   npm run bench -- uploads
 * How long GET /api/health waits while ten 200 KB gzip bombs (200 MB unpacked) and a zip bomb upload
 * to /api/v7.1/route/upload/, next to the same count of light uploads; and what a normal 1 MB GPX
 * costs read in-process against read on the parse pool.
 */
import { loadavg } from 'node:os';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pino from 'pino';
import { createApi } from '../../../src/lib/api/app';
import { users } from '../../../src/lib/auth/server/tables';
import { readConfig } from '../../../src/lib/core/config';
import type { Db } from '../../../src/lib/core/server/deps';
import { MIGRATIONS_DIR } from '../../../src/lib/db/client';
import * as schema from '../../../src/lib/db/tables';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { ROUTE_FILE_LIMITS } from '../../../src/lib/routes/server/files';
import { readWorkoutFileSync } from '../../../src/lib/workout-files';
import { closeSharedParsePool, sharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { signInAs } from '../../helpers/app';
import { makeBombs } from '../../helpers/bombs';
import { healthLatenciesDuring } from '../../helpers/health-latency';

const fmt = (n: number, digits = 1) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

function percentile(values: number[], p: number): number {
	const sorted = [...values].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const describeLatencies = (latencies: number[]) =>
	`p50 ${fmt(percentile(latencies, 50))} ms, p95 ${fmt(percentile(latencies, 95))} ms, max ${fmt(Math.max(...latencies))} ms (${latencies.length} answers)`;

async function median(runs: number, fn: () => Promise<unknown> | unknown): Promise<number> {
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const started = performance.now();
		await fn();
		times.push(performance.now() - started);
	}
	return percentile(times, 50);
}

/** A GPX track of about `bytes` bytes: a 1 Hz walk with heights and times. */
function gpxOfSize(bytes: number): Uint8Array {
	const parts = ['<?xml version="1.0"?><gpx version="1.1" creator="bench"><trk><name>Bench</name><trkseg>'];
	let size = parts[0].length;
	for (let i = 0; size < bytes; i++) {
		const point = `<trkpt lat="${(45.5 + i * 1e-5).toFixed(6)}" lon="${(13.6 + i * 1e-5).toFixed(6)}"><ele>${(300 + (i % 50)).toFixed(1)}</ele><time>${new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString()}</time></trkpt>`;
		parts.push(point);
		size += point.length;
	}
	parts.push('</trkseg></trk></gpx>');
	return new TextEncoder().encode(parts.join(''));
}

async function main() {
	const client = await PGlite.create();
	const db = drizzle(client, { schema }) as unknown as Db;
	await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
	const [member] = await db
		.insert(users)
		.values({ username: 'bench', email: 'bench@example.test', passwordHash: 'x', displayName: 'Bench' })
		.returning({ id: users.id });
	const config = readConfig({
		NODE_ENV: 'test',
		PUBLIC_URL: 'http://localhost:4321',
		DATA_DIR: './data-test',
		API_RATE_LIMIT: '0',
	});
	const deps = { db, config, logger: pino({ level: 'silent' }), clock: () => new Date() };
	const app = createApi(deps, { routes: [createRoutesApi()] });
	const token = await signInAs(deps, {
		id: member.id,
		username: 'bench',
		displayName: 'Bench',
		isPremium: false,
	});
	const upload = (bytes: Uint8Array) =>
		app.request('/api/v7.1/route/upload/', {
			method: 'POST',
			headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
			body: new Uint8Array(bytes),
		});

	const bombs = makeBombs(200 * 1024 * 1024);
	// Just under the API's 1 MB body limit.
	const gpx = gpxOfSize(1_000_000);
	const points = readWorkoutFileSync(gpx).points.length;
	// The first upload starts the pool's thread; every figure below is on a warm pool.
	await upload(gpx);

	console.log(
		`Health while uploads run (in-process requests; load average ${loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}):`,
	);
	const idle = await healthLatenciesDuring(app, new Promise((resolve) => setTimeout(resolve, 2000)));
	console.log(`  nothing else:                         ${describeLatencies(idle.latencies)}`);
	const junk = new Uint8Array(bombs.gzip.length);
	const light = await healthLatenciesDuring(app, Promise.all(Array.from({ length: 11 }, () => upload(junk))));
	console.log(
		`  11 light uploads of ${fmt(junk.length / 1024, 0)} KB:            ${describeLatencies(light.latencies)}`,
	);
	const started = performance.now();
	const heavy = await healthLatenciesDuring(
		app,
		Promise.all([...Array.from({ length: 10 }, () => upload(bombs.gzip)), upload(bombs.lyingZip)]),
	);
	const statuses = heavy.result.map((response) => response.status);
	console.log(`  10 gzip bombs + 1 zip bomb:           ${describeLatencies(heavy.latencies)}`);
	console.log(
		`  bombs answered ${[...new Set(statuses)].join(', ')} in ${fmt(performance.now() - started, 0)} ms in all (each stops at ${ROUTE_FILE_LIMITS.maxDecompressedBytes / 1024 / 1024} MB unpacked)`,
	);

	console.log(
		`\nA normal ${fmt(gpx.length / 1024 / 1024, 2)} MB GPX (${points.toLocaleString('en-US')} points), median of 7:`,
	);
	const inProcess = await median(7, () => readWorkoutFileSync(gpx, { limits: ROUTE_FILE_LIMITS }));
	const onPool = await median(7, () => sharedParsePool().readWorkoutFile(gpx, { limits: ROUTE_FILE_LIMITS }));
	const whole = await median(7, async () => {
		const response = await upload(gpx);
		if (response.status !== 201) throw new Error(`the upload answered ${response.status}`);
	});
	console.log(`  read in-process (blocks the event loop): ${fmt(inProcess)} ms`);
	console.log(
		`  read on the pool (event loop free):      ${fmt(onPool)} ms  (a pool thread runs at a lower CPU priority, so a busy machine slows it first)`,
	);
	console.log(`  whole upload through the API (pool + save): ${fmt(whole)} ms`);

	await closeSharedParsePool();
	await client.close();
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
