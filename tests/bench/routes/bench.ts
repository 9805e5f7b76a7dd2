/**
 * Route search at scale: seeds 100,000 public routes around a few cities, then times through the
 * API app (validation, SQL, JSON) a radius + distance + sort search as a visitor, and a my-routes
 * text search as a member with 2,000 routes. PGlite and PostgreSQL side by side.
 * Goal: p95 ≤ 30 ms on PostgreSQL and ≤ 60 ms on PGlite.
 *
 *   npx tsx tests/bench/routes/bench.ts                      (PGlite only)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_routes npx tsx tests/bench/routes/bench.ts
 *
 * The PostgreSQL database is emptied first: point it at a database of its own.
 */
import polyline from '@mapbox/polyline';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { createApi } from '../../../src/lib/api/app';
import { users } from '../../../src/lib/auth/server/tables';
import { readConfig } from '../../../src/lib/core/config';
import type { Db } from '../../../src/lib/core/server/deps';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { newLinkToken } from '../../../src/lib/routes/server/saving';
import { routes } from '../../../src/lib/routes/server/tables';
import { signInAs } from '../../helpers/app';
import { onBenchDatabases } from '../databases';

const ROUTES = Number(process.env.BENCH_ROUTES ?? 100_000);
const MEMBERS = 50;
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const CITIES = [
	{ name: 'Harrisburg', lat: 40.27, lng: -76.85 },
	{ name: 'Andorra la Vella', lat: 42.5063, lng: 1.5218 },
	{ name: 'Denver', lat: 39.7392, lng: -104.9903 },
	{ name: 'Austin', lat: 30.2672, lng: -97.7431 },
	{ name: 'Boston', lat: 42.3601, lng: -71.0589 },
];
const WORDS = ['River', 'Park', 'Hill', 'Loop', 'Morning', 'Lake', 'Bridge', 'Trail', 'Canal', 'Ridge'];

/** A deterministic generator so both databases hold the same routes. */
function random(seed: number) {
	let state = seed >>> 0;
	return () => {
		state = (state * 1664525 + 1013904223) >>> 0;
		return state / 2 ** 32;
	};
}

async function seed(db: Db) {
	const memberIds: number[] = [];
	for (let i = 0; i < MEMBERS; i++) {
		const [row] = await db
			.insert(users)
			.values({
				username: `bench${i}`,
				email: `bench${i}@example.test`,
				passwordHash: 'x',
				displayName: `Bench ${i}`,
			})
			.returning({ id: users.id });
		memberIds.push(row.id);
	}
	const next = random(42);
	const batch = 1000;
	const start = new Date('2026-01-01T00:00:00Z').getTime();
	for (let offset = 0; offset < ROUTES; offset += batch) {
		const rows = [];
		for (let i = offset; i < Math.min(ROUTES, offset + batch); i++) {
			const city = CITIES[i % CITIES.length];
			const lat = city.lat + (next() - 0.5) * 0.6;
			const lng = city.lng + (next() - 0.5) * 0.8;
			const km = 1 + next() * 40;
			const path: [number, number][] = Array.from({ length: 20 }, (_, k) => [
				lat + (km / 111.2) * (k / 19),
				lng,
			]);
			const name = `${WORDS[Math.floor(next() * WORDS.length)]} ${WORDS[Math.floor(next() * WORDS.length)]} ${i}`;
			rows.push({
				ownerId: memberIds[i % MEMBERS],
				name,
				activityTypeId: [9, 11, 16][i % 3],
				privacy: i % 10 === 0 ? 0 : 3,
				linkToken: newLinkToken(),
				distanceM: km * 1000,
				ascentM: Math.round(next() * 800),
				descentM: Math.round(next() * 800),
				path: polyline.encode(path, 6),
				pointCount: path.length,
				startLat: lat,
				startLng: lng,
				createdAt: new Date(start + i * 60_000),
				updatedAt: new Date(start + i * 60_000),
			});
		}
		await db.insert(routes).values(rows);
	}
	await db.execute(sql`analyze`);
	return memberIds;
}

function percentile(sorted: number[], p: number) {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(label: string, call: (i: number) => Response | Promise<Response>) {
	for (let i = 0; i < 20; i++) await (await call(i)).text();
	const samples: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const started = performance.now();
		const response = await call(i);
		const body = await response.text();
		samples.push(performance.now() - started);
		if (response.status !== 200) throw new Error(`${label}: ${response.status} ${body.slice(0, 200)}`);
	}
	samples.sort((a, b) => a - b);
	return { label, p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

async function run(kind: 'pglite' | 'postgres', db: Db) {
	const seeded = performance.now();
	const memberIds = await seed(db);
	const seedMs = performance.now() - seeded;
	const config = readConfig({
		NODE_ENV: 'test',
		PUBLIC_URL: 'http://localhost:4321',
		DATA_DIR: './data-test',
	});
	const clock = () => new Date('2026-06-01T12:00:00Z');
	const deps = { db, config, logger: pino({ level: 'silent' }), clock };
	const app = createApi(deps, { routes: [createRoutesApi()] });
	const token = await signInAs(deps, {
		id: memberIds[0],
		username: 'bench0',
		displayName: 'Bench 0',
		isPremium: false,
	});
	const next = random(7);
	const search = await time('radius 10 km + 3–15 km + longest first', () => {
		const city = CITIES[Math.floor(next() * CITIES.length)];
		const lat = (city.lat + (next() - 0.5) * 0.3).toFixed(5);
		const lng = (city.lng + (next() - 0.5) * 0.4).toFixed(5);
		return app.request(
			`/api/v7.1/route/?close_to_location=${lat},${lng}&search_radius=10000&minimum_distance=3000&maximum_distance=15000&order_by=-distance`,
		);
	});
	const mine = await time('my routes text search (2,000 routes)', (i) =>
		app.request(`/api/v7.1/route/?user=${memberIds[0]}&text_search=${WORDS[i % WORDS.length]}`, {
			headers: { authorization: `Bearer ${token}` },
		}),
	);
	return { kind, seedMs, results: [search, mine] };
}

async function main() {
	const outcomes = await onBenchDatabases(({ kind, db }) => run(kind, db));
	console.log(`\nroute search, ${ROUTES.toLocaleString('en-US')} routes, ${RUNS} requests each (ms)\n`);
	console.log(
		[
			'query'.padEnd(42),
			...outcomes.flatMap((o) => [`${o.kind} p50`.padStart(14), `${o.kind} p95`.padStart(14)]),
		].join(''),
	);
	for (let q = 0; q < outcomes[0].results.length; q++) {
		console.log(
			[
				outcomes[0].results[q].label.padEnd(42),
				...outcomes.flatMap((o) => [
					o.results[q].p50.toFixed(1).padStart(14),
					o.results[q].p95.toFixed(1).padStart(14),
				]),
			].join(''),
		);
	}
	for (const o of outcomes) console.log(`seeding ${o.kind}: ${(o.seedMs / 1000).toFixed(1)} s`);
}

await main();
