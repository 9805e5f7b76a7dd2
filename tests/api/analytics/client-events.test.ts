import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { EVENT_RETENTION_DAYS, MAX_BATCH_EVENTS } from '../../../src/lib/analytics/events';
import { createAnalyticsApi } from '../../../src/lib/analytics/server/api';
import {
	analyticsReport,
	CLIENT_EVENT_BATCHES_PER_MINUTE,
	pruneAnalyticsEvents,
} from '../../../src/lib/analytics/server/service';
import { analyticsEvents } from '../../../src/lib/analytics/server/tables';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import {
	addSignedInMember,
	callApi,
	createTestApi,
	createTestClock,
	createTestDeps,
} from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
let deps: AppDeps;
let clock: ReturnType<typeof createTestClock>;
let app: ReturnType<typeof createTestApi>;
let nextAddress = 1;

beforeAll(async () => {
	database = await openTestDb();
	clock = createTestClock();
	const base = createTestDeps(database.db, { clock });
	deps = { ...base, config: { ...base.config, trustedProxy: true } };
	app = createTestApi(deps, { routes: [createAnalyticsApi()] });
});
beforeEach(() => database.db.delete(analyticsEvents));
afterAll(() => database.close());

const DEVICE = '3f1c2a9e-8d7b-4c6a-9e5f-1a2b3c4d5e6f';
const YES = `ms_cookie_choices=preferences-on.analytics-on; ms_device_id=${DEVICE}`;

const event = (overrides: Record<string, unknown> = {}) => ({
	type: 'event',
	name: 'route_searched',
	timestamp: clock().getTime() - 1000,
	page_type: 'Route Search',
	attributes: { page: 1 },
	...overrides,
});

/** Each call comes from an address of its own unless told, so budgets do not mix. */
function post(body: unknown, headers: Record<string, string> = {}, token?: string) {
	return callApi(app, 'POST', '/api/auth/client-events', {
		body,
		token,
		headers: { 'x-forwarded-for': `198.51.100.${nextAddress++ % 250}`, ...headers },
	});
}

const stored = () => database.db.select().from(analyticsEvents);

describe('who is counted', () => {
	test('a visitor who said yes is kept under their device id and nothing else about them', async () => {
		const { token } = await addSignedInMember(deps, `counted${Date.now()}`);
		const answer = await post(
			{
				'uacf-id': DEVICE,
				events: [event(), event({ type: 'page_view', name: 'page_view', attributes: {} })],
			},
			{ cookie: YES },
			token,
		);
		expect(answer.status).toBe(200);
		expect(answer.json).toEqual({ stored: 2 });
		const rows = await stored();
		expect(rows).toHaveLength(2);
		expect(rows.map((row) => row.deviceId)).toEqual([DEVICE, DEVICE]);
		// No column can hold a member, an address or an e-mail.
		expect(Object.keys(rows[0]).sort()).toEqual(
			[
				'attributes',
				'deviceId',
				'id',
				'name',
				'occurredAt',
				'pageType',
				'receivedAt',
				'type',
				'value',
			].sort(),
		);
		expect(JSON.stringify(rows)).not.toMatch(/198\.51\.100|example\.test/);
	});

	test('an EU1 visitor who has not chosen sends nothing that is kept, device id or not', async () => {
		for (const cookie of ['ms_geo=DE', `ms_geo=FR; ms_device_id=${DEVICE}`, 'ms_geo=NL', '']) {
			const answer = await post({ 'uacf-id': DEVICE, events: [event()] }, { cookie });
			expect(answer.status, cookie).toBe(200);
			expect(answer.json, cookie).toEqual({ stored: 0 });
		}
		expect(await stored()).toEqual([]);
	});

	test('a US visitor who has not chosen is counted without any id', async () => {
		const answer = await post(
			{ 'uacf-id': DEVICE, events: [event()] },
			{ cookie: `ms_geo=US-NY; ms_device_id=${DEVICE}` },
		);
		expect(answer.json).toEqual({ stored: 1 });
		expect((await stored())[0].deviceId).toBeNull();
	});

	test('a no, or a Global Privacy Control signal, keeps nothing even with a yes saved', async () => {
		const refusals: Record<string, string>[] = [
			{ cookie: 'ms_geo=US; ms_cookie_choices=preferences-on.analytics-off' },
			{ cookie: YES, 'sec-gpc': '1' },
			{ cookie: 'ms_cookie_choices=preferences-on.analytics-on.gpc' },
		];
		for (const headers of refusals)
			expect((await post({ events: [event()] }, headers)).json).toEqual({ stored: 0 });
		expect(await stored()).toEqual([]);
	});
});

describe('what is kept', () => {
	test('attributes that look like an e-mail, a name or a position are dropped; fractions keep one decimal', async () => {
		const attributes = {
			route_id: 12,
			email: 'x',
			lat: 52.52,
			near: '52.5200 13.4050',
			speed: 2.71,
			source: 'log',
		};
		expect((await post({ events: [event({ attributes })] }, { cookie: YES })).json).toEqual({ stored: 1 });
		expect((await stored())[0].attributes).toEqual({ route_id: 12, speed: 2.7, source: 'log' });
	});

	test('events from long ago or far ahead, and mismatched kinds, are dropped; the rest kept', async () => {
		const now = clock().getTime();
		const answer = await post(
			{
				events: [
					event({ timestamp: now - 3 * 86_400_000 }),
					event({ timestamp: now + 3_600_000 }),
					event({ type: 'web_vital', name: 'route_viewed' }),
					event({ type: 'web_vital', name: 'LCP' }),
					event({ type: 'event', name: 'page_view' }),
					event({ type: 'web_vital', name: 'CLS', value: 0.04 }),
				],
			},
			{ cookie: YES },
		);
		expect(answer.json).toEqual({ stored: 1 });
		expect((await stored())[0]).toMatchObject({ type: 'web_vital', name: 'CLS', value: 0.04 });
	});

	test('free text, unknown names, e-mails, oversize batches and odd ids are refused whole', async () => {
		const refused = [
			{ events: [] },
			{ events: Array.from({ length: MAX_BATCH_EVENTS + 1 }, () => event()) },
			{ events: [event({ name: 'anything_at_all' })] },
			{ events: [event({ attributes: { search: 'walker@example.test' } })] },
			{ events: [event({ attributes: { note: 'a sentence, with punctuation!' } })] },
			{ events: [event({ attributes: { label: 'x'.repeat(65) } })] },
			{
				events: [
					event({ attributes: Object.fromEntries(Array.from({ length: 13 }, (_, i) => [`k${i}`, i])) }),
				],
			},
			{ events: [event({ attributes: { 'Bad Key': 1 } })] },
			{ events: [event({ page_type: 'Route 1' })] },
			{ events: [event({ value: -1 })] },
			{ 'uacf-id': 'not-a-uuid', events: [event()] },
		];
		for (const body of refused)
			expect((await post(body, { cookie: YES })).status, JSON.stringify(body).slice(0, 80)).toBe(400);
		expect(await stored()).toEqual([]);
	});

	test(`one address may send ${CLIENT_EVENT_BATCHES_PER_MINUTE} batches a minute`, async () => {
		const headers = { cookie: 'ms_geo=DE', 'x-forwarded-for': '192.0.2.77' };
		for (let i = 0; i < CLIENT_EVENT_BATCHES_PER_MINUTE; i++)
			expect((await post({ events: [event()] }, headers)).status).toBe(200);
		const refused = await post({ events: [event()] }, headers);
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
	});
});

describe('the team’s report', () => {
	async function send(deviceId: string, names: string[]) {
		const start = clock().getTime() - 60_000;
		const events = names.map((name, index) =>
			name === 'page_view'
				? event({ type: 'page_view', name, timestamp: start + index * 1000, attributes: {} })
				: event({ name, timestamp: start + index * 1000 }),
		);
		const cookie = `ms_cookie_choices=preferences-on.analytics-on; ms_device_id=${deviceId}`;
		expect((await post({ events }, { cookie })).json).toEqual({ stored: names.length });
	}

	test('counts per day, follows devices through both funnels and gives Web Vitals at p75', async () => {
		const ids = Array.from({ length: 4 }, (_, i) => `00000000-0000-4000-8000-00000000000${i}`);
		await send(ids[0], [
			'page_view',
			'signup_completed',
			'workout_created',
			'route_searched',
			'route_viewed',
			'route_bookmarked',
		]);
		await send(ids[1], ['page_view', 'signup_completed', 'route_searched', 'route_viewed']);
		// A workout before signing up is not a first workout after it.
		await send(ids[2], ['page_view', 'workout_created', 'signup_completed', 'route_searched']);
		await send(ids[3], ['page_view']);
		const vitals = [100, 200, 300, 400].map((value) =>
			event({ type: 'web_vital', name: 'LCP', value, page_type: 'Home' }),
		);
		await post({ events: vitals }, { cookie: YES });

		const report = await analyticsReport(deps, 7);
		expect(report.daily).toHaveLength(7);
		expect(report.daily.at(-1)).toEqual({ day: '2026-06-01', pageViews: 4, events: 11, devices: 5 });
		expect(report.daily[0]).toEqual({ day: '2026-05-26', pageViews: 0, events: 0, devices: 0 });
		expect(report.funnels.signup.map((step) => step.devices)).toEqual([4, 3, 1]);
		expect(report.funnels.routes.map((step) => step.devices)).toEqual([3, 2, 1]);
		expect(report.topEvents[0]).toEqual({ name: 'route_searched', count: 3 });
		expect(report.vitals).toEqual([{ pageType: 'Home', metric: 'LCP', p75: 325, samples: 4 }]);
	});

	test(`raw events go after ${EVENT_RETENTION_DAYS} days`, async () => {
		await post({ events: [event()] }, { cookie: YES });
		expect(await pruneAnalyticsEvents(deps)).toBe(0);
		clock.advance(EVENT_RETENTION_DAYS * 86_400 + 60);
		expect(await pruneAnalyticsEvents(deps)).toBe(1);
		expect(await stored()).toEqual([]);
	});
});
