/**
 * Fault drills: the built server under the faults of security tests 41 and 43–48, each printing what it
 * did, PASS or FAIL, and what was lost. Not part of `npm test` (minutes, and timing-dependent).
 *   npm run drills                       every drill; the PostgreSQL ones need DRILL_DATABASE_URL
 *   npm run drills -- sigterm kill9      only those (sigterm, kill9, upload, resume, second, slow, disk,
 *                                        network, pgloss, races)
 * DRILL_DATABASE_URL names a PostgreSQL server and a database name of the drills' own: that
 * database is dropped and created afresh.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
	appendFileSync,
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statfsSync,
	statSync,
	symlinkSync,
	writeFileSync,
} from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import sharp from 'sharp';
import { type DetailedError, type HttpRequest, Upload } from 'tus-js-client';
import { buildReason } from '../../scripts/build-hash.mjs';
import { UPLOAD_CHUNK_BYTES, UPLOAD_RETRY_DELAYS_MS } from '../../src/lib/workouts/store';
import { PASSWORD, signupBody } from '../api/auth/helpers';
import { linePayload } from '../api/routes/helpers';
import { runPayload } from '../api/workouts/helpers';

const root = path.resolve(import.meta.dirname, '../..');
// Kept between runs (git-ignored): the routing graphs and map features are imported once.
const dataDir = path.join(root, 'data/drills');
const SESSION_SECRET = 'drills-only-session-secret-0123456789abcdef';
let nextPort = Number(process.env.DRILL_PORT ?? 4831);

type Answer = {
	status: number;
	headers: http.IncomingHttpHeaders;
	body: string;
	json: Record<string, unknown> | null;
	cookies: string[];
};

/** One request on a connection of its own, so a connection refused is never a request lost. */
function request(
	port: number,
	method: string,
	urlPath: string,
	options: { body?: unknown; raw?: Uint8Array; token?: string; headers?: Record<string, string> } = {},
): Promise<Answer> {
	const body = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
	return new Promise((resolve, reject) => {
		const outgoing = http.request(
			{
				host: '127.0.0.1',
				port,
				method,
				path: urlPath,
				agent: false,
				headers: {
					...(options.raw
						? { 'content-type': 'application/octet-stream' }
						: body
							? { 'content-type': 'application/json' }
							: {}),
					...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
					...options.headers,
				},
			},
			(incoming) => {
				const chunks: Buffer[] = [];
				incoming.on('data', (chunk) => chunks.push(chunk));
				incoming.on('error', reject);
				incoming.on('end', () => {
					const text = Buffer.concat(chunks).toString('utf8');
					let json: Record<string, unknown> | null = null;
					try {
						json = JSON.parse(text);
					} catch {
						json = null;
					}
					resolve({
						status: incoming.statusCode ?? 0,
						headers: incoming.headers,
						body: text,
						json,
						cookies: (incoming.headers['set-cookie'] ?? []).map((line) => line.split(';')[0]),
					});
				});
			},
		);
		outgoing.on('error', reject);
		outgoing.end(body);
	});
}

type Server = { child: ChildProcess; port: number; output: () => string; exited: Promise<number | null> };

/** The latest server started, whose output a drill that broke prints. */
let lastServer: Server | null = null;

function startServer(env: Record<string, string>): Server {
	const port = nextPort++;
	const { NODE_ENV: _runner, ...inherited } = process.env;
	const child = spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
		cwd: root,
		env: {
			...inherited,
			NODE_ENV: 'production',
			BILLING_TEST_MODE: '1',
			PUBLIC_URL: `http://127.0.0.1:${port}`,
			SESSION_SECRET,
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			API_RATE_LIMIT: '0',
			SIGNUPS_PER_HOUR: '1000',
			LOG_LEVEL: 'warn',
			MAPSTRIDE_SKIP_BUILD: '1',
			...env,
		},
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
	lastServer = { child, port, output: () => output, exited };
	return lastServer;
}

async function waitUntilUp(server: Server, timeoutMs = 240_000) {
	const deadline = Date.now() + timeoutMs;
	while (Date.now() < deadline) {
		if (server.child.exitCode !== null) throw new Error(`the server exited early:\n${server.output()}`);
		try {
			if ((await request(server.port, 'GET', '/api/health/ready')).status === 200) return;
		} catch {
			// not listening yet
		}
		await sleep(200);
	}
	throw new Error('the server did not come up');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function stopServer(server: Server) {
	if (server.child.exitCode !== null) return server.child.exitCode;
	server.child.kill('SIGTERM');
	return server.exited;
}

let members = 0;
async function signUp(
	port: number,
): Promise<{ token: string; cookie: string; id: number; username: string }> {
	const email = `drill.${process.pid}.${++members}.${Date.now()}@example.test`;
	const signup = await request(port, 'POST', '/api/auth/signup', {
		body: signupBody({ email, consents: { terms_of_use: true, privacy_policy: true } }),
	});
	if (signup.status !== 201) throw new Error(`signup answered ${signup.status}: ${signup.body}`);
	const login = await request(port, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
	if (login.status !== 200) throw new Error(`login answered ${login.status}`);
	const token = String(login.json?.access_token);
	const me = await request(port, 'GET', '/api/v7.1/user/self/', { token });
	return {
		token,
		cookie: login.cookies.join('; '),
		id: Number(me.json?.id),
		username: String(me.json?.username),
	};
}

/** A workout as a member logs one by hand; each its own start, so none is a duplicate. */
let workoutsMade = 0;
const newWorkout = (name: string) =>
	runPayload(name, {
		start: new Date(Date.UTC(2026, 0, 1) + ++workoutsMade * 60_000).toISOString().replace('Z', '+00:00'),
	});

function freshEmbedded(): { url: string; folder: string; cleanup: () => void } {
	const parent = mkdtempSync(path.join(tmpdir(), 'mapstride-drill-'));
	const folder = path.join(parent, 'db');
	return { url: `file://${folder}`, folder, cleanup: () => rmSync(parent, { recursive: true, force: true }) };
}

/** The workout ids a member has, read straight from the data folder with the server stopped. */
async function storedWorkoutIds(folder: string, ownerId: number): Promise<Set<number>> {
	const client = await PGlite.create({ dataDir: folder });
	try {
		const result = await client.query<{ id: number }>('select id from workouts where owner_id = $1', [
			ownerId,
		]);
		return new Set(result.rows.map((row) => Number(row.id)));
	} finally {
		await client.close();
	}
}

type Outcome = { name: string; pass: boolean; did: string[]; lost: string };
const outcomes: Outcome[] = [];
function report(outcome: Outcome) {
	outcomes.push(outcome);
	console.log(`\n[${outcome.pass ? 'PASS' : 'FAIL'}] ${outcome.name}`);
	for (const line of outcome.did) console.log(`  ${line}`);
	console.log(`  lost: ${outcome.lost}`);
}

const errorCode = (error: unknown) =>
	String((error as { code?: string }).code ?? (error as Error).message ?? error);

/** (a) Security test 44: SIGTERM while requests are in flight. */
async function sigtermDrill() {
	const db = freshEmbedded();
	try {
		const server = startServer({ DATABASE_URL: db.url });
		await waitUntilUp(server);
		const member = await signUp(server.port);
		const acknowledged = new Set<number>();
		const other: Record<string, number> = {};
		let stopAt = 0;
		let sent = 0;
		const loop = async () => {
			for (;;) {
				try {
					sent++;
					const answer = await request(server.port, 'POST', '/api/v7.1/workout/', {
						token: member.token,
						body: newWorkout('Drill tempo'),
					});
					if (answer.status === 201) acknowledged.add(Number(answer.json?.id));
					else other[`HTTP ${answer.status}`] = (other[`HTTP ${answer.status}`] ?? 0) + 1;
				} catch (error) {
					const code = errorCode(error);
					// Refused: the server no longer listens, so the request never reached it.
					if (code === 'ECONNREFUSED') return;
					other[code] = (other[code] ?? 0) + 1;
					if (stopAt && Date.now() - stopAt > 15_000) return;
				}
			}
		};
		const loops = Array.from({ length: 16 }, loop);
		await sleep(2000);
		const beforeSignal = acknowledged.size;
		stopAt = Date.now();
		server.child.kill('SIGTERM');
		const code = await server.exited;
		const tookMs = Date.now() - stopAt;
		await Promise.all(loops);
		const stored = await storedWorkoutIds(db.folder, member.id);
		// The next start must open the folder cleanly.
		const again = startServer({ DATABASE_URL: db.url });
		let reopened = true;
		try {
			await waitUntilUp(again, 60_000);
		} catch {
			reopened = false;
		}
		await stopServer(again);
		const missing = [...acknowledged].filter((id) => !stored.has(id));
		const unacknowledged = [...stored].filter((id) => !acknowledged.has(id));
		// A connection the kernel or Node had accepted but whose request the server had not yet
		// read is reset when the listener closes (Node's close() ends idle connections). Such a
		// request was never processed, which the stored rows prove: nothing stored unacknowledged.
		const { ECONNRESET: reset = 0, ...others } = other;
		const failures = Object.entries(others);
		report({
			name: '(a) SIGTERM under load (16 clients creating workouts, PGlite)',
			pass:
				code === 0 &&
				missing.length === 0 &&
				unacknowledged.length === 0 &&
				failures.length === 0 &&
				reopened &&
				tookMs <= 11_000,
			did: [
				`${sent} requests sent, ${acknowledged.size} acknowledged (201), ${acknowledged.size - beforeSignal} of them after SIGTERM was sent`,
				`exit code ${code} after ${tookMs} ms; requests after the listener closed were refused (ECONNREFUSED)`,
				`connections reset before the server had read their request: ${reset} (none of them stored anything: safe to retry)`,
				`other failures (5xx, cut answers): ${failures.length ? failures.map(([k, n]) => `${k}×${n}`).join(', ') : 'none'}`,
				`stored after the stop: ${stored.size} workouts; stored without an acknowledgement: ${unacknowledged.length}`,
				`the next start opened the folder: ${reopened ? 'yes' : 'NO'}`,
			],
			lost: missing.length ? `${missing.length} acknowledged workouts missing` : 'nothing',
		});
	} finally {
		db.cleanup();
	}
}

/** (b) Security test 43: kill -9 during 1,000 acknowledged inserts, with a witness log. */
async function kill9Drill() {
	const db = freshEmbedded();
	const witness = path.join(path.dirname(db.folder), 'witness.log');
	try {
		let server = startServer({ DATABASE_URL: db.url });
		await waitUntilUp(server);
		const member = await signUp(server.port);
		const target = 1000;
		const killAt = 300 + Math.floor(Math.random() * 400);
		let acknowledged = 0;
		let killed = false;
		const insertLoop = async (port: number) => {
			while (acknowledged < target) {
				try {
					const answer = await request(port, 'POST', '/api/v7.1/workout/', {
						token: member.token,
						body: newWorkout('Witnessed'),
					});
					if (answer.status !== 201) throw new Error(`HTTP ${answer.status}`);
					// The witness: written only once the server acknowledged the row.
					appendFileSync(witness, `${answer.json?.id}\n`);
					acknowledged++;
					if (!killed && acknowledged >= killAt) {
						killed = true;
						server.child.kill('SIGKILL');
					}
				} catch (error) {
					if (killed) return;
					throw error;
				}
			}
		};
		await Promise.all(Array.from({ length: 4 }, () => insertLoop(server.port)));
		await server.exited;
		const atKill = acknowledged;
		server = startServer({ DATABASE_URL: db.url });
		const restartAt = Date.now();
		await waitUntilUp(server);
		const restartMs = Date.now() - restartAt;
		await Promise.all(Array.from({ length: 4 }, () => insertLoop(server.port)));
		const code = await stopServer(server);
		const witnessed = readFileSync(witness, 'utf8').trim().split('\n').map(Number);
		const stored = await storedWorkoutIds(db.folder, member.id);
		const missing = witnessed.filter((id) => !stored.has(id));
		const extra = [...stored].filter((id) => !witnessed.includes(id));
		report({
			name: '(b) kill -9 during 1,000 acknowledged inserts (PGlite)',
			pass: missing.length === 0 && witnessed.length >= target && code === 0,
			did: [
				`SIGKILL after ${atKill} acknowledged inserts (4 clients); restarted in ${restartMs} ms on the same folder (stale lock taken over)`,
				`continued to ${witnessed.length} acknowledged; the witness log lists ${witnessed.length} ids, the folder holds ${stored.size} rows`,
				`rows committed but never acknowledged (in flight at the kill): ${extra.length}`,
				'covers a killed process; an OS crash or power loss is not covered (PGlite writes through NodeFS without fsync guarantees)',
			],
			lost: missing.length ? `${missing.length} acknowledged rows missing` : 'nothing',
		});
	} finally {
		db.cleanup();
	}
}

/**
 * Security test 43: kill -9 while a device file uploads, before or after its row is committed; the
 * client sends the same request again with its Idempotency-Key once the server is back, and must
 * get one workout per file: the stored one (Idempotent-Replayed) or, if the kill came first, a new one.
 */
async function uploadKillDrill() {
	const db = freshEmbedded();
	const files = [
		'fit/garmin-edge-820-bike.fit',
		'fit/Edge810-Vector-2013-08-16-15-35-10.fit',
		'gpx/Mojstrovka.gpx',
		'tcx/cross-country-skiing_activity_1.tcx',
		'fit/garmin-fenix-5-bike.fit',
		'tcx/walking_activity_1.tcx',
	];
	try {
		let server = startServer({ DATABASE_URL: db.url });
		await waitUntilUp(server);
		const member = await signUp(server.port);
		const rounds: string[] = [];
		let replayed = 0;
		for (const [index, file] of files.entries()) {
			const raw = readFileSync(path.join(root, 'tests/fixtures/workouts', file));
			const send = (port: number) =>
				request(port, 'POST', '/api/v7.1/device/file_import/', {
					raw,
					token: member.token,
					headers: { 'idempotency-key': `drill-upload-${process.pid}-${index}` },
				});
			const inFlight = send(server.port).then(
				(answer) => `answered ${answer.status}`,
				(error) => `lost (${errorCode(error)})`,
			);
			// Anywhere from while the body is still arriving to after the row is written.
			await sleep(Math.floor(Math.random() * 400));
			server.child.kill('SIGKILL');
			const first = await inFlight;
			await server.exited;
			server = startServer({ DATABASE_URL: db.url });
			await waitUntilUp(server);
			const retry = await send(server.port);
			if (retry.status !== 201) throw new Error(`${file}: the retry answered ${retry.status}: ${retry.body}`);
			const wasReplay = retry.headers['idempotent-replayed'] === 'true';
			if (wasReplay) replayed++;
			rounds.push(`${file}: first send ${first}; retry 201${wasReplay ? ', replayed' : ', stored now'}`);
		}
		const code = await stopServer(server);
		const stored = await storedWorkoutIds(db.folder, member.id);
		report({
			name: '(f) kill -9 during uploads, retried with an Idempotency-Key (PGlite)',
			pass: stored.size === files.length && code === 0,
			did: [
				...rounds,
				`${files.length} files, ${replayed} retries answered from the stored workout; the folder holds ${stored.size} workouts`,
			],
			lost: stored.size < files.length ? `${files.length - stored.size} uploads` : 'nothing',
		});
		if (stored.size > files.length) throw new Error(`${stored.size - files.length} workouts stored twice`);
	} finally {
		db.cleanup();
	}
}

/** (c) Security test 45: a second server on the same data folder. */
async function secondServerDrill() {
	const db = freshEmbedded();
	try {
		const first = startServer({ DATABASE_URL: db.url });
		await waitUntilUp(first);
		const second = startServer({ DATABASE_URL: db.url });
		const code = await Promise.race([second.exited, sleep(60_000).then(() => 'still running')]);
		if (code === 'still running') second.child.kill('SIGKILL');
		const message = second
			.output()
			.split('\n')
			.find((line) => line.includes('in use by pid'));
		const firstAlive = (await request(first.port, 'GET', '/api/health/ready')).status === 200;
		const firstCode = await stopServer(first);
		report({
			name: '(c) a second server on the same PGlite data folder',
			pass:
				code === 1 && Boolean(message?.includes(`pid ${first.child.pid}`)) && firstAlive && firstCode === 0,
			did: [
				`second server exit code ${code}: "${message?.trim() ?? 'no message'}"`,
				`first server (pid ${first.child.pid}) still answering: ${firstAlive ? 'yes' : 'NO'}; it stopped with code ${firstCode}`,
			],
			lost: 'nothing',
		});
	} finally {
		db.cleanup();
	}
}

async function freshPostgres(): Promise<string | null> {
	const url = process.env.DRILL_DATABASE_URL;
	if (!url) return null;
	const name = new URL(url).pathname.slice(1);
	const admin = new URL(url);
	admin.pathname = '/postgres';
	const client = new pg.Client({ connectionString: admin.toString() });
	await client.connect();
	await client.query(`drop database if exists "${name}" with (force)`);
	await client.query(`create database "${name}"`);
	await client.end();
	return url;
}

async function terminateBackends(url: string): Promise<number> {
	const name = new URL(url).pathname.slice(1);
	const admin = new URL(url);
	admin.pathname = '/postgres';
	const client = new pg.Client({ connectionString: admin.toString() });
	await client.connect();
	const result = await client.query(
		'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()',
		[name],
	);
	await client.end();
	return result.rowCount ?? 0;
}

/** (d) Security test 46: PostgreSQL connections lost mid-load. */
async function postgresLossDrill(url: string) {
	// The request budget stays on (counted in PostgreSQL), so its store meets the fault too.
	const server = startServer({ DATABASE_URL: url, API_RATE_LIMIT: '999999' });
	try {
		await waitUntilUp(server);
		const member = await signUp(server.port);
		const pid = server.child.pid;
		const statuses: Record<string, number> = {};
		const unexpected: string[] = [];
		let acknowledged = 0;
		let running = true;
		const count = (key: string) => {
			statuses[key] = (statuses[key] ?? 0) + 1;
		};
		const loop = async (index: number) => {
			while (running) {
				try {
					// Half write, a quarter read through the API, a quarter render the signed-in feed page.
					const answer =
						index % 2
							? await request(server.port, 'POST', '/api/v7.1/workout/', {
									token: member.token,
									body: newWorkout('Through the outage'),
								})
							: index % 4 === 0
								? await request(server.port, 'GET', `/api/v7.1/workout/?user=${member.id}&limit=20`, {
										token: member.token,
									})
								: await request(server.port, 'GET', '/activity_feed/', {
										headers: { cookie: member.cookie },
									});
					count(String(answer.status));
					if (answer.status === 201) acknowledged++;
					if (answer.status >= 500 && answer.status !== 503) unexpected.push(answer.body.slice(0, 200));
					if (answer.status === 503 && /\bat \S+ \(\S+:\d+:\d+\)/.test(answer.body))
						unexpected.push(`503 with a stack: ${answer.body.slice(0, 200)}`);
				} catch (error) {
					count(errorCode(error));
					unexpected.push(errorCode(error));
				}
			}
		};
		const loops = Array.from({ length: 8 }, (_, i) => loop(i));
		await sleep(1500);
		let terminated = await terminateBackends(url);
		await sleep(700);
		terminated += await terminateBackends(url);
		await sleep(700);
		terminated += await terminateBackends(url);
		await sleep(2000);
		running = false;
		await Promise.all(loops);
		// Recovery without a restart: the same process answers every request again.
		let recovered = 0;
		for (let i = 0; i < 20; i++) {
			const answer = await request(server.port, 'GET', `/api/v7.1/workout/?user=${member.id}&limit=1`, {
				token: member.token,
			});
			if (answer.status === 200) recovered++;
		}
		const ready = await request(server.port, 'GET', '/api/health/ready');
		const listed = await request(server.port, 'GET', `/api/v7.1/workout/?user=${member.id}&limit=1`, {
			token: member.token,
		});
		const storedCount = Number(listed.json?.total_count);
		const samePid = server.child.exitCode === null && server.child.pid === pid;
		report({
			name: '(d) PostgreSQL connections terminated mid-load (pg_terminate_backend ×3)',
			pass: unexpected.length === 0 && recovered === 20 && samePid && storedCount >= acknowledged,
			did: [
				`${terminated} backends terminated over 1.4 s while 8 clients wrote workouts, read them and opened the feed page`,
				`answers: ${Object.entries(statuses)
					.map(([k, n]) => `${k}×${n}`)
					.join(', ')}`,
				`500s, stack traces or cut connections: ${unexpected.length ? unexpected.slice(0, 3).join(' | ') : 'none'}`,
				`afterwards, without a restart (same pid ${pid}): ${recovered}/20 requests 200, readiness ${ready.status}`,
				`workouts acknowledged ${acknowledged}, stored ${storedCount}` +
					(storedCount > acknowledged
						? `: ${storedCount - acknowledged} committed while their answer was a 503 or cut, so a client that retries stores them twice (no Idempotency-Key yet)`
						: ''),
			],
			lost: storedCount >= acknowledged ? 'nothing' : `${acknowledged - storedCount} acknowledged workouts`,
		});
	} finally {
		await stopServer(server);
	}
}

/** (e) Security test 48: 50 parallel likes, and two tabs saving one route. */
async function racesDrill(label: string, env: Record<string, string>, cleanup = () => {}) {
	const server = startServer(env);
	try {
		await waitUntilUp(server);
		const owner = await signUp(server.port);
		const likers = [owner];
		for (let i = 0; i < 4; i++) likers.push(await signUp(server.port));
		const workout = await request(server.port, 'POST', '/api/v7.1/workout/', {
			token: owner.token,
			body: { ...newWorkout('Liked a lot'), privacy: 3 },
		});
		const storyId = `workout_${workout.json?.id}`;
		// Ten likes from each of five members, all 50 at once.
		const likes = await Promise.all(
			likers.flatMap((member) =>
				Array.from({ length: 10 }, () =>
					request(server.port, 'POST', '/api/v7.1/activity_story/', {
						token: member.token,
						body: { verb: 'like', parent_story_id: storyId },
					}),
				),
			),
		);
		const likeStatuses: Record<string, number> = {};
		for (const answer of likes) likeStatuses[answer.status] = (likeStatuses[answer.status] ?? 0) + 1;
		const listed = await request(
			server.port,
			'GET',
			`/api/v7.1/activity_story/?reply_type=like&parent_story_id=${storyId}`,
			{ token: owner.token },
		);
		const likedBy = (
			(listed.json?._embedded as { activity_stories?: unknown[] })?.activity_stories ?? []
		).map((story) => JSON.stringify((story as { actor?: { id?: unknown } }).actor?.id ?? story));
		const distinct = new Set(likedBy).size;
		const story = await request(
			server.port,
			'GET',
			`/api/v7.1/activity_story/?object_type=workout&object_id=${workout.json?.id}`,
			{
				token: owner.token,
			},
		);
		const likeCount = JSON.stringify(story.json).match(
			/"likes?_?count"?:\s*\{?"?count"?:?\s*(\d+)|"like_count":(\d+)/,
		);

		const route = await request(server.port, 'POST', '/api/v7.1/route/', {
			token: owner.token,
			body: linePayload('Shared loop'),
		});
		const [tabOne, tabTwo] = await Promise.all([
			request(server.port, 'PUT', `/api/v7.1/route/${route.json?.id}/`, {
				token: owner.token,
				headers: { 'if-match': '"1"' },
				body: linePayload('Tab one'),
			}),
			request(server.port, 'PUT', `/api/v7.1/route/${route.json?.id}/`, {
				token: owner.token,
				headers: { 'if-match': '"1"' },
				body: linePayload('Tab two'),
			}),
		]);
		const saves = [tabOne.status, tabTwo.status].sort();
		const loser = tabOne.status === 412 ? tabOne : tabTwo;
		const winner = tabOne.status === 200 ? tabOne : tabTwo;
		const current = loser.json?.current as { name?: string; version?: number } | undefined;
		const noServerErrors = likes.every((answer) => answer.status < 500);
		const likesRight = likedBy.length === likers.length && distinct === likers.length;
		const savesRight =
			saves[0] === 200 && saves[1] === 412 && current?.name === winner.json?.name && current?.version === 2;
		report({
			name: `(e) 50 parallel likes and two tabs saving one route (${label})`,
			pass: noServerErrors && likesRight && savesRight,
			did: [
				`50 like requests at once from ${likers.length} members: ${Object.entries(likeStatuses)
					.map(([k, n]) => `${k}×${n}`)
					.join(', ')}`,
				`likes stored: ${likedBy.length} from ${distinct} distinct members (expected ${likers.length} and ${likers.length})${likeCount ? `; the story's count says ${likeCount[1] ?? likeCount[2]}` : ''}`,
				`two tabs PUT with If-Match "1": ${saves.join(' and ')}; the 412 carries the server copy "${current?.name}" (version ${current?.version}), the winner's edit "${winner.json?.name}"`,
			],
			lost: 'nothing (the refused save is answered with the server copy, so the tab can merge)',
		});
	} finally {
		await stopServer(server);
		cleanup();
	}
}

/**
 * (g) Security test 47, its slow-client half: 50 clients each send a request line and then one header byte
 * every 10 s (slowloris). Each must be cut by the headers timeout (15 s), and ordinary requests made all the
 * while must stay quick.
 */
async function slowClientDrill() {
	const db = freshEmbedded();
	const server = startServer({ DATABASE_URL: db.url });
	try {
		await waitUntilUp(server);
		const SLOW_CLIENTS = 50;
		const opened = performance.now();
		const cutAfter: number[] = [];
		let timedOut = 0;
		const sockets = Array.from({ length: SLOW_CLIENTS }, () => {
			const socket = net.connect(server.port, '127.0.0.1');
			socket.on('error', () => {});
			// Read what the server says (its 408), or the socket would never see the server end it.
			socket.on('data', (chunk) => {
				if (String(chunk).startsWith('HTTP/1.1 408')) timedOut++;
			});
			socket.on('close', () => cutAfter.push(performance.now() - opened));
			socket.write('GET /api/health HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
			return socket;
		});
		const trickle = setInterval(() => {
			for (const socket of sockets) if (!socket.destroyed) socket.write('x');
		}, 10_000);
		// Ordinary visitors meanwhile, one request after another, until every slow client is cut (or 40 s).
		const latencies: number[] = [];
		let failures = 0;
		while (cutAfter.length < SLOW_CLIENTS && performance.now() - opened < 40_000) {
			const started = performance.now();
			try {
				if ((await request(server.port, 'GET', '/api/health')).status !== 200) failures++;
			} catch {
				failures++;
			}
			latencies.push(performance.now() - started);
			await sleep(100);
		}
		clearInterval(trickle);
		for (const socket of sockets) socket.destroy();
		const sorted = [...latencies].sort((a, b) => a - b);
		const p95 = sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
		const cut = cutAfter.filter((ms) => ms < 40_000).sort((a, b) => a - b);
		report({
			name: '(g) 50 slowloris clients (one header byte every 10 s) beside ordinary requests',
			pass: cut.length === SLOW_CLIENTS && cut[cut.length - 1] <= 25_000 && p95 < 500 && failures === 0,
			did: [
				`${cut.length} of ${SLOW_CLIENTS} slow clients were cut by the server (${timedOut} told 408 Request Timeout), between ${((cut[0] ?? 0) / 1000).toFixed(1)} and ${((cut.at(-1) ?? 0) / 1000).toFixed(1)} s after they connected (headers timeout 15 s)`,
				`${latencies.length} ordinary requests meanwhile: p95 ${p95.toFixed(1)} ms (goal < 500), ${failures} failed`,
			],
			lost: 'nothing (a slow client sent no complete request)',
		});
	} finally {
		await stopServer(server);
		db.cleanup();
	}
}

/** Mounts a tmpfs of `size` at `folder`: null once mounted, otherwise why it could not be. */
function mountTmpfs(folder: string, size: string): string | null {
	mkdirSync(folder, { recursive: true });
	const mounted = spawnSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', folder], {
		encoding: 'utf8',
	});
	if (mounted.error) return mounted.error.message;
	return mounted.status === 0 ? null : mounted.stderr.trim() || `mount exited with ${mounted.status}`;
}

/** Bytes in use on the file system that holds `folder`. */
function usedBytes(folder: string): number {
	const disk = statfsSync(folder);
	return (disk.blocks - disk.bfree) * disk.bsize;
}

/** Every file under `folder`, by path relative to it, with its size. */
function filesUnder(folder: string): Map<string, number> {
	const files = new Map<string, number>();
	for (const entry of readdirSync(folder, { recursive: true, withFileTypes: true }))
		if (entry.isFile()) {
			const file = path.join(entry.parentPath, entry.name);
			files.set(path.relative(folder, file), statSync(file).size);
		}
	return files;
}

/** A camera-sized photo of noise, which JPEG cannot shrink: about 0.9 MB once the server re-encodes it. */
function noisyPhoto(shade: number): Promise<Buffer> {
	return sharp({
		create: {
			width: 1600,
			height: 1200,
			channels: 3,
			background: { r: shade % 256, g: 120, b: 80 },
			noise: { type: 'gaussian', mean: 128, sigma: 40 },
		},
	})
		.jpeg({ quality: 90 })
		.toBuffer();
}

async function uploadPhoto(port: number, token: string, workoutId: number, photo: Uint8Array) {
	const form = new FormData();
	form.append('image', new File([new Uint8Array(photo)], 'photo.jpg', { type: 'image/jpeg' }));
	const encoded = new Response(form);
	return request(port, 'POST', `/api/v7.1/workout/${workoutId}/photo/`, {
		token,
		raw: new Uint8Array(await encoded.arrayBuffer()),
		headers: { 'content-type': encoded.headers.get('content-type') ?? '' },
	});
}

type ThrottlingProxy = {
	port: number;
	/** Times every connection was cut, and how many connections were cut in all. */
	drops: () => { at: number[]; connections: number };
	close: () => void;
};

/**
 * A loopback TCP proxy in front of the server: every connection carries at most `bytesPerSecond` in
 * each direction, and every `dropEveryMs` all its connections are reset at once, as a train's link
 * drops them. New connections go to the port `targetPort` names then (a restarted server's).
 */
function startThrottlingProxy(
	targetPort: () => number,
	bytesPerSecond: number,
	dropEveryMs: number,
): Promise<ThrottlingProxy> {
	const TICK_MS = 100;
	const perTick = Math.round((bytesPerSecond * TICK_MS) / 1000);
	const open = new Set<{ client: net.Socket; upstream: net.Socket }>();
	const dropsAt: number[] = [];
	let connectionsCut = 0;
	const started = performance.now();
	/** Forwards `from` to `to` at the rate, reading from `from` only as fast as it sends. */
	function throttle(from: net.Socket, to: net.Socket): () => void {
		const queue: Buffer[] = [];
		let queued = 0;
		let ended = false;
		from.on('data', (chunk: Buffer) => {
			queue.push(chunk);
			queued += chunk.length;
			if (queued > perTick * 2) from.pause();
		});
		from.on('end', () => {
			ended = true;
		});
		const timer = setInterval(() => {
			let budget = perTick;
			while (budget > 0 && queue.length > 0) {
				const head = queue[0];
				const part = head.length <= budget ? head : head.subarray(0, budget);
				if (!to.destroyed) to.write(part);
				budget -= part.length;
				queued -= part.length;
				if (part === head) queue.shift();
				else queue[0] = head.subarray(part.length);
			}
			if (queued <= perTick * 2 && !from.destroyed) from.resume();
			if (ended && queue.length === 0 && !to.destroyed) to.end();
		}, TICK_MS);
		return () => clearInterval(timer);
	}
	const proxy = net.createServer((client) => {
		const upstream = net.connect(targetPort(), '127.0.0.1');
		const pair = { client, upstream };
		open.add(pair);
		const stops = [throttle(client, upstream), throttle(upstream, client)];
		const close = () => {
			for (const stop of stops) stop();
			client.destroy();
			upstream.destroy();
			open.delete(pair);
		};
		for (const socket of [client, upstream]) {
			socket.on('error', () => {});
			socket.on('close', close);
		}
	});
	const cutter = setInterval(() => {
		dropsAt.push(performance.now() - started);
		connectionsCut += open.size;
		for (const { client, upstream } of [...open]) {
			client.resetAndDestroy();
			upstream.resetAndDestroy();
		}
	}, dropEveryMs);
	const port = nextPort++;
	return new Promise((resolve) =>
		proxy.listen(port, '127.0.0.1', () =>
			resolve({
				port,
				drops: () => ({ at: [...dropsAt], connections: connectionsCut }),
				close: () => {
					clearInterval(cutter);
					for (const { client, upstream } of open) {
						client.destroy();
						upstream.destroy();
					}
					proxy.close();
				},
			}),
		),
	);
}

/** A file the server sends back, as bytes. */
function download(port: number, urlPath: string, token: string): Promise<Buffer> {
	return new Promise((resolve, reject) => {
		http
			.get(
				{
					host: '127.0.0.1',
					port,
					path: urlPath,
					agent: false,
					headers: { authorization: `Bearer ${token}` },
				},
				(incoming) => {
					const chunks: Buffer[] = [];
					incoming.on('data', (chunk) => chunks.push(chunk));
					incoming.on('end', () =>
						incoming.statusCode === 200
							? resolve(Buffer.concat(chunks))
							: reject(new Error(`${urlPath} answered ${incoming.statusCode}`)),
					);
					incoming.on('error', reject);
				},
			)
			.on('error', reject);
	});
}

/** A photo's large JPEG as the API serves it, byte for byte. */
function downloadPhoto(port: number, token: string, workoutId: number, photoId: number): Promise<Buffer> {
	return download(port, `/api/v7.1/workout/${workoutId}/photo/${photoId}/?size=large`, token);
}

/**
 * (h) Security test 46, its full-disk half: the uploads folder is a 5 MB tmpfs, filled with real
 * photos until it refuses them. Every refusal must be a 507 with Retry-After, no partial file may
 * stay, the photo rows must equal the files, earlier photos must stay whole, and other requests
 * must go on. Then the data exports get a full disk of their own: the job must fail, leave no
 * archive and try again once there is room.
 */
async function fullDiskDrill() {
	const folder = path.join(root, `data/drills-disk-${process.pid}`);
	const uploads = path.join(folder, 'uploads');
	const exports = path.join(folder, 'exports');
	// A fresh folder for the files; the routing graphs and map features are the drills' shared caches.
	mkdirSync(folder, { recursive: true });
	for (const cache of ['routing-cache', 'tile-cache']) {
		mkdirSync(path.join(dataDir, cache), { recursive: true });
		symlinkSync(path.join(dataDir, cache), path.join(folder, cache));
	}
	const mounted: string[] = [];
	const refusal = mountTmpfs(uploads, '5m');
	if (refusal) {
		rmSync(folder, { recursive: true, force: true });
		console.log(`\n[SKIP] (h) a full disk: this machine does not let the drill mount a tmpfs (${refusal}).`);
		return;
	}
	mounted.push(uploads);
	const db = freshEmbedded();
	let server: Server | null = null;
	try {
		const exportsRefusal = mountTmpfs(exports, '1m');
		if (exportsRefusal) throw new Error(`the exports tmpfs could not be mounted: ${exportsRefusal}`);
		mounted.push(exports);
		server = startServer({ DATABASE_URL: db.url, DATA_DIR: folder, LOG_LEVEL: 'warn' });
		const { port } = server;
		await waitUntilUp(server);
		const pid = server.child.pid;
		const member = await signUp(port);
		const workoutIds: number[] = [];
		for (const name of ['Photo walk', 'Photo ride']) {
			const made = await request(port, 'POST', '/api/v7.1/workout/', {
				token: member.token,
				body: newWorkout(name),
			});
			if (made.status !== 201) throw new Error(`logging a workout answered ${made.status}`);
			workoutIds.push(Number(made.json?.id));
		}

		// Meanwhile, one request after another: the health check and the member's workout list.
		let watching = true;
		const watched = { health: 0, lists: 0, ready: 0, failures: [] as string[], latencies: [] as number[] };
		const watch = (async () => {
			while (watching) {
				for (const [kind, urlPath] of [
					['health', '/api/health'],
					['lists', `/api/v7.1/workout/?user=${member.id}&limit=20`],
					['ready', '/api/health/ready'],
				] as const) {
					const started = performance.now();
					try {
						const answer = await request(port, 'GET', urlPath, { token: member.token });
						if (answer.status !== 200) watched.failures.push(`${urlPath} ${answer.status}`);
					} catch (error) {
						watched.failures.push(`${urlPath} ${errorCode(error)}`);
					}
					watched.latencies.push(performance.now() - started);
					watched[kind]++;
				}
				await sleep(50);
			}
		})();

		// Photos until the disk refuses three in a row.
		const accepted: { workoutId: number; photoId: number; photo: Buffer; stored: Buffer }[] = [];
		const refused: Answer[] = [];
		const otherAnswers: string[] = [];
		let sent = 0;
		let sentBytes = 0;
		let inARow = 0;
		while (inARow < 3 && sent < 16) {
			const photo = await noisyPhoto(40 + sent * 17);
			const workoutId = workoutIds[sent % workoutIds.length];
			const answer = await uploadPhoto(port, member.token, workoutId, photo);
			sent++;
			sentBytes += photo.byteLength;
			if (answer.status === 201) {
				inARow = 0;
				const photoId = Number(answer.json?.id);
				accepted.push({
					workoutId,
					photoId,
					photo,
					stored: await downloadPhoto(port, member.token, workoutId, photoId),
				});
			} else if (answer.status === 507) {
				inARow++;
				refused.push(answer);
			} else otherAnswers.push(`HTTP ${answer.status}: ${answer.body.slice(0, 120)}`);
		}
		const usedWhenFull = usedBytes(uploads);
		const honestRefusals = refused.filter(
			(answer) => Number(answer.headers['retry-after']) > 0 && answer.json?.error === 'storage_full',
		).length;
		const afterFilling = filesUnder(uploads);
		const zeroByte = [...afterFilling].filter(([, size]) => size === 0).length;

		// The photos taken before the disk filled, downloaded again.
		let whole = 0;
		for (const photo of accepted)
			if ((await downloadPhoto(port, member.token, photo.workoutId, photo.photoId)).equals(photo.stored))
				whole++;

		// Room again: the member deletes a photo, and the same photo fits once more.
		const [freed] = accepted;
		if (!freed) throw new Error('the disk refused even the first photo');
		const deleted = await request(
			port,
			'DELETE',
			`/api/v7.1/workout/${freed.workoutId}/photo/${freed.photoId}/`,
			{
				token: member.token,
			},
		);
		const again = await uploadPhoto(port, member.token, freed.workoutId, freed.photo);

		// The data exports on a disk of their own, filled to the last byte by something else.
		const ballast = path.join(exports, 'ballast');
		try {
			writeFileSync(ballast, Buffer.alloc(2 * 1024 * 1024, 1));
		} catch (error) {
			if (errorCode(error) !== 'ENOSPC') throw error;
		}
		const exportsFree = statfsSync(exports).bavail;
		const exporter = await signUp(port);
		// A device file: its original, read back while the archive is written, goes into it too.
		const imported = await request(port, 'POST', '/api/v7.1/device/file_import/', {
			token: exporter.token,
			raw: readFileSync(path.join(root, 'tests/fixtures/workouts/tcx/walking_activity_1.tcx')),
		});
		if (imported.status !== 201) throw new Error(`the device file answered ${imported.status}`);
		const asked = await request(port, 'POST', '/api/consent/v1/exports', {
			token: exporter.token,
			body: { password: PASSWORD },
		});
		const exportStatus = async () => {
			const listed = await request(port, 'GET', '/api/consent/v1/exports', { token: exporter.token });
			return (
				(listed.json?.exports ?? []) as { status: string; progress: number; bytes: number | null }[]
			)[0];
		};
		// The job starts at once and a build takes milliseconds: still not ready seconds after it
		// started means the try failed and waits for its next turn (30 s later).
		const firstTryAt = Date.now();
		while ((await exportStatus())?.status === 'queued' && Date.now() - firstTryAt < 30_000) await sleep(200);
		await sleep(3000);
		const afterFailedTry = await exportStatus();
		const failedTry = afterFailedTry?.status === 'building';
		const leftInExports = readdirSync(exports).filter((name) => name !== 'ballast');
		const survived = server.child.exitCode === null && server.child.pid === pid;
		rmSync(ballast);
		const roomAt = Date.now();
		let finished = await exportStatus();
		while (finished?.status !== 'ready' && Date.now() - roomAt < 90_000) {
			await sleep(1000);
			finished = await exportStatus();
		}
		const retriedAfterS = (Date.now() - roomAt) / 1000;
		const archives = readdirSync(exports);
		const archive = archives.length === 1 ? readFileSync(path.join(exports, archives[0])) : null;
		const archiveWhole =
			archive !== null &&
			archive.byteLength === finished?.bytes &&
			archive.subarray(0, 4).equals(Buffer.from('PK\x03\x04', 'latin1')) &&
			archive.subarray(-22, -18).equals(Buffer.from('PK\x05\x06', 'latin1'));

		watching = false;
		await watch;
		const code = await stopServer(server);

		// With the server stopped: the photo rows against the files, straight from the data folder.
		const client = await PGlite.create({ dataDir: db.folder });
		let rows: { workout_id: number; file_stem: string; bytes: number }[];
		try {
			rows = (
				await client.query<{ workout_id: number; file_stem: string; bytes: number }>(
					'select p.workout_id, p.file_stem, p.bytes from workout_photos p join workouts w on w.id = p.workout_id where w.owner_id = $1',
					[member.id],
				)
			).rows;
		} finally {
			await client.close();
		}
		const onDisk = filesUnder(uploads);
		const expected = new Map<string, number | null>();
		for (const row of rows) {
			const base = path.join('workout-photos', String(member.id), String(row.workout_id), row.file_stem);
			expected.set(`${base}-large.jpg`, row.bytes);
			expected.set(`${base}-thumbnail.jpg`, null);
		}
		const missing = [...expected].filter(
			([file, size]) => !onDisk.has(file) || (size !== null && onDisk.get(file) !== size),
		);
		const stray = [...onDisk.keys()].filter((file) => !expected.has(file));
		const sorted = [...watched.latencies].sort((a, b) => a - b);
		const p95 = sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
		const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(2);
		const lost = accepted.length - whole;
		report({
			name: '(h) a full disk: uploads on a 5 MB tmpfs, data exports on a full 1 MB tmpfs (PGlite)',
			pass:
				accepted.length > 0 &&
				refused.length > 0 &&
				honestRefusals === refused.length &&
				otherAnswers.length === 0 &&
				zeroByte === 0 &&
				missing.length === 0 &&
				stray.length === 0 &&
				rows.length === accepted.length &&
				lost === 0 &&
				watched.failures.length === 0 &&
				deleted.status === 204 &&
				again.status === 201 &&
				asked.status === 202 &&
				exportsFree === 0 &&
				failedTry &&
				leftInExports.length === 0 &&
				survived &&
				finished?.status === 'ready' &&
				archiveWhole &&
				code === 0,
			did: [
				`${sent} photos uploaded one after another (${mb(sentBytes)} MB of 1600×1200 JPEG): ${accepted.length} stored (201), ${refused.length} refused with 507, ${honestRefusals} of them with Retry-After: ${refused[0]?.headers['retry-after'] ?? '-'} and "storage_full"; other answers: ${otherAnswers.length ? otherAnswers.join(' | ') : 'none'}`,
				`uploads when full: ${mb(usedWhenFull)} MB of 5 MB used, ${afterFilling.size} files, ${zeroByte} of them zero bytes`,
				`the ${accepted.length} photos stored before the disk filled, downloaded again: ${whole} identical byte for byte`,
				`meanwhile ${watched.health} health checks, ${watched.lists} workout lists and ${watched.ready} readiness checks: ${watched.failures.length ? watched.failures.slice(0, 3).join(', ') : 'all 200'}, p95 ${p95.toFixed(1)} ms`,
				`the member deleted a photo (${deleted.status}); the same photo uploaded again: ${again.status}`,
				`at the end, with the server stopped: ${rows.length} photo rows, ${onDisk.size} files; rows without both whole files: ${missing.length}, files without a row: ${stray.length}`,
				`exports: the disk filled by another file (${exportsFree} blocks free); an export asked for (${asked.status}); 3 s after its first try began it was "${afterFailedTry?.status}" at ${afterFailedTry?.progress ?? 0} %, not ready, with ${leftInExports.length} archive files on the disk; the server ${survived ? `kept running (pid ${pid})` : 'DIED'}`,
				`exports: the other file removed, the job's next try made the archive ${retriedAfterS.toFixed(0)} s later: "${finished?.status}", ${finished?.bytes ?? 0} bytes, ${archiveWhole ? 'a whole zip' : 'NOT a whole zip'}`,
			],
			lost: lost
				? `${lost} stored photos changed or unreadable`
				: 'nothing (every refused upload was told so and saved nothing)',
		});
	} finally {
		if (server) await stopServer(server);
		const stuck = mounted.filter((mount) => spawnSync('umount', [mount]).status !== 0);
		if (stuck.length) console.log(`  could not unmount ${stuck.join(', ')}: unmount by hand`);
		else rmSync(folder, { recursive: true, force: true });
		db.cleanup();
	}
}

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/**
 * (i) Security test 47, its throttled-network half, and test 41's resumable path: a member uploads a
 * 1 MB watch recording with tus-js-client (the browser's own client, its Node build) through a proxy
 * that allows 10 KB/s each way and cuts every connection every 30 s. The upload must resume after
 * each cut without its progress ever falling behind what the server acknowledged, and end in one
 * workout whose kept file is the one sent; another member's requests, straight to the server, must
 * stay quick meanwhile.
 */
async function networkDrill() {
	const RATE = 10 * 1024;
	const DROP_EVERY_MS = 30_000;
	const DEADLINE_MS = 240_000;
	const db = freshEmbedded();
	const server = startServer({ DATABASE_URL: db.url });
	let proxy: ThrottlingProxy | null = null;
	try {
		await waitUntilUp(server);
		const uploader = await signUp(server.port);
		const other = await signUp(server.port);
		const fileName = 'activity-large-fenxi2-multisport.fit';
		const file = readFileSync(path.join(root, 'tests/fixtures/workouts/fit', fileName));
		proxy = await startThrottlingProxy(() => server.port, RATE, DROP_EVERY_MS);

		// The other member's ordinary requests, straight to the server, until the upload is over.
		const latencies: number[] = [];
		const otherFailures: string[] = [];
		let uploading = true;
		const otherMember = (async () => {
			for (let turn = 0; uploading; turn++) {
				const started = performance.now();
				try {
					const answer =
						turn % 3 === 0
							? await request(server.port, 'POST', '/api/v7.1/workout/', {
									token: other.token,
									body: newWorkout('Lunch loop'),
								})
							: turn % 3 === 1
								? await request(server.port, 'GET', `/api/v7.1/workout/?user=${other.id}&limit=20`, {
										token: other.token,
									})
								: await request(server.port, 'GET', '/api/v7.1/user/self/', { token: other.token });
					if (answer.status >= 300) otherFailures.push(`HTTP ${answer.status}`);
				} catch (error) {
					otherFailures.push(errorCode(error));
				}
				latencies.push(performance.now() - started);
				await sleep(200);
			}
		})();

		// What the server acknowledged (Upload-Offset of each HEAD and PATCH answer), and what the
		// client's progress said, in order.
		let acknowledged = 0;
		let heads = 0;
		let backwards = 0;
		let resent = 0;
		let lastProgress = 0;
		const offsets: number[] = [];
		let uploadUrl = '';
		const began = performance.now();
		const outcome = await new Promise<string>((resolve) => {
			const deadline = setTimeout(() => {
				void upload.abort();
				resolve(`gave up after ${DEADLINE_MS / 1000} s`);
			}, DEADLINE_MS);
			const upload = new Upload(file, {
				endpoint: `http://127.0.0.1:${proxy?.port}/api/workout_uploads/`,
				chunkSize: UPLOAD_CHUNK_BYTES,
				retryDelays: UPLOAD_RETRY_DELAYS_MS,
				metadata: { filename: fileName, idempotency_key: `drill-network-${process.pid}` },
				headers: { authorization: `Bearer ${uploader.token}` },
				onShouldRetry: (error) => {
					const status = (error as DetailedError).originalResponse?.getStatus();
					return status === undefined || [408, 409, 423, 429].includes(status) || status >= 500;
				},
				onAfterResponse: (request: HttpRequest, response) => {
					const method = request.getMethod();
					if (method === 'HEAD') heads++;
					const offset = Number(response.getHeader('Upload-Offset'));
					if ((method === 'HEAD' || method === 'PATCH') && Number.isFinite(offset)) {
						offsets.push(offset);
						acknowledged = Math.max(acknowledged, offset);
					}
				},
				onProgress: (sent) => {
					if (sent < acknowledged) backwards++;
					if (sent < lastProgress) resent += lastProgress - sent;
					lastProgress = sent;
				},
				onSuccess: () => {
					clearTimeout(deadline);
					uploadUrl = upload.url ?? '';
					resolve('finished');
				},
				onError: (error) => {
					clearTimeout(deadline);
					resolve(`failed: ${error.message.split('\n')[0]}`);
				},
			});
			upload.start();
		});
		const tookS = (performance.now() - began) / 1000;
		uploading = false;
		await otherMember;
		const drops = proxy.drops();
		const dropsDuring = drops.at.filter((at) => at <= tookS * 1000).length;
		proxy.close();
		proxy = null;

		// What the server made of it.
		const uploadPath = new URL(uploadUrl || 'http://x/').pathname;
		const asked = uploadUrl ? await request(server.port, 'GET', uploadPath, { token: uploader.token }) : null;
		const workoutId = Number((asked?.json?.workout as { id?: number } | undefined)?.id);
		const listed = await request(server.port, 'GET', `/api/v7.1/workout/?user=${uploader.id}`, {
			token: uploader.token,
		});
		const stored = Number(listed.json?.total_count);
		const kept = workoutId
			? await download(server.port, `/api/v7.1/workout/${workoutId}/export/?format=original`, uploader.token)
			: Buffer.alloc(0);
		const sameBytes = sha256(kept) === sha256(file);
		// The same file sent in one request by a third member gives the same figures.
		const direct = await signUp(server.port);
		const once = await request(server.port, 'POST', '/api/v7.1/device/file_import/', {
			raw: file,
			token: direct.token,
		});
		// Both read back the same way, after both were stored.
		const [resumed, sentOnce] = await Promise.all(
			[
				[workoutId, uploader.token],
				[Number(once.json?.id), direct.token],
			].map(([id, token]) =>
				request(server.port, 'GET', `/api/v7.1/workout/${id}/`, { token: String(token) }),
			),
		);
		const figures = (answer: Answer) =>
			JSON.stringify({ start: answer.json?.start_datetime, aggregates: answer.json?.aggregates });
		const sameFigures = once.status === 201 && figures(resumed) === figures(sentOnce);
		const leftOnDisk = existsSync(
			path.join(dataDir, 'uploads/resumable', uploadPath.split('/').at(-1) ?? ''),
		);
		const monotonic = offsets.every((offset, index) => index === 0 || offset >= offsets[index - 1]);

		const sorted = [...latencies].sort((a, b) => a - b);
		const p95 = sorted[Math.max(0, Math.ceil(sorted.length * 0.95) - 1)] ?? 0;
		const p50 = sorted[Math.floor(sorted.length / 2)] ?? 0;
		report({
			name: '(i) a 1 MB upload through a 10 KB/s link cut every 30 s (tus), beside another member',
			pass:
				outcome === 'finished' &&
				dropsDuring >= 2 &&
				heads >= dropsDuring &&
				backwards === 0 &&
				monotonic &&
				asked?.json?.status === 'imported' &&
				stored === 1 &&
				sameBytes &&
				sameFigures &&
				!leftOnDisk &&
				p95 < 500 &&
				otherFailures.length === 0,
			did: [
				`${file.length.toLocaleString('en-US')} bytes (${fileName}) through the proxy at ${RATE / 1024} KB/s each way: ${outcome} in ${tookS.toFixed(1)} s`,
				`connections cut ${dropsDuring} times while it ran (${drops.connections} connections in all); the client resumed ${heads} times (HEAD, then PATCH from the offset the server held)`,
				`progress below the last acknowledged offset: ${backwards} times; acknowledged offsets never went down: ${monotonic ? 'yes' : 'NO'} (${offsets.length} answers, ${(resent / 1024).toFixed(0)} KB sent again after cuts, all of it bytes the server had not acknowledged)`,
				`upload ${asked?.json?.status ?? 'unknown'}; workouts the member has: ${stored} (expected 1); the upload's partial file left on disk: ${leftOnDisk ? 'YES' : 'no'}`,
				`kept file sha256 ${sha256(kept).slice(0, 16)}… ${sameBytes ? 'equals' : 'DIFFERS FROM'} the sent file's; figures ${sameFigures ? 'equal' : `DIFFER FROM`} those of the same file sent in one request${sameFigures ? '' : ` (${once.status}: ${figures(resumed)} against ${figures(sentOnce)})`}`,
				`the other member, straight to the server: ${latencies.length} requests, p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (goal < 500), ${otherFailures.length} failed${otherFailures.length ? ` (${otherFailures.slice(0, 3).join(', ')})` : ''}`,
			],
			lost: stored === 1 && sameBytes ? 'nothing' : `the upload (${stored} workouts stored)`,
		});
	} finally {
		proxy?.close();
		await stopServer(server);
		db.cleanup();
	}
}

/**
 * (j) Security test 41's resumable path: `kill -9` while a 1 MB device file uploads with tus (at
 * 200 KB/s, so the kill lands mid-file), then a restart on the same data folder. The client resumes
 * by itself from the bytes the folder kept; the drill expects one workout, no row before the file was
 * whole, the stored file equal to the sent one, and the partial file kept across the restart (it is
 * the member's, and not stale) but gone once imported.
 */
async function resumableKillDrill() {
	const db = freshEmbedded();
	let server = startServer({ DATABASE_URL: db.url });
	let proxy: ThrottlingProxy | null = null;
	try {
		await waitUntilUp(server);
		const member = await signUp(server.port);
		const fileName = 'activity-large-fenxi2-multisport.fit';
		const file = readFileSync(path.join(root, 'tests/fixtures/workouts/fit', fileName));
		proxy = await startThrottlingProxy(() => server.port, 200 * 1024, 3_600_000);
		let killedAt = 0;
		let upAt = 0;
		let resumedAt = 0;
		let rowsWhileKilled = -1;
		let heldAcrossRestart = -1;
		const offsetsAfterRestart: number[] = [];
		const began = performance.now();
		let watch: NodeJS.Timeout | undefined;
		const outcome = await new Promise<string>((resolve) => {
			const deadline = setTimeout(() => {
				void upload.abort();
				resolve('gave up after 120 s');
			}, 120_000);
			const upload = new Upload(file, {
				endpoint: `http://127.0.0.1:${proxy?.port}/api/workout_uploads/`,
				chunkSize: UPLOAD_CHUNK_BYTES,
				// A restart takes seconds: the client keeps trying for about a minute, as the page does.
				retryDelays: UPLOAD_RETRY_DELAYS_MS,
				metadata: { filename: fileName },
				headers: { authorization: `Bearer ${member.token}` },
				onShouldRetry: (error) => {
					const status = (error as DetailedError).originalResponse?.getStatus();
					return status === undefined || [408, 409, 423, 429].includes(status) || status >= 500;
				},
				onAfterResponse: (request: HttpRequest, response) => {
					if (!killedAt || request.getMethod() !== 'HEAD' || response.getStatus() !== 200) return;
					resumedAt ||= performance.now();
					offsetsAfterRestart.push(Number(response.getHeader('Upload-Offset')));
				},
				onSuccess: () => {
					clearTimeout(deadline);
					resolve('finished');
				},
				onError: (error) => {
					clearTimeout(deadline);
					resolve(`failed: ${error.message.split('\n')[0]}`);
				},
			});
			upload.start();
			// The kill lands once the server holds 70 % of the file, in the middle of a part.
			watch = setInterval(() => {
				const id = upload.url?.split('/').at(-1);
				const partial = id ? path.join(dataDir, 'uploads/resumable', id) : '';
				if (!partial || !existsSync(partial) || statSync(partial).size < file.length * 0.7) return;
				clearInterval(watch);
				killedAt = performance.now();
				server.child.kill('SIGKILL');
				void (async () => {
					await server.exited;
					rowsWhileKilled = (await storedWorkoutIds(db.folder, member.id)).size;
					heldAcrossRestart = existsSync(partial) ? statSync(partial).size : -1;
					server = startServer({ DATABASE_URL: db.url });
					await waitUntilUp(server);
					upAt = performance.now();
				})();
			}, 20);
		});
		clearInterval(watch);
		const tookS = (performance.now() - began) / 1000;
		proxy.close();
		proxy = null;
		const listed = await request(server.port, 'GET', `/api/v7.1/workout/?user=${member.id}`, {
			token: member.token,
		});
		const stored = Number(listed.json?.total_count);
		const workoutId = Number(
			(listed.json?._embedded as { workouts?: { id: number }[] } | undefined)?.workouts?.[0]?.id,
		);
		const kept = workoutId
			? await download(server.port, `/api/v7.1/workout/${workoutId}/export/?format=original`, member.token)
			: Buffer.alloc(0);
		const sameBytes = sha256(kept) === sha256(file);
		const code = await stopServer(server);
		const resumedFrom = offsetsAfterRestart[0] ?? -1;
		report({
			name: '(j) kill -9 during a resumable (tus) upload, then a restart on the same folder (PGlite)',
			pass:
				outcome === 'finished' &&
				rowsWhileKilled === 0 &&
				heldAcrossRestart > 0 &&
				resumedFrom >= heldAcrossRestart &&
				stored === 1 &&
				sameBytes &&
				code === 0,
			did: [
				`${file.length.toLocaleString('en-US')} bytes at 200 KB/s; SIGKILL once the server held 70 % (${((killedAt - began) / 1000).toFixed(1)} s in); the restarted server was ready ${((upAt - killedAt) / 1000).toFixed(1)} s after the kill`,
				`workouts while the server was down: ${rowsWhileKilled} (no half row); bytes the folder kept across the kill: ${heldAcrossRestart.toLocaleString('en-US')}`,
				`the client resumed by itself ${((resumedAt - killedAt) / 1000).toFixed(1)} s after the kill, from offset ${resumedFrom.toLocaleString('en-US')} (HEAD), and the upload ${outcome} after ${tookS.toFixed(1)} s in all`,
				`workouts afterwards: ${stored} (expected 1); the kept file's sha256 ${sameBytes ? 'equals' : 'DIFFERS FROM'} the sent file's; the server stopped with code ${code}`,
			],
			lost: stored === 1 && sameBytes ? 'nothing' : `the upload (${stored} workouts stored)`,
		});
	} finally {
		proxy?.close();
		if (server.child.exitCode === null) await stopServer(server);
		db.cleanup();
	}
}

async function main() {
	const reason = buildReason(root);
	if (reason) {
		console.log(`Building first (${reason}).`);
		const built = spawnSync(process.execPath, [path.join(root, 'scripts/build.mjs')], {
			cwd: root,
			stdio: 'inherit',
		});
		if (built.status !== 0) process.exit(1);
	}
	mkdirSync(dataDir, { recursive: true });
	const chosen = process.argv.slice(2);
	/** A drill that throws is a FAIL with its error and the server's last words, and the others still run. */
	const attempt = async (name: string, drill: () => Promise<void>) => {
		try {
			await drill();
		} catch (error) {
			report({
				name,
				pass: false,
				did: [
					`the drill broke off: ${error instanceof Error ? error.message : error}`,
					`server (exit code ${lastServer?.child.exitCode}) said: ${lastServer?.output().trim().split('\n').slice(-8).join(' | ') || 'nothing'}`,
				],
				lost: 'unknown',
			});
			if (lastServer?.child.exitCode === null) lastServer.child.kill('SIGKILL');
		}
	};
	const wanted = (name: string) => chosen.length === 0 || chosen.includes(name);
	const postgresUrl = wanted('pgloss') || wanted('races') ? await freshPostgres() : null;
	if (wanted('sigterm')) await attempt('(a) SIGTERM under load', sigtermDrill);
	if (wanted('kill9')) await attempt('(b) kill -9 during inserts', kill9Drill);
	if (wanted('upload')) await attempt('(f) kill -9 during uploads', uploadKillDrill);
	if (wanted('second')) await attempt('(c) a second server', secondServerDrill);
	if (wanted('slow')) await attempt('(g) slowloris clients', slowClientDrill);
	if (wanted('disk')) await attempt('(h) a full disk', fullDiskDrill);
	if (wanted('network')) await attempt('(i) throttled, dropping network', networkDrill);
	if (wanted('resume')) await attempt('(j) kill -9 during a resumable upload', resumableKillDrill);
	if (wanted('races')) {
		const db = freshEmbedded();
		await attempt('(e) races on PGlite', () => racesDrill('PGlite', { DATABASE_URL: db.url }, db.cleanup));
		if (postgresUrl)
			await attempt('(e) races on PostgreSQL', () => racesDrill('PostgreSQL', { DATABASE_URL: postgresUrl }));
	}
	if (wanted('pgloss')) {
		if (postgresUrl) await attempt('(d) PostgreSQL connections lost', () => postgresLossDrill(postgresUrl));
		else
			console.log(
				'\n[SKIP] (d) PostgreSQL connections lost: set DRILL_DATABASE_URL to a database of its own.',
			);
	}
	const failed = outcomes.filter((outcome) => !outcome.pass);
	console.log(`\n${outcomes.length - failed.length} of ${outcomes.length} drills passed.`);
	process.exit(failed.length ? 1 : 0);
}

await main();
