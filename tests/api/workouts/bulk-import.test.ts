import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { readConfig } from '../../../src/lib/core/config';
import { runDueJobs } from '../../../src/lib/jobs/server/service';
import { jobs } from '../../../src/lib/jobs/server/tables';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { importFolder } from '../../../src/lib/workouts/server/bulk-import';
import { workoutJobs } from '../../../src/lib/workouts/server/jobs';
import { workoutBulkImports } from '../../../src/lib/workouts/server/tables';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { makeBombs } from '../../helpers/bombs';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { fillDisk } from '../../helpers/disk-full';
import { makeZip, renameEntry } from '../../helpers/zips';
import { addMember, type Member } from './helpers';

let database: TestDatabase;
let made: { deps: ReturnType<typeof createTestDeps>; app: ReturnType<typeof createTestApi> };
let alice: Member;
let bob: Member;
// Its own data folder, so the archives counted are this file's alone.
const dataDir = mkdtempSync(path.join(tmpdir(), 'bulk-import-'));

beforeAll(async () => {
	database = await openTestDb();
	const config = readConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:4321', DATA_DIR: dataDir });
	const deps = createTestDeps(database.db, { config });
	made = { deps, app: createTestApi(deps, { routes: [createWorkoutsApi()] }) };
});
beforeEach(async () => {
	await database.reset();
	alice = await addMember(made.deps, 'alice');
	bob = await addMember(made.deps, 'bob');
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
	rmSync(dataDir, { recursive: true, force: true });
});

const fixture = (path: string) => new Uint8Array(readFileSync(`tests/fixtures/workouts/${path}`));

async function upload(bytes: Uint8Array, token = alice.token) {
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(bytes)]), 'export.zip');
	const response = await made.app.request('/api/v7.1/device/bulk_import/', {
		method: 'POST',
		headers: { authorization: `Bearer ${token}` },
		body: form,
	});
	const text = await response.text();
	return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

async function progress(id: number, token = alice.token) {
	return callApi(made.app, 'GET', `/api/v7.1/device/bulk_import/${id}/`, { token });
}

async function workoutCount(member = alice): Promise<number> {
	const list = await callApi(made.app, 'GET', `/api/v7.1/workout/?user=${member.id}`, {
		token: member.token,
	});
	return list.json.total_count;
}

/** Archives of this member still waiting on the disk. */
function waitingArchives(member = alice): string[] {
	const folder = importFolder(made.deps.config);
	return existsSync(folder)
		? readdirSync(folder).filter((name) => name.startsWith(`import-${member.id}-`))
		: [];
}

/** A Strava-style export: activities (some gzipped), a CSV and a photo. */
async function stravaExport() {
	return makeZip([
		{ name: 'activities.csv', data: 'Activity ID,Activity Name\n1,Mojstrovka\n' },
		{ name: 'activities/1.gpx', data: fixture('gpx/Mojstrovka.gpx') },
		{ name: 'activities/2.fit.gz', data: gzipSync(fixture('fit/garmin-fenix-5-walk.fit')) },
		{ name: 'activities/3.tcx.gz', data: fixture('tcx/running_activity_2.tcx.gz') },
		{ name: 'media/photo.jpg', data: 'not really a photo' },
	]);
}

describe('bulk import of an export zip', () => {
	test('answers at once, imports in the background and reports each file', async () => {
		const answer = await upload(await stravaExport());
		expect(answer.status).toBe(202);
		expect(answer.headers.get('location')).toBe(`/api/v7.1/device/bulk_import/${answer.json.id}/`);
		expect(answer.json).toMatchObject({ status: 'queued', total: 3, processed: 0, imported: 0 });
		expect(await workoutCount()).toBe(0);
		expect(waitingArchives()).toHaveLength(1);

		expect(await runDueJobs(made.deps, workoutJobs)).toBe(1);
		const done = await progress(answer.json.id);
		expect(done.status).toBe(200);
		expect(done.json).toMatchObject({
			status: 'done',
			total: 3,
			processed: 3,
			imported: 3,
			skipped_duplicates: 0,
			failed: 0,
			error: null,
		});
		expect(done.json.files.map((file: { file: string }) => file.file)).toEqual([
			'1.gpx',
			'2.fit.gz',
			'3.tcx.gz',
		]);
		expect(await workoutCount()).toBe(3);
		const workout = await callApi(made.app, 'GET', `/api/v7.1/workout/${done.json.files[0].workout_id}/`, {
			token: alice.token,
		});
		expect(workout.json.aggregates.distance_total).toBeGreaterThan(2600);
		// The archive leaves the disk once read.
		expect(waitingArchives()).toHaveLength(0);
	});

	test('skips workouts the member already has, by recording or by start and activity', async () => {
		// The same walk uploaded alone first.
		const single = new FormData();
		single.append('file', new Blob([fixture('fit/garmin-fenix-5-walk.fit')]), 'walk.fit');
		const first = await made.app.request('/api/v7.1/device/file_import/', {
			method: 'POST',
			headers: { authorization: `Bearer ${alice.token}` },
			body: single,
		});
		expect(first.status).toBe(201);
		const walkId = (await first.json()).id;
		// The same GPX logged by hand with its start and activity: the same workout from another service.
		const mojstrovka = await upload(await makeZip([{ name: 'a.gpx', data: fixture('gpx/Mojstrovka.gpx') }]));
		await runDueJobs(made.deps, workoutJobs);
		const gpxWorkout = (await progress(mojstrovka.json.id)).json.files[0].workout_id;
		const gpxRead = await callApi(made.app, 'GET', `/api/v7.1/workout/${gpxWorkout}/`, {
			token: alice.token,
		});
		await callApi(made.app, 'DELETE', `/api/v7.1/workout/${gpxWorkout}/`, { token: alice.token });
		const logged = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
			token: alice.token,
			body: {
				name: 'Hike',
				start_datetime: gpxRead.json.start_datetime,
				activity_type: gpxRead.json.activity_type,
				aggregates: { distance_total: 1000 },
			},
		});
		expect(logged.status).toBe(201);
		const before = await workoutCount();

		const answer = await upload(await stravaExport());
		await runDueJobs(made.deps, workoutJobs);
		const done = (await progress(answer.json.id)).json;
		expect(done).toMatchObject({ status: 'done', imported: 1, skipped_duplicates: 2, failed: 0 });
		const byName = Object.fromEntries(done.files.map((file: { file: string }) => [file.file, file]));
		expect(byName['1.gpx']).toMatchObject({ outcome: 'duplicate', workout_id: logged.json.id });
		expect(byName['2.fit.gz']).toMatchObject({ outcome: 'duplicate', workout_id: walkId });
		expect(byName['3.tcx.gz'].outcome).toBe('imported');
		expect(await workoutCount()).toBe(before + 1);

		// The whole export again: nothing new.
		const again = await upload(await stravaExport());
		await runDueJobs(made.deps, workoutJobs);
		expect((await progress(again.json.id)).json).toMatchObject({ imported: 0, skipped_duplicates: 3 });
		expect(await workoutCount()).toBe(before + 1);
	});

	test('a file that cannot be read fails with its reason and the rest go on', async () => {
		const inner = await makeZip([{ name: 'x.gpx', data: fixture('gpx/Mojstrovka.gpx') }]);
		const { gzip: gzipBomb } = makeBombs(200 * 1024 * 1024);
		const answer = await upload(
			await makeZip([
				{ name: 'broken.gpx', data: '<gpx><trk><trkseg><trkpt lat="1"' },
				{ name: 'route.gpx', data: fixture('gpx/route.gpx') },
				{ name: 'sneaky.gpx', data: inner },
				{ name: 'bomb.gpx.gz', data: gzipBomb },
				{ name: 'good.gpx', data: fixture('gpx/Mojstrovka.gpx') },
			]),
		);
		expect(answer.status).toBe(202);
		await runDueJobs(made.deps, workoutJobs);
		const done = (await progress(answer.json.id)).json;
		expect(done).toMatchObject({ status: 'done', total: 5, processed: 5, imported: 1, failed: 4 });
		const reasons = Object.fromEntries(
			done.files.map((file: { file: string; reason?: string }) => [file.file, file.reason]),
		);
		expect(reasons['broken.gpx']).toBeTruthy();
		expect(reasons['route.gpx']).toMatch(/no timed samples/);
		expect(reasons['sneaky.gpx']).toMatch(/archive/);
		expect(reasons['bomb.gpx.gz']).toMatch(/more than 100 MB/);
		expect(reasons['good.gpx']).toBeUndefined();
	});

	test('an entry whose header lies about its size fails without inflating it', async () => {
		const { lyingZip } = makeBombs(64 * 1024 * 1024);
		const answer = await upload(lyingZip);
		expect(answer.status).toBe(202);
		await runDueJobs(made.deps, workoutJobs);
		const done = (await progress(answer.json.id)).json;
		expect(done).toMatchObject({ status: 'done', imported: 0, failed: 1 });
		expect(done.files[0].reason).toMatch(/size does not match/);
	});

	test('hostile archives are refused at once, and leave nothing on the disk', async () => {
		const many = await makeZip(
			Array.from({ length: 10_000 }, (_, index) => ({ name: `a/${index}.gpx`, data: 'x', store: true })),
		);
		const tooMany = await upload(many);
		expect(tooMany.status).toBe(413);
		expect(tooMany.json.error).toBeTruthy();

		const climbing = renameEntry(
			await makeZip([{ name: 'aa/aa/x.gpx', data: fixture('gpx/Mojstrovka.gpx') }]),
			'aa/aa/x.gpx',
			'../../x.gpx',
		);
		expect((await upload(climbing)).status).toBe(400);

		const { zip: honestBomb } = makeBombs(200 * 1024 * 1024);
		expect((await upload(honestBomb)).status).toBe(413);

		const link = await makeZip([{ name: 'a.gpx', data: '/etc/passwd', mode: 0o120777 }]);
		expect((await upload(link)).status).toBe(400);

		const nested = await makeZip([
			{ name: 'a.gpx', data: fixture('gpx/Mojstrovka.gpx') },
			{ name: 'b.zip', data: await makeZip([{ name: 'c.gpx', data: 'x' }]) },
		]);
		expect((await upload(nested)).status).toBe(400);

		expect((await upload(fixture('gpx/Mojstrovka.gpx'))).status).toBe(400);
		expect((await upload(await makeZip([{ name: 'photo.jpg', data: 'x' }]))).status).toBe(400);

		expect(waitingArchives()).toHaveLength(0);
		expect(await runDueJobs(made.deps, workoutJobs)).toBe(0);
		expect(await workoutCount()).toBe(0);
	});

	test('an archive that finds the disk full is answered 507 with Retry-After, leaving no file, row or job', async () => {
		const archive = await stravaExport();
		const disk = fillDisk(importFolder(made.deps.config), { roomLeft: Math.floor(archive.byteLength / 2) });
		try {
			const answer = await upload(archive);
			expect(answer.status).toBe(507);
			expect(answer.headers.get('retry-after')).toBe('300');
			expect(answer.json).toMatchObject({ error: 'storage_full' });
			expect(disk.refused).toBe(1);
		} finally {
			disk.restore();
		}
		expect(waitingArchives()).toEqual([]);
		expect(await made.deps.db.select().from(workoutBulkImports)).toEqual([]);
		expect(await made.deps.db.select().from(jobs)).toEqual([]);
		expect((await upload(archive)).status).toBe(202);
		expect(waitingArchives()).toHaveLength(1);
	});

	test('only the member who started an import may see it', async () => {
		const answer = await upload(await makeZip([{ name: 'a.gpx', data: fixture('gpx/Mojstrovka.gpx') }]));
		expect((await progress(answer.json.id, bob.token)).status).toBe(404);
		expect((await callApi(made.app, 'GET', `/api/v7.1/device/bulk_import/${answer.json.id}/`)).status).toBe(
			401,
		);
		const anonymous = await made.app.request('/api/v7.1/device/bulk_import/', {
			method: 'POST',
			headers: { 'content-type': 'application/octet-stream' },
			body: new Uint8Array(await makeZip([{ name: 'a.gpx', data: 'x' }])),
		});
		expect(anonymous.status).toBe(401);
		await runDueJobs(made.deps, workoutJobs);
		expect(await workoutCount(bob)).toBe(0);
	});
});
