/**
 * Login latency with our argon2id parameters: the whole API path (validation, throttle checks,
 * argon2 verify, session row, access token) over an in-memory PGlite, plus argon2 alone; and the
 * password-reset request for a member's email against an unknown one, which must cost the same.
 * Run: npx tsx tests/bench/auth/login.bench.ts
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import pino from 'pino';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createApi } from '../../../src/lib/api/app';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { ARGON2_PARAMS, hashPassword, verifyPassword } from '../../../src/lib/auth/server/passwords';
import { readConfig } from '../../../src/lib/core/config';
import type { Db } from '../../../src/lib/core/server/deps';
import { MIGRATIONS_DIR } from '../../../src/lib/db/client';
import * as schema from '../../../src/lib/db/tables';
import { flushMail } from '../../../src/lib/mail/server/service';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function summarise(label: string, samples: number[]) {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
	console.log(
		`${label.padEnd(34)} median ${at(0.5).toFixed(1)} ms   p95 ${at(0.95).toFixed(1)} ms   min ${sorted[0].toFixed(1)} ms   (n=${sorted.length})`,
	);
}

const client = await PGlite.create();
const db = drizzle(client, { schema }) as unknown as Db;
await migrate(db as never, { migrationsFolder: MIGRATIONS_DIR });
const config = readConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:4321', TRUSTED_PROXY: 'true' });
const deps = { db, config, logger: pino({ level: 'silent' }), clock: () => new Date() };
const app = createApi(deps, { routes: [createAuthApi(), createAccountApi()] });

const password = 'Blue-Kettle-Orbit-42';
const post = (path: string, body: unknown, ip: string) =>
	app.request(path, {
		method: 'POST',
		headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
		body: JSON.stringify(body),
	});

const signup = await post(
	'/api/auth/signup',
	{
		first_name: 'Bench',
		last_name: 'Runner',
		email: 'bench@example.test',
		password,
		birthdate: '1990-01-01',
		gender: 'F',
		location: { country: 'GB' },
	},
	'x',
);
if (signup.status !== 201) throw new Error(`signup failed: ${signup.status} ${await signup.text()}`);

console.log(
	`argon2id m=${ARGON2_PARAMS.memoryCost} KiB, t=${ARGON2_PARAMS.timeCost}, p=${ARGON2_PARAMS.parallelism}; node ${process.version}`,
);
const hash = await hashPassword(password);
const verifies: number[] = [];
for (let i = 0; i < RUNS; i++) {
	const started = performance.now();
	await verifyPassword(hash, password);
	verifies.push(performance.now() - started);
}
summarise('argon2 verify alone', verifies);

for (const [label, email, pass] of [
	['POST /api/auth/login (success)', 'bench@example.test', password],
	['POST /api/auth/login (wrong password)', 'bench@example.test', 'wrong-password'],
	['POST /api/auth/login (unknown email)', 'nobody@example.test', 'wrong-password'],
] as const) {
	const samples: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const started = performance.now();
		// A new address each time: the benchmark measures work, not the brute-force pause.
		const response = await post('/api/auth/login', { email, password: pass }, `bench-${label}-${i}`);
		await response.arrayBuffer();
		samples.push(performance.now() - started);
		if ((response.status === 200) !== (pass === password)) throw new Error(`unexpected ${response.status}`);
	}
	summarise(label, samples);
}

// Alternating member and unknown requests, so warm-up and neighbours' load fall on both alike.
const resets = [
	['POST /api/auth/password-reset (member)', 'bench@example.test'],
	['POST /api/auth/password-reset (unknown)', 'nobody@example.test'],
] as const;
const resetSamples: number[][] = resets.map(() => []);
for (let i = 0; i < RUNS; i++) {
	for (const [index, [label, email]] of resets.entries()) {
		const started = performance.now();
		const response = await post('/api/auth/password-reset', { email }, `bench-${label}-${i}`);
		await response.arrayBuffer();
		resetSamples[index].push(performance.now() - started);
		if (response.status !== 200) throw new Error(`unexpected ${response.status}`);
		// The queued mail is written after the answer; let it finish before the next request.
		await flushMail();
	}
}
for (const [index, [label]] of resets.entries()) summarise(label, resetSamples[index]);
await client.close();
