import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ApiEnv } from '../../../src/lib/api/context';
import { PRICED_READS } from '../../../src/lib/api/request-costs';
import { clearAccountCounters, countAttempt, emailAccount } from '../../../src/lib/auth/server/throttle';
import { readConfig } from '../../../src/lib/core/config';
import { AppError } from '../../../src/lib/core/errors';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { hourlyBudget } from '../../../src/lib/social/server/limits';
import { createStatsApi } from '../../../src/lib/stats/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { addSignedInMember, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, TEST_DB_KIND, type TestDatabase } from '../../helpers/db';

/** Security test 26: a caller scraping the API gets 429 once past the documented budget. */
const LIMIT = 5;
let database: TestDatabase;
let app: ReturnType<typeof createTestApi>;
let deps: ReturnType<typeof createTestDeps>;

const publicList = new Hono<ApiEnv>().get('/public-things', (c) => c.json({ things: [] }));

/** A request as it arrives over the network from `address` (the Node adapter's socket). */
function fromAddress(
	address: string,
	path = '/api/public-things',
	headers: Record<string, string> = {},
	to: { request: typeof app.request } = app,
) {
	return to.request(path, { headers }, { incoming: { socket: { remoteAddress: address } } });
}

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db, {
		config: readConfig({
			NODE_ENV: 'test',
			PUBLIC_URL: 'http://localhost:4321',
			DATA_DIR: './data-test',
			API_RATE_LIMIT: String(LIMIT),
		}),
	});
	app = createTestApi(deps, { routes: [publicList, createSocialApi()] });
});
afterAll(() => database.close());

describe('the API request budget', () => {
	test('answers 429 with Retry-After past the limit, and tells callers what is left before that', async () => {
		const statuses: number[] = [];
		let first: Response | undefined;
		for (let i = 0; i < LIMIT; i++) {
			const response = await fromAddress('203.0.113.10');
			first ??= response;
			statuses.push(response.status);
		}
		expect(statuses).toEqual(Array(LIMIT).fill(200));
		expect(first?.headers.get('ratelimit-policy')).toBe(`${LIMIT};w=60`);
		expect(first?.headers.get('ratelimit')).toMatch(new RegExp(`^remaining=${LIMIT - 1}, reset=\\d+$`));

		const refused = await fromAddress('203.0.113.10');
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
		expect(JSON.stringify(await refused.json())).toContain('too_many_requests');
	});

	test('counts each address on its own, and never limits health probes', async () => {
		for (let i = 0; i < LIMIT + 3; i++)
			expect((await fromAddress('203.0.113.20', '/api/health')).status).toBe(200);
		expect((await fromAddress('203.0.113.20')).status).toBe(200);
		expect((await fromAddress('198.51.100.7')).status).toBe(200);
	});

	test('counts a signed-in member by account, not by the address they share', async () => {
		const shared = '203.0.113.30';
		for (let i = 0; i < LIMIT; i++) expect((await fromAddress(shared)).status).toBe(200);
		expect((await fromAddress(shared)).status).toBe(429);
		const { token } = await addSignedInMember(deps, 'member');
		const member = await fromAddress(shared, '/api/public-things', { authorization: `Bearer ${token}` });
		expect(member.status).toBe(200);
	});

	test('a forged X-Forwarded-For does not buy a fresh budget when no trusted proxy is configured', async () => {
		for (let i = 0; i < LIMIT; i++)
			await fromAddress('203.0.113.40', '/api/public-things', { 'x-forwarded-for': `10.0.0.${i}` });
		const forged = await fromAddress('203.0.113.40', '/api/public-things', { 'x-forwarded-for': '10.9.9.9' });
		expect(forged.status).toBe(429);
	});

	// Issue 36: ten members polling the feed inside the per-request budget starved health probes.
	test("a member polling the feed spends their budget faster, while another member's cheap reads pass", async () => {
		const costly = readConfig({
			NODE_ENV: 'test',
			PUBLIC_URL: 'http://localhost:4321',
			DATA_DIR: './data-test',
			API_RATE_LIMIT: '20',
		});
		const heavyApp = createTestApi(createTestDeps(database.db, { config: costly }), {
			routes: [publicList, createSocialApi()],
		});
		const poller = await addSignedInMember(deps, 'feedpoller');
		const reader = await addSignedInMember(deps, 'cheapreader');
		const as = (token: string, path: string) =>
			fromAddress('203.0.113.60', path, { authorization: `Bearer ${token}` }, heavyApp);
		const feed = '/api/v7.1/activity_story/?limit=40';

		// A page of 40 stories costs 10 of the 20 points: two polls a minute, not twenty.
		expect((await as(poller.token, feed)).status).toBe(200);
		expect((await as(poller.token, feed)).status).toBe(200);
		const refused = await as(poller.token, feed);
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(60);
		expect((await as(poller.token, '/api/public-things')).status).toBe(429);

		for (let i = 0; i < 5; i++) expect((await as(reader.token, '/api/public-things')).status).toBe(200);
		for (let i = 0; i < 5; i++) expect((await as(poller.token, '/api/health')).status).toBe(200);
	});

	// The feed page reads each story's likes and comments apart; those must stay cheap.
	test("one story's likes and comments cost what any cheap read costs", async () => {
		const member = await addSignedInMember(deps, 'replyreader');
		const as = (path: string) =>
			fromAddress('203.0.113.61', path, { authorization: `Bearer ${member.token}` });
		await as('/api/v7.1/activity_story/?reply_type=like&parent_story_id=workout_1');
		await as('/api/v7.1/activity_story/?reply_type=comment&parent_story_id=workout_1');
		const cheap = await as('/api/public-things');
		expect(cheap.headers.get('ratelimit')).toMatch(new RegExp(`^remaining=${LIMIT - 3}, `));
	});

	// A renamed route would otherwise lose its price without a word.
	test('every priced read names a GET route the API serves', () => {
		const served = new Set(
			[createSocialApi(), createStatsApi(), createRoutesApi(), createWorkoutsApi(), createWorkoutDetailApi()]
				.flatMap((sub) => sub.routes)
				.filter((route) => route.method === 'GET')
				.map((route) => route.path.replace(/\/$/, '')),
		);
		expect(PRICED_READS.filter((path) => !served.has(path))).toEqual([]);
	});
});

// Behind a load balancer each process holds its own database client; on the embedded database one
// process is all there is (its folder is locked), so there is nothing to share there.
describe.skipIf(TEST_DB_KIND !== 'postgres')('budgets shared by processes on one PostgreSQL', () => {
	let other: TestDatabase;
	let otherApp: ReturnType<typeof createTestApi>;
	beforeAll(async () => {
		other = await openTestDb();
		otherApp = createTestApi(createTestDeps(other.db, { config: deps.config }), { routes: [publicList] });
	});
	afterAll(() => other.close());

	test('requests spread over two app instances spend one budget per caller', async () => {
		const statuses: number[] = [];
		for (let i = 0; i < LIMIT; i++)
			statuses.push((await fromAddress('203.0.113.50', undefined, {}, i % 2 ? otherApp : app)).status);
		expect(statuses).toEqual(Array(LIMIT).fill(200));
		const refusedHere = await fromAddress('203.0.113.50');
		const refusedThere = await fromAddress('203.0.113.50', undefined, {}, otherApp);
		expect([refusedHere.status, refusedThere.status]).toEqual([429, 429]);
		expect(Number(refusedThere.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
		expect((await fromAddress('198.51.100.50', undefined, {}, otherApp)).status).toBe(200);
	});

	test('an hourly write budget is one budget across instances', async () => {
		const here = hourlyBudget(database.db, 'comments', 2, 'comments');
		const there = hourlyBudget(other.db, 'comments', 2, 'comments');
		await here(41);
		await there(41);
		const refusal = await there(41).catch((error: unknown) => error);
		expect(refusal).toBeInstanceOf(AppError);
		expect((refusal as AppError).status).toBe(429);
		expect(Number((refusal as AppError).headers?.['Retry-After'])).toBeGreaterThan(3500);
		await expect(here(42)).resolves.toBeUndefined();
	});

	test('failed sign-ins at one account spread over two instances pause it on both, and a reset on one lifts it', async () => {
		const attempt = { ip: '203.0.113.70', account: emailAccount('grace@example.test') };
		for (let i = 0; i < 10; i++) await countAttempt({ db: i % 2 ? other.db : database.db }, attempt);
		for (const db of [database.db, other.db]) {
			const refusal = await countAttempt({ db }, attempt).catch((error: unknown) => error);
			expect(refusal).toBeInstanceOf(AppError);
			expect((refusal as AppError).detail).toBe('too_many_attempts');
			expect(Number((refusal as AppError).headers?.['Retry-After'])).toBeLessThanOrEqual(900);
		}
		await clearAccountCounters({ db: other.db }, 'grace@example.test');
		await expect(countAttempt({ db: database.db }, attempt)).resolves.toBeDefined();
	});
});
