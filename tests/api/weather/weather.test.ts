import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createWeatherApi } from '../../../src/lib/weather/server/api';
import { openMeteoProvider } from '../../../src/lib/weather/server/open-meteo';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi, createTestClock, createTestDeps, signInAs } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, type Member } from '../workouts/helpers';

/**
 * The weather association against a local server that answers as Open-Meteo's historical API does
 * (https://open-meteo.com/en/docs/historical-weather-api): hourly arrays for one day in GMT.
 */

type Answer = { status: number; body: string; delayMs?: number };
let server: Server;
let archiveUrl: string;
let requests: URL[] = [];
let answerWith: (url: URL) => Answer;

/** A day of hourly readings where every hour differs, so the wrong hour cannot pass unnoticed. */
function archiveDay(day: string, options: { missingFrom?: number } = {}) {
	const hours = Array.from({ length: 24 }, (_, hour) => hour);
	const value = (hour: number, base: number) =>
		options.missingFrom !== undefined && hour >= options.missingFrom ? null : base + hour;
	return JSON.stringify({
		latitude: 46.1,
		longitude: 14.5,
		generationtime_ms: 0.31,
		utc_offset_seconds: 0,
		timezone: 'GMT',
		timezone_abbreviation: 'GMT',
		elevation: 295,
		hourly_units: { time: 'iso8601', temperature_2m: '°C', wind_speed_10m: 'm/s' },
		hourly: {
			time: hours.map((hour) => `${day}T${String(hour).padStart(2, '0')}:00`),
			temperature_2m: hours.map((hour) => value(hour, 0.5)),
			relative_humidity_2m: hours.map((hour) => value(hour, 50)),
			apparent_temperature: hours.map((hour) => value(hour, -1.5)),
			precipitation: hours.map((hour) => (hour === 8 ? 0.4 : 0)),
			weather_code: hours.map((hour) => (hour === 8 ? 61 : 3)),
			cloud_cover: hours.map((hour) => value(hour, 10)),
			wind_speed_10m: hours.map((hour) => value(hour, 1)),
			wind_direction_10m: hours.map((hour) => value(hour, 200)),
		},
	});
}

let database: TestDatabase;
let owner: Member;
let friend: Member;
let stranger: Member;

function appWith(weather: boolean) {
	const base = createTestDeps(database.db);
	const deps = {
		...base,
		config: {
			...base.config,
			weather: weather ? { provider: 'open-meteo' as const, url: archiveUrl } : null,
		},
		clock: createTestClock(new Date('2026-06-01T12:00:00Z')),
	};
	return { deps, app: createTestApi(deps, { routes: [createWorkoutsApi(), createWeatherApi()] }) };
}

let made: ReturnType<typeof appWith>;

beforeAll(async () => {
	database = await openTestDb();
	server = createServer((request: IncomingMessage, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		requests.push(url);
		const answer = answerWith(url);
		setTimeout(() => {
			response.writeHead(answer.status, { 'content-type': 'application/json' });
			response.end(answer.body);
		}, answer.delayMs ?? 0);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	archiveUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/archive`;
});
afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	await database.close();
});
beforeEach(async () => {
	await database.reset();
	requests = [];
	answerWith = (url) => ({ status: 200, body: archiveDay(url.searchParams.get('start_date') as string) });
	made = appWith(true);
	owner = await addMember(made.deps, 'owner');
	friend = await addMember(made.deps, 'friend');
	stranger = await addMember(made.deps, 'stranger');
	await befriend(made.deps, owner, friend);
});

/** A one-hour run in Ljubljana from 07:30 UTC: its middle is at 08:00. */
async function saveRun(options: { privacy?: 0 | 1 | 3; start?: string; positions?: boolean } = {}) {
	const seconds = Array.from({ length: 61 }, (_, i) => i * 60);
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token: owner.token,
		body: {
			name: 'Morning run',
			start_datetime: options.start ?? '2026-05-01T07:30:00+00:00',
			activity_type: 16,
			privacy: options.privacy ?? 0,
			aggregates: { elapsed_time_total: 3600 },
			time_series:
				options.positions === false
					? { heartrate: seconds.map((s) => [s, 140]) }
					: { position: seconds.map((s) => [s, { lat: 46.05 + s / 100_000, lng: 14.5058 }]) },
		},
	});
	expect(answer.status).toBe(201);
	return answer.json.id as number;
}

/** Moves time on; the owner signs in again, as access tokens last less than that. */
async function later(seconds: number) {
	made.deps.clock.advance(seconds);
	owner.token = await signInAs(made.deps, {
		id: owner.id,
		username: 'owner',
		displayName: 'owner',
		isPremium: false,
	});
}

const association = (id: number, token?: string) =>
	callApi(made.app, 'GET', `/api/v7.1/weather/workout_association/${id}/`, { token });

describe('with Open-Meteo configured', () => {
	test('READY with a weather link, whose second fetch gives the hour in the middle of the workout', async () => {
		const id = await saveRun();
		const first = await association(id, owner.token);
		expect(first.status).toBe(200);
		expect(first.json.status).toBe('READY');
		const href = first.json._links.weather[0].href as string;
		expect(href).toBe(`/v7.1/weather/${id}/`);

		expect(requests).toHaveLength(1);
		const asked = requests[0];
		expect(asked.pathname).toBe('/v1/archive');
		// The middle of the track, rounded to a tenth of a degree: never the exact start.
		expect(Object.fromEntries(asked.searchParams)).toMatchObject({
			latitude: '46.10',
			longitude: '14.50',
			start_date: '2026-05-01',
			end_date: '2026-05-01',
			timezone: 'GMT',
			wind_speed_unit: 'ms',
		});
		expect(asked.searchParams.get('hourly')).toContain('temperature_2m');

		const weather = await callApi(made.app, 'GET', `/api${href}`, { token: owner.token });
		expect(weather.status).toBe(200);
		expect(weather.json).toMatchObject({
			observed_datetime: '2026-05-01T08:00:00+00:00',
			temperature: 8.5,
			apparent_temperature: 6.5,
			relative_humidity: 58,
			precipitation: 0.4,
			cloud_cover: 18,
			wind_speed: 9,
			wind_direction: 208,
			weather_code: 61,
			description: 'Light rain',
			attribution: { text: 'Weather data by Open-Meteo.com', href: 'https://open-meteo.com/' },
		});

		// Asked once: the answer is kept.
		expect((await association(id, owner.token)).json.status).toBe('READY');
		expect(requests).toHaveLength(1);
	});

	test('only those who may see the workout see its weather', async () => {
		const privateRun = await saveRun({ privacy: 0 });
		const friendsRun = await saveRun({ privacy: 1, start: '2026-05-02T07:30:00+00:00' });
		const publicRun = await saveRun({ privacy: 3, start: '2026-05-03T07:30:00+00:00' });
		for (const token of [stranger.token, friend.token, undefined]) {
			expect((await association(privateRun, token)).status).toBe(404);
			expect((await callApi(made.app, 'GET', `/api/v7.1/weather/${privateRun}/`, { token })).status).toBe(
				404,
			);
		}
		expect((await association(friendsRun, friend.token)).json.status).toBe('READY');
		expect((await association(friendsRun, stranger.token)).status).toBe(404);
		expect((await association(publicRun)).json.status).toBe('READY');
		expect((await callApi(made.app, 'GET', `/api/v7.1/weather/${publicRun}/`)).json.temperature).toBe(8.5);
		// Nobody asked for the private run: the provider never heard of it.
		expect(requests.map((url) => url.searchParams.get('start_date'))).toEqual(['2026-05-02', '2026-05-03']);
		expect((await association(privateRun, owner.token)).json.status).toBe('READY');
	});

	test('a provider that fails or is slow leaves it pending, never a made-up answer, and it asks again later', async () => {
		const id = await saveRun();
		answerWith = () => ({ status: 503, body: 'Service Unavailable' });
		const failed = await association(id, owner.token);
		expect(failed.status).toBe(200);
		expect(failed.json).toEqual({
			status: 'pending',
			_links: {
				self: [{ href: `/v7.1/weather/workout_association/${id}/`, id: String(id) }],
				workout: [{ href: `/v7.1/workout/${id}/`, id: String(id) }],
			},
		});
		expect((await callApi(made.app, 'GET', `/api/v7.1/weather/${id}/`, { token: owner.token })).status).toBe(
			404,
		);
		answerWith = (url) => ({ status: 200, body: archiveDay(url.searchParams.get('start_date') as string) });
		expect((await association(id, owner.token)).json.status).toBe('pending');
		expect(requests).toHaveLength(1);
		await later(3601);
		expect((await association(id, owner.token)).json.status).toBe('READY');
		expect(requests).toHaveLength(2);

		const slow = await saveRun({ start: '2026-05-04T07:30:00+00:00' });
		answerWith = (url) => ({
			status: 200,
			body: archiveDay(url.searchParams.get('start_date') as string),
			delayMs: 2500,
		});
		expect((await association(slow, owner.token)).json.status).toBe('pending');
		await new Promise((resolve) => setTimeout(resolve, 800));
		expect((await association(slow, owner.token)).json.status).toBe('READY');
	});

	test('answers not in the API shape, refusals and missing hours give no weather', async () => {
		const garbage = await saveRun();
		answerWith = () => ({ status: 200, body: '{"hourly": {"time": "nope"}}' });
		expect((await association(garbage, owner.token)).json.status).toBe('pending');

		const refused = await saveRun({ start: '2026-05-05T07:30:00+00:00' });
		answerWith = () => ({
			status: 400,
			body: '{"error":true,"reason":"Parameter \'start_date\' is out of allowed range"}',
		});
		expect((await association(refused, owner.token)).json.status).toBe('pending');
		await later(86_400);
		expect((await association(refused, owner.token)).json.status).toBe('pending');
		// A refusal is final: asked once.
		expect(requests.filter((url) => url.searchParams.get('start_date') === '2026-05-05')).toHaveLength(1);

		const gap = await saveRun({ start: '2026-05-06T07:30:00+00:00' });
		answerWith = (url) => ({
			status: 200,
			body: archiveDay(url.searchParams.get('start_date') as string, { missingFrom: 6 }),
		});
		expect((await association(gap, owner.token)).json.status).toBe('pending');
		expect((await callApi(made.app, 'GET', `/api/v7.1/weather/${gap}/`, { token: owner.token })).status).toBe(
			404,
		);
	});

	test('a workout without positions is never sent to the provider; an edit that moves the workout asks again', async () => {
		const indoor = await saveRun({ positions: false });
		expect((await association(indoor, owner.token)).json.status).toBe('pending');
		expect(requests).toHaveLength(0);

		const id = await saveRun({ start: '2026-05-07T07:30:00+00:00' });
		expect((await association(id, owner.token)).json.status).toBe('READY');
		const moved = await callApi(made.app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: owner.token,
			body: { start_datetime: '2026-05-08T10:30:00+00:00' },
		});
		expect(moved.status).toBe(200);
		expect((await association(id, owner.token)).json.status).toBe('READY');
		expect(requests.map((url) => url.searchParams.get('start_date'))).toEqual(['2026-05-07', '2026-05-08']);
		const weather = await callApi(made.app, 'GET', `/api/v7.1/weather/${id}/`, { token: owner.token });
		expect(weather.json.observed_datetime).toBe('2026-05-08T11:00:00+00:00');
		expect(weather.json.temperature).toBe(11.5);
	});

	test('both operations are in the OpenAPI document, so the fuzz test calls them', async () => {
		const spec = (await callApi(made.app, 'GET', '/api/openapi.json')).json;
		const operations = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(
			([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`),
		);
		expect(operations).toContain('get /api/v7.1/weather/workout_association/{id}/');
		expect(operations).toContain('get /api/v7.1/weather/{id}/');
	});

	test('hostile ids get a 4xx', async () => {
		for (const id of ['%00', 'abc', '1%27%20or%201%3D1', '99999999999'])
			for (const path of [`/api/v7.1/weather/workout_association/${id}/`, `/api/v7.1/weather/${id}/`]) {
				const answer = await callApi(made.app, 'GET', path, { token: owner.token });
				expect(answer.status).toBeGreaterThanOrEqual(400);
				expect(answer.status).toBeLessThan(500);
			}
	});
});

describe('without a weather provider', () => {
	test('a workout shows no weather and nothing is asked', async () => {
		made = appWith(false);
		const id = await saveRun({ privacy: 3 });
		const answer = await association(id, owner.token);
		expect(answer.status).toBe(200);
		expect(answer.json.status).toBe('pending');
		expect(answer.json._links.weather).toBeUndefined();
		expect((await callApi(made.app, 'GET', `/api/v7.1/weather/${id}/`)).status).toBe(404);
		expect(requests).toHaveLength(0);
	});
});

describe('the Open-Meteo adapter', () => {
	test('a recent hour the archive has not published yet may come later; an old one will not', async () => {
		answerWith = (url) => ({
			status: 200,
			body: archiveDay(url.searchParams.get('start_date') as string, { missingFrom: 0 }),
		});
		const hour = new Date('2026-05-01T08:00:00Z');
		const soon = openMeteoProvider(archiveUrl, { now: () => new Date('2026-05-03T00:00:00Z') });
		expect((await soon.observe({ lat: 46.1, lng: 14.5 }, hour, AbortSignal.timeout(5000))).kind).toBe(
			'later',
		);
		const long = openMeteoProvider(archiveUrl, { now: () => new Date('2026-06-03T00:00:00Z') });
		expect((await long.observe({ lat: 46.1, lng: 14.5 }, hour, AbortSignal.timeout(5000))).kind).toBe('none');
	});

	test('an unreachable provider or an oversized answer is "later", not an error', async () => {
		const closed = openMeteoProvider('http://127.0.0.1:9/v1/archive');
		const hour = new Date('2026-05-01T08:00:00Z');
		expect((await closed.observe({ lat: 1, lng: 1 }, hour, AbortSignal.timeout(5000))).kind).toBe('later');
		answerWith = () => ({
			status: 200,
			body: `{"hourly":{"time":[],"temperature_2m":[${'1,'.repeat(300_000)}1]}}`,
		});
		const provider = openMeteoProvider(archiveUrl);
		expect((await provider.observe({ lat: 1, lng: 1 }, hour, AbortSignal.timeout(5000))).kind).toBe('later');
	});
});
