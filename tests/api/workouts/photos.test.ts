import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { deleteAccount } from '../../../src/lib/account/server/service';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { workoutPhotoFolder } from '../../../src/lib/workouts/server/photo-files';
import { handleWorkoutPhotoForm } from '../../../src/lib/workouts/server/photos';
import { workoutPhotos } from '../../../src/lib/workouts/server/tables';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { type FullDisk, fillDisk } from '../../helpers/disk-full';
import { addMember, befriend, type Member, runPayload } from './helpers';

let database: TestDatabase;
let deps: AppDeps;
let app: ReturnType<typeof createTestApi>;
let dataDir: string;
let alice: Member;
let bob: Member;
let stranger: Member;

/** A phone-like JPEG whose EXIF says where it was taken. */
async function photoWithLocation(width = 1200, height = 900): Promise<Buffer> {
	return sharp({ create: { width, height, channels: 3, background: '#3a7d44' } })
		.jpeg()
		.withExif({
			IFD0: { Make: 'Phone', ImageDescription: 'home' },
			IFD3: {
				GPSLatitudeRef: 'N',
				GPSLatitude: '40/1 16/1 0/1',
				GPSLongitudeRef: 'W',
				GPSLongitude: '76/1 53/1 0/1',
			},
		})
		.toBuffer();
}

async function upload(workoutId: number, token: string, bytes: Uint8Array, name = 'photo.jpg') {
	const form = new FormData();
	form.append('image', new File([Buffer.from(bytes)], name, { type: 'image/jpeg' }));
	const response = await app.request(`/api/v7.1/workout/${workoutId}/photo/`, {
		method: 'POST',
		headers: { authorization: `Bearer ${token}` },
		body: form,
	});
	return {
		status: response.status,
		headers: response.headers,
		// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked by assertions
		json: (await response.json()) as Record<string, any>,
	};
}

async function fetchPhoto(workoutId: number, photoId: number, token?: string, size = 'large') {
	return app.request(`/api/v7.1/workout/${workoutId}/photo/${photoId}/?size=${size}`, {
		headers: token ? { authorization: `Bearer ${token}` } : {},
	});
}

async function logRun(member: Member, privacy: 0 | 1 | 3) {
	const answer = await callApi(app, 'POST', '/api/v7.1/workout/', {
		token: member.token,
		body: runPayload(`Run ${privacy}`, { privacy, start: `2026-05-0${privacy + 1}T07:30:00+00:00` }),
	});
	expect(answer.status).toBe(201);
	return answer.json.id as number;
}

beforeAll(async () => {
	database = await openTestDb();
	dataDir = mkdtempSync(path.join(tmpdir(), 'workout-photos-'));
	const base = createTestDeps(database.db);
	deps = { ...base, config: { ...base.config, dataDir } };
	app = createTestApi(deps, { routes: [createWorkoutsApi(), createWorkoutDetailApi(), createSocialApi()] });
});
beforeEach(async () => {
	await database.reset();
	rmSync(path.join(dataDir, 'uploads'), { recursive: true, force: true });
	alice = await addMember(deps, 'alice');
	bob = await addMember(deps, 'bob');
	stranger = await addMember(deps, 'stranger');
	await befriend(deps, alice, bob);
});
afterAll(async () => {
	await database.close();
	rmSync(dataDir, { recursive: true, force: true });
});

describe('workout photos', () => {
	test('the owner adds a photo; it is re-encoded without the camera location and listed on the workout', async () => {
		const run = await logRun(alice, 1);
		const original = await photoWithLocation();
		expect((await sharp(original).metadata()).exif).toBeDefined();
		const added = await upload(run, alice.token, original);
		expect(added.status).toBe(201);
		expect(added.json).toMatchObject({ object_type: 'photo', status: 'READY', width: 1200, height: 900 });
		for (const size of ['large', 'thumbnail']) {
			const file = await fetchPhoto(run, added.json.id, alice.token, size);
			expect(file.status).toBe(200);
			expect(file.headers.get('content-type')).toBe('image/jpeg');
			const stored = Buffer.from(await file.arrayBuffer());
			const metadata = await sharp(stored).metadata();
			expect(metadata.exif).toBeUndefined();
			expect(stored.includes(Buffer.from('home'))).toBe(false);
			expect(metadata.width).toBe(size === 'large' ? 1200 : 320);
		}
		const workout = await callApi(app, 'GET', `/api/v7.1/workout/${run}/`, { token: alice.token });
		expect(workout.json.attachments.total_count).toBe(1);
		expect(workout.json.attachments._embedded.attachments[0]).toMatchObject({
			id: added.json.id,
			uri: `/workout/${run}/photo/${added.json.id}?size=large`,
			thumbnail_uri: `/workout/${run}/photo/${added.json.id}?size=thumbnail`,
		});
	});

	test('others see photos exactly as they may see the workout, and only the owner adds or removes them', async () => {
		const friendsOnly = await logRun(alice, 1);
		const onlyMe = await logRun(alice, 0);
		const shared = (await upload(friendsOnly, alice.token, await photoWithLocation())).json.id as number;
		const hidden = (await upload(onlyMe, alice.token, await photoWithLocation())).json.id as number;
		expect((await fetchPhoto(friendsOnly, shared, bob.token)).status).toBe(200);
		expect((await fetchPhoto(friendsOnly, shared, stranger.token)).status).toBe(404);
		expect((await fetchPhoto(friendsOnly, shared)).status).toBe(404);
		expect((await fetchPhoto(onlyMe, hidden, bob.token)).status).toBe(404);
		// A photo asked for under another workout's id is not found either.
		expect((await fetchPhoto(friendsOnly, hidden, alice.token)).status).toBe(404);
		expect((await upload(friendsOnly, bob.token, await photoWithLocation())).status).toBe(404);
		const bobRemoves = await callApi(app, 'DELETE', `/api/v7.1/workout/${friendsOnly}/photo/${shared}/`, {
			token: bob.token,
		});
		expect(bobRemoves.status).toBe(404);
		const removed = await callApi(app, 'DELETE', `/api/v7.1/workout/${friendsOnly}/photo/${shared}/`, {
			token: alice.token,
		});
		expect(removed.status).toBe(204);
		expect((await fetchPhoto(friendsOnly, shared, alice.token)).status).toBe(404);
		expect(readdirSync(workoutPhotoFolder(deps.config, alice.id, friendsOnly))).toEqual([]);
	});

	test("a friend's feed card shows the first four photos and how many there are, each one readable to that friend", async () => {
		const run = await logRun(alice, 1);
		const ids: number[] = [];
		for (let i = 0; i < 6; i++)
			ids.push((await upload(run, alice.token, await photoWithLocation(400, 300))).json.id);
		const feed = await callApi(app, 'GET', '/api/v7.1/activity_story/', { token: bob.token });
		expect(feed.status).toBe(200);
		const story = feed.json._embedded.activity_stories.find((s: { id: string }) => s.id === `workout_${run}`);
		expect(story.photos.total).toBe(6);
		expect(story.photos.first.map((photo: { id: number }) => photo.id)).toEqual(ids.slice(0, 4));
		for (const photo of story.photos.first) {
			expect(photo.thumbnail_uri).toBe(`/workout/${run}/photo/${photo.id}?size=thumbnail`);
			expect((await fetchPhoto(run, photo.id, bob.token, 'thumbnail')).status).toBe(200);
		}
		// A workout without photos has none on its card.
		const plain = await logRun(alice, 3);
		const again = await callApi(app, 'GET', '/api/v7.1/activity_story/', { token: bob.token });
		const plainStory = again.json._embedded.activity_stories.find(
			(s: { id: string }) => s.id === `workout_${plain}`,
		);
		expect(plainStory.photos).toEqual({ total: 0, first: [] });
	});

	test('uploads are judged by their bytes, and a workout holds at most ten photos', async () => {
		const run = await logRun(alice, 0);
		const script = await upload(run, alice.token, Buffer.from('<script>alert(1)</script>'), 'holiday.jpg');
		expect(script.status).toBe(415);
		// JPEG magic bytes with nothing readable after them.
		const broken = await upload(run, alice.token, Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0, 0, 0]), 'x.jpg');
		expect(broken.status).toBe(415);
		const small = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#000' } })
			.png()
			.toBuffer();
		for (let i = 0; i < 10; i++) expect((await upload(run, alice.token, small, 'a.png')).status).toBe(201);
		const eleventh = await upload(run, alice.token, small, 'a.png');
		expect(eleventh.status).toBe(409);
		expect(readdirSync(workoutPhotoFolder(deps.config, alice.id, run))).toHaveLength(20);
	});

	test('deleting a workout or the member removes the photo files from disk', async () => {
		const first = await logRun(alice, 0);
		const second = await logRun(alice, 3);
		await upload(first, alice.token, await photoWithLocation(200, 200));
		await upload(second, alice.token, await photoWithLocation(200, 200));
		expect((await callApi(app, 'DELETE', `/api/v7.1/workout/${first}/`, { token: alice.token })).status).toBe(
			204,
		);
		expect(existsSync(workoutPhotoFolder(deps.config, alice.id, first))).toBe(false);
		expect(existsSync(workoutPhotoFolder(deps.config, alice.id, second))).toBe(true);
		await deleteAccount(deps, alice.id);
		expect(existsSync(workoutPhotoFolder(deps.config, alice.id))).toBe(false);
	});
});

describe('workout photos on a full disk', () => {
	let disk: FullDisk | null = null;
	afterEach(() => {
		disk?.restore();
		disk = null;
	});
	const filesOn = (workoutId: number) =>
		readdirSync(workoutPhotoFolder(deps.config, alice.id, workoutId)).sort();

	test('a photo that finds no room is answered 507 with Retry-After, and leaves no file and no row', async () => {
		const run = await logRun(alice, 1);
		const kept = await upload(run, alice.token, await photoWithLocation(400, 300));
		expect(kept.status).toBe(201);
		const keptBytes = Buffer.from(await (await fetchPhoto(run, kept.json.id, alice.token)).arrayBuffer());
		const before = filesOn(run);

		disk = fillDisk(path.join(dataDir, 'uploads'));
		const refused = await upload(run, alice.token, await photoWithLocation(400, 300));
		expect(refused.status).toBe(507);
		expect(refused.headers.get('retry-after')).toBe('300');
		expect(refused.json).toMatchObject({
			error: 'storage_full',
			message: expect.stringContaining('nothing was saved'),
		});
		expect(disk.refused).toBe(1);
		// The zero-byte file the write began is gone; the photo before it is whole and still served.
		expect(filesOn(run)).toEqual(before);
		expect(await deps.db.select().from(workoutPhotos)).toHaveLength(1);
		const served = await fetchPhoto(run, kept.json.id, bob.token);
		expect(Buffer.from(await served.arrayBuffer()).equals(keptBytes)).toBe(true);

		disk.restore();
		disk = null;
		expect((await upload(run, alice.token, await photoWithLocation(400, 300))).status).toBe(201);
		expect(filesOn(run)).toHaveLength(4);
	});

	test('a quota reached between the large size and the thumbnail keeps neither', async () => {
		const run = await logRun(alice, 0);
		const photo = await photoWithLocation(800, 600);
		// The same photo re-encodes to the same bytes: the first upload says how large each size is.
		expect((await upload(run, alice.token, photo)).status).toBe(201);
		const before = filesOn(run);
		const large = before.find((file) => file.endsWith('-large.jpg')) ?? '';
		const largeBytes = statSync(path.join(workoutPhotoFolder(deps.config, alice.id, run), large)).size;

		disk = fillDisk(path.join(dataDir, 'uploads'), { roomLeft: largeBytes + 100, code: 'EDQUOT' });
		const refused = await upload(run, alice.token, photo);
		expect(refused.status).toBe(507);
		expect(disk.refused).toBe(1);
		expect(filesOn(run)).toEqual(before);
		expect(await deps.db.select().from(workoutPhotos)).toHaveLength(1);
	});

	test("the workout page's photo form answers 507 with Retry-After and names the photo that found no room", async () => {
		const run = await logRun(alice, 0);
		const form = new FormData();
		form.set('action', 'add-photos');
		for (const name of ['a.jpg', 'b.jpg'])
			form.append('photos', new File([new Uint8Array(await photoWithLocation(300, 200))], name));
		disk = fillDisk(path.join(dataDir, 'uploads'));
		const outcome = await handleWorkoutPhotoForm(deps, { id: alice.id }, run, form);
		expect(outcome).toMatchObject({
			ok: false,
			status: 507,
			headers: { 'Retry-After': '300' },
			message: expect.stringMatching(/^Photo 1 of 2: We have no room/),
		});
		expect(filesOn(run)).toEqual([]);
		expect(await deps.db.select().from(workoutPhotos)).toHaveLength(0);
	});
});
