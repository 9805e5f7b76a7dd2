import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PASSWORD, signupBody } from '../api/auth/helpers';
import { runPayload } from '../api/workouts/helpers';
import { callApi } from '../helpers/app';

/**
 * `npm run cluster` as an operator runs it: two server processes on one port and one PostgreSQL,
 * driven over loopback the way a browser or app would. Each request opens its own connection, so
 * the balancer hands requests to the processes in turn (a kept-alive connection stays with one).
 */
const root = path.resolve(import.meta.dirname, '../..');
const LIMIT = 30;

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const probe = createServer().listen(0, '127.0.0.1', () => {
			const { port } = probe.address() as { port: number };
			probe.close(() => resolve(port));
		});
		probe.on('error', reject);
	});
}

function startCluster(env: Record<string, string | undefined>) {
	const { NODE_ENV: _testRunner, ...inherited } = process.env;
	const child = spawn(process.execPath, [path.join(root, 'scripts/cluster.mjs')], {
		cwd: root,
		env: { ...inherited, ...env },
		stdio: ['ignore', 'pipe', 'pipe'],
	});
	let output = '';
	child.stdout?.on('data', (chunk) => {
		output += chunk;
	});
	child.stderr?.on('data', (chunk) => {
		output += chunk;
	});
	const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
	return { child, exited, output: () => output };
}

/** Resolves once `count` lines of the output match, or rejects when the cluster exits first. */
async function waitForLines(
	cluster: ReturnType<typeof startCluster>,
	pattern: RegExp,
	count: number,
	timeoutMs: number,
) {
	const deadline = Date.now() + timeoutMs;
	while ((cluster.output().match(pattern) ?? []).length < count) {
		if (cluster.child.exitCode !== null || Date.now() > deadline)
			throw new Error(`the cluster did not start:\n${cluster.output()}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
}

test('refuses the embedded database, which one process at a time may open', async () => {
	const cluster = startCluster({ DATABASE_URL: undefined, CLUSTER_WORKERS: '2' });
	expect(await cluster.exited).toBe(1);
	expect(cluster.output()).toContain('needs DATABASE_URL=postgres://');
	expect(cluster.output()).toContain('may be opened by one process only');
});

describe.skipIf(!process.env.TEST_DATABASE_URL)(
	'two processes on one PostgreSQL (needs TEST_DATABASE_URL)',
	() => {
		let cluster: ReturnType<typeof startCluster>;
		let base: string;
		let dataDir: string;
		/** callApi's target: every request on a connection of its own. */
		const balanced = {
			request: (input: string, init: RequestInit = {}) =>
				fetch(`${base}${input}`, { ...init, headers: { ...init.headers, connection: 'close' } }),
		};
		const servedBy = (response: { headers: Headers }) => response.headers.get('x-served-by');

		let databaseName = '';
		async function asAdmin(statement: string) {
			const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
			await admin.connect();
			try {
				await admin.query(statement);
			} finally {
				await admin.end();
			}
		}

		beforeAll(async () => {
			// A database of its own, empty: the first process migrates it, as on a first deployment.
			const databaseUrl = new URL(String(process.env.TEST_DATABASE_URL));
			databaseUrl.pathname += '_cluster';
			databaseName = databaseUrl.pathname.slice(1);
			await asAdmin(`drop database if exists "${databaseName}" with (force)`);
			await asAdmin(`create database "${databaseName}"`);
			const port = await freePort();
			base = `http://127.0.0.1:${port}`;
			dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-cluster-'));
			cluster = startCluster({
				DATABASE_URL: databaseUrl.toString(),
				CLUSTER_WORKERS: '2',
				PORT: String(port),
				HOST: '127.0.0.1',
				DATA_DIR: dataDir,
				API_RATE_LIMIT: String(LIMIT),
				LOG_LEVEL: 'warn',
			});
			// A stale dist/ is rebuilt first (minutes); after `npm run build` the processes start in seconds.
			await waitForLines(cluster, /Mapstride is running at/g, 2, 300_000);
		}, 310_000);
		afterAll(async () => {
			if (cluster?.child.exitCode === null) cluster.child.kill('SIGKILL');
			if (databaseName) await asAdmin(`drop database if exists "${databaseName}" with (force)`);
			if (dataDir) rmSync(dataDir, { recursive: true, force: true });
		});

		let token: string;
		let workoutId: number;
		/** Member requests made before the budget test; each spends one point of the member's budget. */
		let spent = 0;

		test('sign up, log in, create a workout by hand, and read it back from both processes', async () => {
			const email = 'cluster.runner@example.test';
			const signup = await callApi(balanced, 'POST', '/api/auth/signup', {
				body: signupBody({ email, consents: { terms_of_use: true, privacy_policy: true } }),
			});
			expect(signup.status).toBe(201);
			const login = await callApi(balanced, 'POST', '/api/auth/login', {
				body: { email, password: PASSWORD },
			});
			expect(login.status).toBe(200);
			token = login.json.access_token;

			const created = await callApi(balanced, 'POST', '/api/v7.1/workout/', {
				token,
				body: runPayload('Riverside tempo'),
			});
			expect(created.status).toBe(201);
			workoutId = created.json.id;
			spent++;

			const readers = new Set<string | null>();
			for (let i = 0; i < 4; i++) {
				const read = await callApi(balanced, 'GET', `/api/v7.1/workout/${workoutId}/`, { token });
				spent++;
				expect(read.status).toBe(200);
				expect(read.json.name).toBe('Riverside tempo');
				readers.add(servedBy(read));
			}
			expect(readers.size).toBe(2);
		});

		test('one request budget per member across processes: the count goes on from one to the other', async () => {
			const remaining: number[] = [];
			const processes = new Set<string | null>();
			let refused: Awaited<ReturnType<typeof callApi>> | undefined;
			for (let i = spent; i <= LIMIT && !refused; i++) {
				const read = await callApi(balanced, 'GET', `/api/v7.1/workout/${workoutId}/`, { token });
				processes.add(servedBy(read));
				if (read.status === 429) refused = read;
				else remaining.push(Number(/remaining=(\d+)/.exec(read.headers.get('ratelimit') ?? '')?.[1]));
			}
			expect(processes.size).toBe(2);
			// Counted apart, two processes would each allow LIMIT and repeat every number.
			expect(remaining).toEqual(Array.from({ length: LIMIT - spent }, (_, i) => LIMIT - spent - 1 - i));
			expect(refused?.status).toBe(429);
			expect(Number(refused?.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		});

		test('SIGTERM lets a request in flight finish, then every process and the primary exit 0', async () => {
			const body = JSON.stringify({ email: 'nobody@example.test', password: 'not-the-password' });
			const answered = new Promise<number | undefined>((resolve, reject) => {
				const request = http.request(`${base}/api/auth/login`, {
					method: 'POST',
					agent: false,
					headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
				});
				request.on('response', (response) => {
					response.resume();
					response.on('end', () => resolve(response.statusCode));
				});
				request.on('error', reject);
				request.write(body.slice(0, 10));
				// The rest of the body arrives after the cluster was told to stop.
				setTimeout(() => request.end(body.slice(10)), 500);
			});
			await new Promise((resolve) => setTimeout(resolve, 200));
			cluster.child.kill('SIGTERM');
			expect(await answered).toBe(401);
			expect(await cluster.exited).toBe(0);
			expect(cluster.output()).toContain('SIGTERM received');
		});
	},
);
