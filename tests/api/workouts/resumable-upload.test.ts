import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { WORKOUT_FILE_BODY_LIMIT } from '../../../src/lib/api/body';
import { readConfig } from '../../../src/lib/core/config';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import {
	finishUpload,
	resumableUploadFolder,
	sweepWorkoutUploads,
	UPLOAD_EXPIRY_MS,
} from '../../../src/lib/workouts/server/resumable-uploads';
import { workouts, workoutUploads } from '../../../src/lib/workouts/server/tables';
import { createWorkoutUploadsApi } from '../../../src/lib/workouts/server/upload-api';
import { callApi, createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { fillDisk } from '../../helpers/disk-full';
import { addMember, type Member } from './helpers';

let database: TestDatabase;
let dataDir: string;
let clock: ReturnType<typeof createTestClock>;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let alice: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
	dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-uploads-'));
	clock = createTestClock();
	deps = createTestDeps(database.db, {
		clock,
		config: readConfig({ NODE_ENV: 'test', PUBLIC_URL: 'http://localhost:4321', DATA_DIR: dataDir }),
	});
	app = createTestApi(deps, {
		routes: [createWorkoutsApi(), createWorkoutDetailApi(), createWorkoutUploadsApi()],
	});
});
beforeEach(async () => {
	await database.reset();
	// Files of an earlier test's uploads, whose rows the reset removed.
	rmSync(resumableUploadFolder(deps.config), { recursive: true, force: true });
	alice = await addMember(deps, 'alice');
	bob = await addMember(deps, 'bob');
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
	rmSync(dataDir, { recursive: true, force: true });
});

/** The files in the upload folder (none when no upload made it). */
const filesOnDisk = () => {
	const folder = resumableUploadFolder(deps.config);
	return existsSync(folder) ? readdirSync(folder) : [];
};
const fixture = (name: string) => new Uint8Array(readFileSync(`tests/fixtures/workouts/${name}`));
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
const metadata = (fields: Record<string, string>) =>
	Object.entries(fields)
		.map(([key, value]) => `${key} ${Buffer.from(value).toString('base64')}`)
		.join(',');

/** One tus request as a client sends it. */
async function tus(
	method: string,
	url: string,
	options: { token?: string; headers?: Record<string, string>; body?: Uint8Array } = {},
) {
	const response = await app.request(url, {
		method,
		headers: {
			'tus-resumable': '1.0.0',
			...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
			...(options.body ? { 'content-type': 'application/offset+octet-stream' } : {}),
			...options.headers,
		},
		body: options.body ? new Uint8Array(options.body) : undefined,
	});
	const text = await response.text();
	return { status: response.status, headers: response.headers, text, json: text ? safeJson(text) : null };
}
function safeJson(text: string) {
	try {
		return JSON.parse(text);
	} catch {
		return null;
	}
}

async function create(size: number, fields: Record<string, string>, token = alice.token) {
	const created = await tus('POST', '/api/workout_uploads/', {
		token,
		headers: { 'upload-length': String(size), 'upload-metadata': metadata(fields) },
	});
	return { ...created, url: created.headers.get('location') ?? '' };
}

const patch = (url: string, offset: number, body: Uint8Array, token = alice.token) =>
	tus('PATCH', url, { token, headers: { 'upload-offset': String(offset) }, body });

async function storedWorkouts(member = alice): Promise<number> {
	const list = await callApi(app, 'GET', `/api/v7.1/workout/?user=${member.id}`, { token: member.token });
	return list.json.total_count;
}

async function storedNotes(workoutId: number): Promise<string[][]> {
	const rows = await database.db
		.select({ fileNotes: workouts.fileNotes })
		.from(workouts)
		.where(eq(workouts.id, workoutId));
	return rows.map((row) => row.fileNotes);
}

describe('resumable workout uploads (tus 1.0)', () => {
	test('a FIT sent in three PATCHes becomes one workout, whose kept file is the one sent', async () => {
		const file = fixture('fit/Edge810-Vector-2013-08-16-15-35-10.fit');
		const created = await create(file.length, { filename: 'Edge810.fit', name: 'Vector ride', privacy: '3' });
		expect(created.status).toBe(201);
		expect(created.url).toMatch(/^\/api\/workout_uploads\/[0-9a-f]{32}$/);
		expect(created.headers.get('upload-expires')).toBeTruthy();

		const thirds = [0, 50_000, 100_000, file.length];
		for (let part = 0; part < 3; part++) {
			const sent = await patch(created.url, thirds[part], file.slice(thirds[part], thirds[part + 1]));
			expect(sent.status, sent.text).toBe(204);
			expect(sent.headers.get('upload-offset')).toBe(String(thirds[part + 1]));
		}
		const outcome = await callApi(app, 'GET', created.url, { token: alice.token });
		expect(outcome.status).toBe(200);
		expect(outcome.json).toMatchObject({ status: 'imported', size: file.length, offset: file.length });
		expect(outcome.json.workout.name).toBe('Vector ride');
		expect(await storedWorkouts()).toBe(1);
		const workout = await callApi(app, 'GET', `/api/v7.1/workout/${outcome.json.workout.id}/`, {
			token: alice.token,
		});
		expect(workout.json.privacy).toBe(3);
		const original = await app.request(
			`/api/v7.1/workout/${outcome.json.workout.id}/export/?format=original`,
			{
				headers: { authorization: `Bearer ${alice.token}` },
			},
		);
		expect(sha256(new Uint8Array(await original.arrayBuffer()))).toBe(sha256(file));
		// The upload's own copy has left the disk; HEAD still says every byte arrived.
		expect(filesOnDisk()).toEqual([]);
		const head = await tus('HEAD', created.url, { token: alice.token });
		expect(head.status).toBe(200);
		expect(head.headers.get('upload-offset')).toBe(String(file.length));
	});

	test('after a drop the client asks HEAD for the offset and goes on from there; a wrong offset is 409', async () => {
		const file = fixture('gpx/Mojstrovka.gpx');
		const created = await create(file.length, { filename: 'Mojstrovka.gpx' });
		await patch(created.url, 0, file.slice(0, 10_000));
		const head = await tus('HEAD', created.url, { token: alice.token });
		expect(head.status).toBe(200);
		expect(head.headers.get('upload-offset')).toBe('10000');
		expect(head.headers.get('upload-length')).toBe(String(file.length));
		expect(head.headers.get('cache-control')).toBe('no-store');

		const wrong = await patch(created.url, 5_000, file.slice(5_000));
		expect(wrong.status).toBe(409);
		expect(wrong.json).toMatchObject({ error: 'upload_offset_conflict' });
		const pending = await callApi(app, 'GET', created.url, { token: alice.token });
		expect(pending.json).toMatchObject({ status: 'receiving', offset: 10_000 });
		expect(await storedWorkouts()).toBe(0);

		expect((await patch(created.url, 10_000, file.slice(10_000))).status).toBe(204);
		expect((await callApi(app, 'GET', created.url, { token: alice.token })).json.status).toBe('imported');
		expect(await storedWorkouts()).toBe(1);
		// A late PATCH of an upload already imported changes nothing.
		const late = await patch(created.url, file.length, new Uint8Array());
		expect(late.status).toBe(409);
		expect(late.headers.get('upload-offset')).toBe(String(file.length));
		expect(await storedWorkouts()).toBe(1);
	});

	test('a PATCH on a full disk is 507 with Retry-After; the bytes that fitted stay, and the upload resumes', async () => {
		const file = fixture('gpx/Mojstrovka.gpx');
		const created = await create(file.length, { filename: 'Mojstrovka.gpx' });
		const disk = fillDisk(resumableUploadFolder(deps.config), { roomLeft: 4_000 });
		try {
			const refused = await patch(created.url, 0, file.slice(0, 10_000));
			expect(refused.status, refused.text).toBe(507);
			expect(refused.headers.get('retry-after')).toBe('300');
			expect(refused.json).toMatchObject({ error: 'storage_full' });
			expect(disk.refused).toBeGreaterThan(0);
		} finally {
			disk.restore();
		}
		const head = await tus('HEAD', created.url, { token: alice.token });
		const offset = Number(head.headers.get('upload-offset'));
		expect(offset).toBeLessThanOrEqual(4_000);
		expect((await patch(created.url, offset, file.slice(offset))).status).toBe(204);
		expect((await callApi(app, 'GET', created.url, { token: alice.token })).json.status).toBe('imported');
		expect(await storedWorkouts()).toBe(1);
	});

	test('an upload begun on a full disk is 507 with Retry-After, and leaves no file and no row behind', async () => {
		const before = filesOnDisk();
		const disk = fillDisk(resumableUploadFolder(deps.config));
		try {
			const refused = await create(12_000, { filename: 'run.gpx' });
			expect(refused.status, refused.text).toBe(507);
			expect(refused.headers.get('retry-after')).toBe('300');
		} finally {
			disk.restore();
		}
		expect(filesOnDisk()).toEqual(before);
		expect(await deps.db.select().from(workoutUploads)).toEqual([]);
	});

	test('a file whose clock was never set is kept with its track, dated by the file, and the result says so', async () => {
		// Mojstrovka.gpx: every point says 1901-12-13T20:45:52Z; the file says it was written 2010-12-14T06:17:04Z.
		const file = fixture('gpx/Mojstrovka.gpx');
		const created = await create(file.length, { filename: 'Mojstrovka.gpx' });
		expect((await patch(created.url, 0, file)).status).toBe(204);
		const view = await callApi(app, 'GET', created.url, { token: alice.token });
		expect(view.json.status).toBe('imported');
		expect(view.json.workout.notice).toMatch(/no real times .* duration, pace and splits are unknown/);
		const workout = await callApi(app, 'GET', `/api/v7.1/workout/${view.json.workout.id}/`, {
			token: alice.token,
		});
		expect(workout.json.start_datetime.slice(0, 10)).toBe('2010-12-14');
		expect(workout.json.aggregates.distance_total).toBeCloseTo(2697.6, 0);
		expect(workout.json.aggregates.elapsed_time_total).toBe(0);

		// A file with real times carries no such notice.
		const real = fixture('fit/garmin-edge-820-bike.fit');
		const other = await create(real.length, { filename: 'edge.fit' });
		expect((await patch(other.url, 0, real)).status).toBe(204);
		const imported = await callApi(app, 'GET', other.url, { token: alice.token });
		expect(imported.json.status).toBe('imported');
		expect(imported.json.workout.notice).toBeUndefined();
	});

	test('a recording the app cut off mid-write keeps what it holds, and the result and workout say so', async () => {
		const file = fixture('fit/strava-android-app-201.10-b1218918.fit');
		const created = await create(file.length, { filename: 'strava.fit' });
		expect((await patch(created.url, 0, file)).status).toBe(204);
		const view = await callApi(app, 'GET', created.url, { token: alice.token });
		expect(view.json.status).toBe('imported');
		expect(view.json.workout.notice).toMatch(
			/^This FIT file is incomplete: .* The 472 points that could be read up to 14:18:24 UTC were kept\. Its own summary speaks of 59 min and 11\.27 km\./,
		);
		const workout = await callApi(app, 'GET', `/api/v7.1/workout/${view.json.workout.id}/`, {
			token: alice.token,
		});
		expect(workout.json.aggregates.elapsed_time_total).toBe(314);
		expect(workout.json.aggregates.distance_total).toBeCloseTo(928.9, 0);
		expect(await storedNotes(view.json.workout.id)).toEqual([[view.json.workout.notice]]);
	});

	test('a small file sent whole with its creation (creation-with-upload) is imported by that request', async () => {
		const file = fixture('fit/garmin-edge-820-bike.fit');
		const created = await tus('POST', '/api/workout_uploads/', {
			token: alice.token,
			headers: {
				'upload-length': String(file.length),
				'upload-metadata': metadata({ filename: 'edge.fit' }),
			},
			body: file,
		});
		expect(created.status, created.text).toBe(201);
		expect(created.headers.get('upload-offset')).toBe(String(file.length));
		const id = created.headers.get('location')?.split('/').at(-1) as string;
		const [row] = await deps.db.select().from(workoutUploads).where(eq(workoutUploads.id, id));
		expect(row.status).toBe('imported');
		expect(await storedWorkouts()).toBe(1);
	});

	test('two requests finishing one upload at once (a retry, another process) import it once', async () => {
		const file = fixture('fit/garmin-fenix-5-bike.fit');
		const created = await create(file.length, { filename: 'fenix.fit' });
		const id = created.url.split('/').at(-1) as string;
		// The bytes arrive without the final answer (the connection dropped before onUploadFinish ran).
		writeFileSync(path.join(resumableUploadFolder(deps.config), id), file);
		const [first, second, asked] = await Promise.all([
			finishUpload(deps, id),
			finishUpload(deps, id),
			callApi(app, 'GET', created.url, { token: alice.token }),
		]);
		expect(asked.json.status).toBe('imported');
		expect([first?.status, second?.status]).toContain('imported');
		expect(await storedWorkouts()).toBe(1);
		const [row] = await deps.db.select().from(workoutUploads).where(eq(workoutUploads.id, id));
		expect(row).toMatchObject({ status: 'imported', workoutId: asked.json.workout.id });
	});

	test("nobody else may read, resume or cancel a member's upload; visitors are refused", async () => {
		const file = fixture('gpx/Mojstrovka.gpx');
		const created = await create(file.length, { filename: 'Mojstrovka.gpx' });
		await patch(created.url, 0, file.slice(0, 1000));
		for (const method of ['HEAD', 'GET', 'DELETE']) {
			expect((await tus(method, created.url, { token: bob.token })).status).toBe(404);
			expect((await tus(method, created.url)).status).toBe(401);
		}
		expect((await patch(created.url, 1000, file.slice(1000), bob.token)).status).toBe(404);
		expect((await tus('POST', '/api/workout_uploads/', { headers: { 'upload-length': '10' } })).status).toBe(
			401,
		);
		const head = await tus('HEAD', created.url, { token: alice.token });
		expect(head.headers.get('upload-offset')).toBe('1000');
		expect(await storedWorkouts(bob)).toBe(0);
		// The owner may cancel: its bytes leave the disk and the upload is gone.
		expect((await tus('DELETE', created.url, { token: alice.token })).status).toBe(204);
		expect(filesOnDisk()).toEqual([]);
		expect((await tus('HEAD', created.url, { token: alice.token })).status).toBe(404);
	});

	test('a request of another process holding an upload keeps others out until its lease runs out', async () => {
		const file = fixture('gpx/Mojstrovka.gpx');
		const created = await create(file.length, { filename: 'Mojstrovka.gpx' });
		const id = created.url.split('/').at(-1) as string;
		await patch(created.url, 0, file.slice(0, 3000));
		// Another process is writing it, and renews its lease for 5 more seconds.
		const until = new Date(clock().getTime() + 5000);
		await deps.db
			.update(workoutUploads)
			.set({ lockToken: 'another-process', lockedUntil: until })
			.where(eq(workoutUploads.id, id));
		let answered = false;
		const head = tus('HEAD', created.url, { token: alice.token }).then((answer) => {
			answered = true;
			return answer;
		});
		await new Promise((resolve) => setTimeout(resolve, 800));
		expect(answered).toBe(false);
		// That process died: its lease runs out and this request takes the upload over.
		clock.advance(6);
		const taken = await head;
		expect(taken.status).toBe(200);
		expect(taken.headers.get('upload-offset')).toBe('3000');
		const [row] = await deps.db.select().from(workoutUploads).where(eq(workoutUploads.id, id));
		expect(row.lockToken).toBeNull();
	});

	test('the size cap, the length and the metadata are checked before anything is stored', async () => {
		const tooLarge = await create(WORKOUT_FILE_BODY_LIMIT + 1, { filename: 'huge.gpx' });
		expect(tooLarge.status).toBe(413);
		expect(tooLarge.json).toMatchObject({ error: 'file_too_large' });
		const deferred = await tus('POST', '/api/workout_uploads/', {
			token: alice.token,
			headers: { 'upload-defer-length': '1', 'upload-metadata': metadata({ filename: 'a.gpx' }) },
		});
		expect(deferred.status).toBe(400);
		expect(deferred.json).toMatchObject({ error: 'upload_length_required' });
		const noName = await create(100, { name: 'Ride' });
		expect(noName.status).toBe(400);
		expect(JSON.stringify(noName.json._diagnostics)).toContain('Upload-Metadata.filename');
		const badKey = await create(100, { filename: 'a.gpx', idempotency_key: 'short' });
		expect(badKey.status).toBe(400);
		const badPrivacy = await create(100, { filename: 'a.gpx', privacy: '2' });
		expect(badPrivacy.status).toBe(400);
		const controlChars = await create(100, { filename: 'a\u0000.gpx' });
		expect(controlChars.status).toBe(400);
		const noVersion = await app.request('/api/workout_uploads/', {
			method: 'POST',
			headers: { authorization: `Bearer ${alice.token}`, 'upload-length': '10' },
		});
		expect(noVersion.status).toBe(412);
		expect(await deps.db.select().from(workoutUploads)).toEqual([]);
		expect(filesOnDisk()).toEqual([]);
	});

	test('a file that is no workout is refused by its content, stores nothing and leaves the disk', async () => {
		const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array(200).fill(7)]);
		const created = await create(png.length, { filename: 'ride.gpx' });
		expect((await patch(created.url, 0, png)).status).toBe(204);
		const outcome = await callApi(app, 'GET', created.url, { token: alice.token });
		expect(outcome.json.status).toBe('refused');
		expect(outcome.json.refusal).toMatchObject({ status: 422 });
		expect(outcome.json.refusal.message).toBeTruthy();
		expect(outcome.json.workout).toBeUndefined();
		expect(await storedWorkouts()).toBe(0);
		expect(filesOnDisk()).toEqual([]);
	});

	test('a new upload of the same file with the same idempotency_key answers with the first workout', async () => {
		const file = fixture('fit/garmin-fenix-5-walk.fit');
		const fields = { filename: 'walk.fit', idempotency_key: 'walk-key-0001' };
		const first = await create(file.length, fields);
		await patch(first.url, 0, file);
		const again = await create(file.length, fields);
		await patch(again.url, 0, file);
		const [one, two] = await Promise.all(
			[first.url, again.url].map((url) => callApi(app, 'GET', url, { token: alice.token })),
		);
		expect(one.json.status).toBe('imported');
		expect(two.json.status).toBe('imported');
		expect(two.json.workout.id).toBe(one.json.workout.id);
		// Without the key, the same file again is the member's duplicate.
		const third = await create(file.length, { filename: 'walk.fit' });
		await patch(third.url, 0, file);
		const duplicate = await callApi(app, 'GET', third.url, { token: alice.token });
		expect(duplicate.json).toMatchObject({ status: 'duplicate', workout: { id: one.json.workout.id } });
		expect(await storedWorkouts()).toBe(1);
	});

	test('uploads past their expiry and files no upload names are swept from the disk', async () => {
		const file = fixture('gpx/Mojstrovka.gpx');
		const abandoned = await create(file.length, { filename: 'Mojstrovka.gpx' });
		await patch(abandoned.url, 0, file.slice(0, 2000));
		const folder = resumableUploadFolder(deps.config);
		const stray = path.join(folder, 'f'.repeat(32));
		writeFileSync(stray, 'left by a process that died');

		expect(await sweepWorkoutUploads(deps)).toEqual({ expired: 0, orphans: 1 });
		expect(existsSync(stray)).toBe(false);
		expect(filesOnDisk()).toHaveLength(2);

		clock.advance(UPLOAD_EXPIRY_MS / 1000 + 60);
		expect(await sweepWorkoutUploads(deps)).toEqual({ expired: 1, orphans: 0 });
		expect(filesOnDisk()).toEqual([]);
		expect(await deps.db.select().from(workoutUploads)).toEqual([]);
	});

	test('every resumable-upload operation is described in /api/openapi.json', async () => {
		const spec = (await callApi(app, 'GET', '/api/openapi.json')).json;
		expect(Object.keys(spec.paths['/api/workout_uploads/'])).toEqual(['post']);
		expect(Object.keys(spec.paths['/api/workout_uploads/{id}/'])).toEqual(
			expect.arrayContaining(['get', 'patch', 'delete']),
		);
		expect(spec.paths['/api/workout_uploads/{id}/'].get.parameters).toEqual(
			expect.arrayContaining([expect.objectContaining({ in: 'path', name: 'id' })]),
		);
	});
});
