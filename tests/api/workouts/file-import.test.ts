import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { users } from '../../../src/lib/auth/server/tables';
import { computeMetrics, readWorkoutFileSync, summariseWorkout } from '../../../src/lib/workout-files';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { exportWorkout } from '../../../src/lib/workouts/server/detail';
import { loadWorkoutPageView } from '../../../src/lib/workouts/server/page-view';
import { callApi } from '../../helpers/app';
import { makeBombs } from '../../helpers/bombs';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createWorkoutsTestApp, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createWorkoutsTestApp>;
let alice: Member;

beforeAll(async () => {
	database = await openTestDb();
	made = createWorkoutsTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(made.deps, 'alice');
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

const fixture = (path: string) => new Uint8Array(readFileSync(`tests/fixtures/workouts/${path}`));

/** The multipart upload a browser form or a client sends. */
async function upload(
	bytes: Uint8Array,
	fileName: string,
	query = '',
	token = alice.token,
	extraHeaders: Record<string, string> = {},
) {
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
	const response = await made.app.request(`/api/v7.1/device/file_import/${query}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, ...extraHeaders },
		body: form,
	});
	const text = await response.text();
	return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

async function storedCount(): Promise<number> {
	const list = await callApi(made.app, 'GET', `/api/v7.1/workout/?user=${alice.id}`, { token: alice.token });
	return list.json.total_count;
}

describe('device file import', () => {
	test('a GPX becomes a workout with its track, distance and start', async () => {
		const answer = await upload(
			fixture('gpx/Mojstrovka.gpx'),
			'Mojstrovka.gpx',
			'?name=Mojstrovka&privacy=3',
		);
		expect(answer.status).toBe(201);
		expect(answer.json).toMatchObject({
			name: 'Mojstrovka',
			privacy: 3,
			has_time_series: true,
			activity_type: 1,
		});
		expect(answer.json.source).toContain('GPX');
		expect(answer.json.aggregates.distance_total).toBeGreaterThan(2600);
		expect(answer.json.aggregates.distance_total).toBeLessThan(2800);
		const read = await callApi(
			made.app,
			'GET',
			`/api/v7.1/workout/${answer.json.id}/?field_set=time_series`,
			{
				token: alice.token,
			},
		);
		expect(read.json.time_series.position).toHaveLength(184);
		const [, first] = read.json.time_series.position[0];
		expect(first.lat).toBeCloseTo(46.4, 0);
		expect(first.lng).toBeCloseTo(13.7, 0);
	});

	test('a file in segments keeps them: its workout page counts the climb the CLI counts, not the jumps between', async () => {
		// Mojstrovka.gpx with 5 points left out every 23, as an auto-pause on the way up would: 7 breaks.
		const lines = new TextDecoder().decode(fixture('gpx/Mojstrovka.gpx')).split('\n');
		const points: string[][] = [];
		let head: string[] = [];
		for (const line of lines) {
			if (line.includes('<trkpt')) points.push([line]);
			else if (points.length > 0) points[points.length - 1].push(line);
			else head.push(line);
		}
		const tail = points[points.length - 1].splice(
			points[points.length - 1].findIndex((l) => l.includes('</trkpt>')) + 1,
		);
		head = head.filter((line) => !line.includes('<trkseg>'));
		const kept = points.flatMap((point, i) =>
			i % 23 < 18 ? (i % 23 === 0 && i > 0 ? ['</trkseg><trkseg>', ...point] : point) : [],
		);
		const text = [...head, '<trkseg>', ...kept, ...tail].join('\n');
		const bytes = new TextEncoder().encode(text);
		const file = readWorkoutFileSync(bytes);
		expect(file.segmentStarts.length).toBeGreaterThanOrEqual(7);
		const cli = summariseWorkout(file);
		// Read as one piece, the jumps across the breaks would count as climb.
		const joined = computeMetrics({ ...file, segmentStarts: [0] });
		expect(joined.elevationGainM - cli.elevation_gain_m).toBeGreaterThan(10);

		const answer = await upload(bytes, 'cut.gpx');
		expect(answer.status).toBe(201);
		const viewer = { id: alice.id, username: alice.username, displayName: alice.username, isPremium: false };
		const page = await loadWorkoutPageView(made.deps, viewer, answer.json.id, 'km');
		expect(page?.view.elevationGainM).toBeCloseTo(cli.elevation_gain_m, 0);
		// A download keeps the breaks too.
		const exported = await exportWorkout(made.deps, viewer, answer.json.id, 'gpx');
		const back = readWorkoutFileSync(new TextEncoder().encode(exported.body as string));
		expect(back.segmentStarts).toEqual(file.segmentStarts);
	});

	test('a gzipped TCX run keeps its samples, laps and totals', async () => {
		const answer = await upload(fixture('tcx/running_activity_2.tcx.gz'), 'run.tcx.gz');
		expect(answer.status).toBe(201);
		expect(answer.json).toMatchObject({
			activity_type: 16,
			start_datetime: '2016-07-29T15:00:26+00:00',
			privacy: 0,
		});
		expect(answer.json.aggregates.distance_total).toBeGreaterThan(19_000);
		expect(answer.json.aggregates.elapsed_time_total).toBe(5280);
		const read = await callApi(
			made.app,
			'GET',
			`/api/v7.1/workout/${answer.json.id}/?field_set=time_series`,
			{
				token: alice.token,
			},
		);
		expect(read.json.laps).toHaveLength(11);
		expect(read.json.time_series.position.length).toBeGreaterThan(1000);
	});

	test('a file is kept on the clock of the place it was recorded, unless the member names a zone', async () => {
		const zoneOf = async (path: string, query = '') =>
			(await upload(fixture(path), path.split('/')[1], query)).json.start_locale_timezone;
		expect(await zoneOf('tcx/running_activity_2.tcx.gz')).toBe('Europe/Zagreb');
		expect(await zoneOf('fit/garmin-fenix-5-walk.fit')).toBe('America/Los_Angeles');
		// Without a position the member's own zone stands.
		await made.deps.db.update(users).set({ timeZone: 'Asia/Tokyo' }).where(eq(users.id, alice.id));
		expect(await zoneOf('fit/sample-activity-indoor-trainer.fit')).toBe('Asia/Tokyo');
		expect(await zoneOf('gpx/Mojstrovka.gpx', '?time_zone=America/Denver')).toBe('America/Denver');
	});

	test('a pool swim without positions is kept on the clock its FIT file states, and a client can echo it', async () => {
		// event_timestamp.fit: its activity says 14:58:39 UTC and 10:58:39 local, so UTC−4.
		await made.deps.db.update(users).set({ timeZone: 'Asia/Tokyo' }).where(eq(users.id, alice.id));
		const swim = await upload(fixture('fit/event_timestamp.fit'), 'swim.fit');
		expect(swim.status).toBe(201);
		expect(swim.json.start_locale_timezone).toBe('Etc/GMT+4');
		// A FIT whose clock was never set (its local time is 21 years off) says nothing of a zone.
		const unset = await upload(fixture('fit/compressed-speed-distance.fit'), 'unset.fit');
		expect(unset.json.start_locale_timezone).toBe('Asia/Tokyo');
		// MapMyFitness clients send back what they read.
		const echoed = await callApi(made.app, 'PUT', `/api/v7.1/workout/${swim.json.id}/`, {
			token: alice.token,
			body: {
				name: 'Pool',
				start_locale_timezone: swim.json.start_locale_timezone,
				version: swim.json.version,
			},
		});
		expect(echoed.status).toBe(200);
		expect(echoed.json.start_locale_timezone).toBe('Etc/GMT+4');
	});

	test('a FIT ride keeps heart rate, the file name and the ride type', async () => {
		const answer = await upload(
			fixture('fit/garmin-fenix-5-bike.fit'),
			'ride.fit',
			'?time_zone=Europe/Berlin',
		);
		expect(answer.status).toBe(201);
		expect(answer.json).toMatchObject({
			name: 'Bike',
			activity_type: 11,
			start_datetime: '2017-06-12T16:09:22+00:00',
			start_locale_timezone: 'Europe/Berlin',
			aggregates: { heartrate_min: 77, heartrate_max: 114 },
		});
		expect(answer.json.aggregates.metabolic_energy_total).toBeGreaterThan(0);
		const read = await callApi(
			made.app,
			'GET',
			`/api/v7.1/workout/${answer.json.id}/?field_set=time_series`,
			{
				token: alice.token,
			},
		);
		expect(read.json.time_series.heartrate).toHaveLength(19);
	});

	test('the same file twice, or the same recording gzipped, answers 409 with the existing workout and stores nothing more', async () => {
		const gpx = fixture('gpx/Mojstrovka.gpx');
		const first = await upload(gpx, 'a.gpx');
		expect(first.status).toBe(201);
		for (const [bytes, name] of [
			[gpx, 'a.gpx'],
			[new Uint8Array(gzipSync(gpx)), 'a.gpx.gz'],
		] as const) {
			const again = await upload(bytes, name);
			expect(again.status).toBe(409);
			expect(again.json.error).toBe('duplicate_workout');
			expect(again.json._links.existing[0]).toEqual({
				href: `/v7.1/workout/${first.json.id}/`,
				id: String(first.json.id),
			});
			expect(again.headers.get('location')).toBe(`/api/v7.1/workout/${first.json.id}/`);
		}
		expect(await storedCount()).toBe(1);
		// Another member may import the same file: duplicates are per owner.
		const bob = await addMember(made.deps, 'bob');
		expect((await upload(gpx, 'a.gpx', '', bob.token)).status).toBe(201);
	});

	test('the same file sent twice at once is stored once: one 201 and one 409', async () => {
		const fit = fixture('fit/garmin-edge-820-bike.fit');
		const answers = await Promise.all([upload(fit, 'a.fit'), upload(fit, 'b.fit')]);
		expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409]);
		expect(await storedCount()).toBe(1);
	});

	test('a retry with the same Idempotency-Key gets the first answer again; a reused key is refused', async () => {
		const fit = fixture('fit/garmin-edge-820-bike.fit');
		const key = { 'idempotency-key': 'upload-7f3a9c2e' };
		const first = await upload(fit, 'ride.fit', '?name=Ride', alice.token, key);
		expect(first.status).toBe(201);
		// The answer was lost on the way (a gateway error): the client sends the same request again.
		const retried = await upload(fit, 'ride.fit', '?name=Ride', alice.token, key);
		expect(retried.status).toBe(201);
		expect(retried.headers.get('idempotent-replayed')).toBe('true');
		expect(retried.json).toEqual(first.json);
		// Two at once with one key: both answer the one workout.
		const tcx = fixture('tcx/cross-country-skiing_activity_1.tcx');
		const pair = { 'idempotency-key': 'upload-pair-0001' };
		const both = await Promise.all([
			upload(tcx, 'ski.tcx', '', alice.token, pair),
			upload(tcx, 'ski.tcx', '', alice.token, pair),
		]);
		expect(both.map((answer) => answer.status)).toEqual([201, 201]);
		expect(both[0].json.id).toBe(both[1].json.id);
		expect(await storedCount()).toBe(2);

		// The same key with another file, or other choices, is a client's mistake, not a retry.
		const other = await upload(fixture('gpx/Mojstrovka.gpx'), 'hike.gpx', '', alice.token, key);
		expect(other.status).toBe(422);
		expect(other.json.error).toBe('idempotency_key_reused');
		expect((await upload(fit, 'ride.fit', '?name=Other', alice.token, key)).status).toBe(422);
		// Without a key, the same file again is the duplicate it always was.
		expect((await upload(fit, 'ride.fit')).status).toBe(409);
		// Keys are per member.
		const bob = await addMember(made.deps, 'bob');
		expect((await upload(fit, 'ride.fit', '?name=Ride', bob.token, key)).status).toBe(201);
		expect(await storedCount()).toBe(2);
		expect((await upload(fit, 'ride.fit', '', alice.token, { 'idempotency-key': 'short' })).status).toBe(400);
	});

	test('the raw bytes as application/octet-stream import too', async () => {
		const response = await made.app.request('/api/v7.1/device/file_import/?name=Raw', {
			method: 'POST',
			headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream' },
			body: fixture('fit/garmin-edge-820-bike.fit'),
		});
		expect(response.status).toBe(201);
		expect((await response.json()).name).toBe('Raw');
	});

	test('a body over the upload limit is refused before it is read, naming the limit', async () => {
		const response = await made.app.request('/api/v7.1/device/file_import/', {
			method: 'POST',
			headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'application/octet-stream' },
			body: new Uint8Array(33 * 1024 * 1024),
		});
		expect(response.status).toBe(413);
		expect(await response.json()).toMatchObject({
			error: 'file_too_large',
			message: 'The file is larger than 32 MB, more than we accept.',
		});
		expect(await storedCount()).toBe(0);
	});

	test('hostile and broken files get a 4xx naming the problem, and nothing is stored', async () => {
		const gpx = fixture('gpx/Mojstrovka.gpx');
		const fit = fixture('fit/garmin-fenix-5-bike.fit');
		const bombs = makeBombs(200 * 1024 * 1024);
		const cases: { bytes: Uint8Array; name: string; status: number; error: string }[] = [
			{ bytes: gpx.subarray(0, gpx.length / 2), name: 'truncated.gpx', status: 422, error: 'file_' },
			{ bytes: fit.subarray(0, fit[0] + 20), name: 'truncated.fit', status: 422, error: 'file_truncated' },
			{
				bytes: new TextEncoder().encode('%PDF-1.7 not a workout at all'),
				name: 'ride.gpx',
				status: 422,
				error: 'file_unsupported_format',
			},
			{
				bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
				name: 'run.fit',
				status: 422,
				error: 'file_unsupported_format',
			},
			{ bytes: bombs.gzip, name: 'bomb.gpx.gz', status: 413, error: 'file_too_large' },
			{ bytes: bombs.lyingZip, name: 'bomb.zip', status: 413, error: 'file_too_large' },
			{ bytes: fixture('gpx/route.gpx'), name: 'route.gpx', status: 422, error: 'file_no_workout' },
			{ bytes: new Uint8Array(0), name: 'empty.gpx', status: 422, error: 'file_unsupported_format' },
			{
				bytes: new TextEncoder().encode(
					'<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x SYSTEM "file:///etc/passwd">]><gpx><trk><trkseg><trkpt lat="1" lon="1"><time>2026-01-01T00:00:00Z</time><name>&x;</name></trkpt></trkseg></trk></gpx>',
				),
				name: 'entity.gpx',
				status: 422,
				error: 'file_',
			},
		];
		for (const item of cases) {
			const answer = await upload(item.bytes, item.name);
			expect(answer.status, item.name).toBe(item.status);
			expect(answer.json.error, item.name).toContain(item.error);
			expect(answer.json.message.length, item.name).toBeGreaterThan(10);
		}
		expect(await storedCount()).toBe(0);
	}, 120_000);

	test('the upload needs a signed-in member and a file', async () => {
		const form = new FormData();
		form.append('file', new Blob([fixture('gpx/Mojstrovka.gpx')]), 'a.gpx');
		const anonymous = await made.app.request('/api/v7.1/device/file_import/', { method: 'POST', body: form });
		expect(anonymous.status).toBe(401);
		const noFile = new FormData();
		noFile.append('other', 'x');
		const missing = await made.app.request('/api/v7.1/device/file_import/', {
			method: 'POST',
			headers: { authorization: `Bearer ${alice.token}` },
			body: noFile,
		});
		expect(missing.status).toBe(400);
		const text = await made.app.request('/api/v7.1/device/file_import/', {
			method: 'POST',
			headers: { authorization: `Bearer ${alice.token}`, 'content-type': 'text/plain' },
			body: 'hello',
		});
		expect(text.status).toBe(415);
		expect(await storedCount()).toBe(0);
	});
});
