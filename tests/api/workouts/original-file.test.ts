import { readFileSync } from 'node:fs';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, type Member, runPayload } from './helpers';

let database: TestDatabase;
let app: ReturnType<typeof createTestApi>;
let owner: Member;
let friend: Member;
let stranger: Member;

beforeAll(async () => {
	database = await openTestDb();
	const deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [createWorkoutsApi(), createWorkoutDetailApi()] });
	owner = await addMember(deps, 'owner');
	friend = await addMember(deps, 'friend');
	stranger = await addMember(deps, 'stranger');
	await befriend(deps, owner, friend);
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

async function upload(bytes: Uint8Array, fileName: string, query = '') {
	const form = new FormData();
	form.append('file', new Blob([new Uint8Array(bytes)]), fileName);
	const response = await app.request(`/api/v7.1/device/file_import/${query}`, {
		method: 'POST',
		headers: { authorization: `Bearer ${owner.token}` },
		body: form,
	});
	return { status: response.status, json: await response.json() };
}

async function download(id: number, format: string, token?: string) {
	const response = await app.request(`/api/v7.1/workout/${id}/export/?format=${format}`, {
		headers: token ? { authorization: `Bearer ${token}` } : {},
	});
	return {
		status: response.status,
		headers: response.headers,
		bytes: new Uint8Array(await response.arrayBuffer()),
	};
}

test('the owner downloads the uploaded file byte for byte; nobody else gets it', async () => {
	const original = gzipSync(readFileSync('tests/fixtures/workouts/tcx/walking_activity_1.tcx'));
	const stored = await upload(original, 'Evening walk (Maribor).tcx.gz', '?privacy=1');
	expect(stored.status).toBe(201);
	const id = stored.json.id as number;

	const mine = await download(id, 'original', owner.token);
	expect(mine.status).toBe(200);
	expect(Buffer.from(mine.bytes).equals(original)).toBe(true);
	expect(mine.headers.get('content-type')).toBe('application/octet-stream');
	// Named as uploaded, in ASCII and in the member's own words (RFC 6266), with the extension of what it is.
	expect(mine.headers.get('content-disposition')).toBe(
		`attachment; filename="Evening-walk-Maribor-.tcx.gz"; filename*=UTF-8''Evening%20walk%20%28Maribor%29.tcx.gz`,
	);

	// The friend may see the workout and download its trimmed GPX, never the whole original.
	expect((await download(id, 'gpx', friend.token)).status).toBe(200);
	expect((await download(id, 'original', friend.token)).status).toBe(404);
	expect((await download(id, 'original', stranger.token)).status).toBe(404);
	expect((await download(id, 'original')).status).toBe(404);

	// Sent again it is the same workout: one workout, one original.
	expect((await upload(original, 'again.tcx.gz')).status).toBe(409);
	expect(Buffer.from((await download(id, 'original', owner.token)).bytes).equals(original)).toBe(true);
});

test('a hostile file name is kept cleaned, and a logged workout has no original', async () => {
	const gpx = readFileSync('tests/fixtures/workouts/gpx/cerknicko-jezero-with-elevations-zero.gpx');
	const stored = await upload(gpx, 'lake\u0000\u0007\ud800.gpx');
	expect(stored.status).toBe(201);
	const file = await download(stored.json.id, 'original', owner.token);
	expect(file.status).toBe(200);
	expect(file.headers.get('content-disposition')).toBe(
		`attachment; filename="lake.gpx"; filename*=UTF-8''lake.gpx`,
	);

	// A name's own extension never decides how the file opens: a GPX called notes.html downloads as .gpx.
	const disguised = await upload(
		readFileSync('tests/fixtures/workouts/gpx/Mojstrovka.gpx'),
		'Žiga’s notes.html',
	);
	expect(disguised.status).toBe(201);
	const named = await download(disguised.json.id, 'original', owner.token);
	expect(named.headers.get('content-disposition')).toBe(
		`attachment; filename="Ziga-s-notes.gpx"; filename*=UTF-8''%C5%BDiga%E2%80%99s%20notes.gpx`,
	);

	const logged = await callApi(app, 'POST', '/api/v7.1/workout/', {
		token: owner.token,
		body: runPayload('By hand'),
	});
	expect((await download(logged.json.id, 'original', owner.token)).status).toBe(404);
	expect((await download(logged.json.id, 'zip', owner.token)).status).toBe(400);
});
