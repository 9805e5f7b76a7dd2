import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import sharp from 'sharp';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { PHOTO_MAX_BYTES, SelfUserSchema } from '../../../src/lib/account/contract';
import { photoFolder } from '../../../src/lib/account/server/service';
import { heartRateZones, profilePhotos } from '../../../src/lib/auth/server/tables';
import { userGear } from '../../../src/lib/gear/server/tables';
import { importFolder } from '../../../src/lib/workouts/server/bulk-import';
import { workoutBulkImports } from '../../../src/lib/workouts/server/tables';
import { callApi, createTestDeps } from '../../helpers/app';
import { makePngBomb, pngClaiming } from '../../helpers/bombs';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { fillDisk } from '../../helpers/disk-full';
import { healthLatenciesDuring, STALL_MS } from '../../helpers/health-latency';
import { type App, createAccountsApp, PASSWORD, signupMember } from '../auth/helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: App;
let dataDir: string;

beforeAll(async () => {
	database = await openTestDb();
	dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-account-'));
	const base = createTestDeps(database.db);
	deps = { ...base, config: { ...base.config, dataDir } };
	app = createAccountsApp(deps);
});
beforeEach(async () => {
	await database.reset();
	rmSync(photoFolder(deps.config), { recursive: true, force: true });
});
afterAll(async () => {
	await database.close();
	rmSync(dataDir, { recursive: true, force: true });
});

async function uploadPhoto(target: App, id: number, token: string, bytes: Uint8Array, name = 'me.png') {
	const form = new FormData();
	form.append('image', new File([Buffer.from(bytes)], name, { type: 'image/png' }));
	const response = await target.request(`/api/v7.1/user_profile_photo/${id}/`, {
		method: 'PUT',
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

describe('user', () => {
	test('user/self answers the member in v7.1 style with links, privacy and +00:00 dates', async () => {
		const ada = await signupMember(app);
		for (const path of ['/api/v7.1/user/self/', '/api/v7.1/user/self']) {
			const self = await callApi(app, 'GET', path, { token: ada.token });
			expect(self.status).toBe(200);
			expect(self.json).toMatchObject({
				id: ada.id,
				email: 'ada@example.test',
				time_zone: 'UTC',
				time_zone_offset: 0,
				display_measurement_system: 'metric',
				preferred_language: 'en-us',
				_links: { self: [{ href: `/v7.1/user/${ada.id}/`, id: String(ada.id) }] },
			});
			expect(self.json.date_joined).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+00:00$/);
			expect(self.json._links.privacy.map((link: { name: string }) => link.name)).toEqual([
				'profile',
				'workout',
				'route',
				'email_search',
			]);
			expect(JSON.stringify(self.json)).not.toMatch(/argon2|password/);
			// Islands read this answer through the shared contract, so it must keep that shape.
			expect(v.safeParse(SelfUserSchema, self.json).issues).toBeUndefined();
		}
		expect((await callApi(app, 'GET', '/api/v7.1/user/self/')).status).toBe(401);
	});

	test("another member's profile shows only what its privacy allows", async () => {
		const ada = await signupMember(app);
		const bob = await signupMember(app, { email: 'bob@example.test', first_name: 'Bob' });
		// Friends-only by default, and without a friendship that means hidden, like a missing member.
		const hidden = await callApi(app, 'GET', `/api/v7.1/user/${ada.id}/`, { token: bob.token });
		const missing = await callApi(app, 'GET', '/api/v7.1/user/999999/', { token: bob.token });
		expect(hidden.status).toBe(404);
		expect(hidden.json).toEqual(missing.json);
		expect((await callApi(app, 'GET', `/api/v7.1/user/${ada.id}/`)).status).toBe(404);
		await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: ada.token,
			body: { privacy: { profile: 3 } },
		});
		for (const token of [bob.token, undefined]) {
			const seen = await callApi(app, 'GET', `/api/v7.1/user/${ada.id}`, { token });
			expect(seen.status).toBe(200);
			expect(seen.json).toMatchObject({ id: ada.id, first_name: 'Ada', last_initial: 'R.' });
			for (const secret of ['email', 'birthdate', 'weight', 'height', 'last_name', 'gender'])
				expect(seen.json).not.toHaveProperty(secret);
		}
		await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: ada.token,
			body: { privacy: { profile: 0 } },
		});
		expect((await callApi(app, 'GET', `/api/v7.1/user/${ada.id}/`, { token: bob.token })).status).toBe(404);
		expect((await callApi(app, 'GET', `/api/v7.1/user/${ada.id}/`, { token: ada.token })).status).toBe(200);
	});

	test('the owner updates allowed fields', async () => {
		const ada = await signupMember(app);
		const response = await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: ada.token,
			body: {
				first_name: 'Adeline',
				display_measurement_system: 'imperial',
				height: 1.7,
				weight: 61.5,
				time_zone: 'Europe/London',
				location: { locality: 'Leeds', region: 'ENG', country: 'gb' },
				introduction: 'Hills before breakfast.',
			},
		});
		expect(response.status).toBe(200);
		expect(response.json).toMatchObject({
			first_name: 'Adeline',
			display_measurement_system: 'imperial',
			height: 1.7,
			weight: 61.5,
			time_zone: 'Europe/London',
			time_zone_offset: 60,
			location: { locality: 'Leeds', region: 'ENG', country: 'GB' },
		});
	});

	test.each([
		['an unknown field', { favourite_colour: 'blue' }],
		['the email', { email: 'new@example.test' }],
		['the id', { id: 1 }],
		['the username', { username: 'admin' }],
		['premium status', { is_premium: true }],
		['a user id', { user_id: 2 }],
		['the password', { password: 'Green-Violin-Harbour-7' }],
	])('refuses %s with 400', async (_name, body) => {
		const ada = await signupMember(app);
		const response = await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, { token: ada.token, body });
		expect(response.status).toBe(400);
		expect(response.json._diagnostics.validation_failures.length).toBeGreaterThan(0);
	});

	test('names bad choices and ineligible birthdates as the client expects', async () => {
		const ada = await signupMember(app);
		const put = (body: unknown) =>
			callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, { token: ada.token, body });
		const choice = await put({ display_measurement_system: 'furlongs' });
		expect(choice.status).toBe(400);
		expect(JSON.stringify(choice.json._diagnostics)).toMatch(/Select a valid choice/);
		const zone = await put({ time_zone: 'Mars/Olympus' });
		expect(JSON.stringify(zone.json._diagnostics)).toMatch(/Select a valid choice/);
		const young = await put({ birthdate: '2025-01-01' });
		expect(young.status).toBe(400);
		expect(young.json._diagnostics.validation_failures).toEqual([
			{ birthdate: ['You are ineligible to participate based on your birthdate.'] },
		]);
	});

	test('a member in the United States starts with US units, everyone else with metric', async () => {
		const us = await signupMember(app, { email: 'us@example.test', location: { country: 'US' } });
		const nl = await signupMember(app, { email: 'nl@example.test', location: { country: 'NL' } });
		expect(us.user.display_measurement_system).toBe('imperial');
		expect(nl.user.display_measurement_system).toBe('metric');
	});

	test('a time zone must be one of the IANA zones the form offers', async () => {
		const ada = await signupMember(app);
		const put = (time_zone: string) =>
			callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, { token: ada.token, body: { time_zone } });
		for (const zone of ['EST', 'GMT+5', 'utc', 'Europe/Atlantis']) {
			const refused = await put(zone);
			expect(refused.status, zone).toBe(400);
			expect(refused.json._diagnostics.validation_failures).toEqual([
				{ time_zone: ['Select a valid choice. That choice is not one of the available choices.'] },
			]);
		}
		const chicago = await put('America/Chicago');
		expect(chicago.status).toBe(200);
		expect(chicago.json.time_zone).toBe('America/Chicago');
	});

	test("nobody changes another member's profile", async () => {
		const ada = await signupMember(app);
		const bob = await signupMember(app, { email: 'bob@example.test' });
		const hidden = await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: bob.token,
			body: { first_name: 'X' },
		});
		expect(hidden.status).toBe(404);
		await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: ada.token,
			body: { privacy: { profile: 3 } },
		});
		const visible = await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: bob.token,
			body: { first_name: 'X' },
		});
		expect(visible.status).toBe(403);
		expect(
			(await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, { body: { first_name: 'X' } })).status,
		).toBe(401);
		const self = await callApi(app, 'GET', '/api/v7.1/user/self/', { token: ada.token });
		expect(self.json.first_name).toBe('Ada');
	});

	test('a member id too large to exist is refused as a bad id, not failed on in the database', async () => {
		const ada = await signupMember(app);
		for (const id of ['2147483648', '07584177345', '9999999999']) {
			for (const [method, path] of [
				['GET', `/api/v7.1/user/${id}/`],
				['PUT', `/api/v7.1/user/${id}/`],
				['GET', `/api/v7.1/heart_rate_zones/?user=${id}`],
			] as const) {
				const response = await callApi(app, method, path, {
					token: ada.token,
					body: method === 'PUT' ? {} : undefined,
				});
				expect(response.status, `${method} ${path}`).toBe(400);
				const fields = response.json._diagnostics.validation_failures.flatMap((failure: object) =>
					Object.keys(failure),
				);
				expect(fields).toContain(method === 'GET' && path.includes('zones') ? 'user' : 'id');
			}
		}
		expect((await callApi(app, 'GET', '/api/v7.1/user/2147483647/', { token: ada.token })).status).toBe(404);
	});
});

describe('heart-rate zones', () => {
	test('answer the default zones to their owner only', async () => {
		const ada = await signupMember(app);
		const bob = await signupMember(app, { email: 'bob@example.test' });
		const zones = await callApi(app, 'GET', `/api/v7.1/heart_rate_zones/?user=${ada.id}`, {
			token: ada.token,
		});
		expect(zones.status).toBe(200);
		expect(zones.json._embedded.heart_rate_zones[0].zones).toEqual([
			{ name: 'zone1', start: 0, end: 108 },
			{ name: 'zone2', start: 109, end: 125 },
			{ name: 'zone3', start: 126, end: 144 },
			{ name: 'zone4', start: 145, end: 162 },
			{ name: 'zone5', start: 163, end: 180 },
		]);
		expect(zones.json._embedded.heart_rate_zones[0].created_date).toMatch(/\+00:00$/);
		expect(
			(await callApi(app, 'GET', `/api/v7.1/heart_rate_zones/?user=${ada.id}`, { token: bob.token })).status,
		).toBe(404);
		expect((await callApi(app, 'GET', `/api/v7.1/heart_rate_zones/?user=${ada.id}`)).status).toBe(401);
		expect((await callApi(app, 'GET', '/api/v7.1/heart_rate_zones/', { token: ada.token })).status).toBe(400);
	});

	test('answer stored zones when the member has them', async () => {
		const ada = await signupMember(app);
		const custom = [{ name: 'zone1', start: 0, end: 100 }];
		await deps.db.insert(heartRateZones).values({ userId: ada.id, zones: custom });
		const zones = await callApi(app, 'GET', `/api/v7.1/heart_rate_zones?user=${ada.id}`, {
			token: ada.token,
		});
		expect(zones.json._embedded.heart_rate_zones[0].zones).toEqual(custom);
	});
});

describe('promotional preference', () => {
	test('POST creates and PUT changes the member’s own choice', async () => {
		const ada = await signupMember(app, { promotionalPreference: undefined });
		const body = {
			privacy_standard: 'gdpr',
			region: 'EU1',
			preference_type: 'ua-marketing-opt-in',
			choice: true,
			_links: { user: [{ id: String(ada.id) }] },
		};
		const created = await callApi(app, 'POST', '/api/v7.1/promotional_preference/', {
			token: ada.token,
			body,
		});
		expect(created.status).toBe(201);
		expect(created.json).toMatchObject({
			choice: true,
			region: 'EU1',
			_links: { user: [{ id: String(ada.id) }] },
		});
		const changed = await callApi(app, 'PUT', '/api/v7.1/promotional_preference/', {
			token: ada.token,
			body: { ...body, choice: false },
		});
		expect(changed.json).toMatchObject({ id: created.json.id, choice: false });
		const bob = await signupMember(app, { email: 'bob@example.test' });
		expect(
			(await callApi(app, 'PUT', '/api/v7.1/promotional_preference/', { token: bob.token, body })).status,
		).toBe(403);
		expect(
			(
				await callApi(app, 'POST', '/api/v7.1/promotional_preference/', {
					token: ada.token,
					body: { choice: 'yes' },
				})
			).status,
		).toBe(400);
	});
});

describe('profile photo', () => {
	test('re-encodes a photo without its metadata and serves it from the data folder', async () => {
		const ada = await signupMember(app);
		const jpeg = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#3a7' } })
			.jpeg()
			.withExif({ IFD0: { Copyright: 'secret-home-address' } })
			.toBuffer();
		expect((await sharp(jpeg).metadata()).exif).toBeDefined();
		const response = await uploadPhoto(app, ada.id, ada.token, jpeg, 'holiday.png');
		expect(response.status).toBe(200);
		expect(response.json._links.small[0].href).toMatch(/\/picture\?size=Small$/);
		const files = readdirSync(photoFolder(deps.config));
		expect(files).toHaveLength(2);
		for (const file of files) {
			const meta = await sharp(path.join(photoFolder(deps.config), file)).metadata();
			expect(meta.format).toBe('jpeg');
			expect(meta.exif).toBeUndefined();
		}
		// A new photo replaces the old files.
		const gif = await sharp({ create: { width: 50, height: 50, channels: 3, background: '#fff' } })
			.gif()
			.toBuffer();
		expect((await uploadPhoto(app, ada.id, ada.token, gif)).status).toBe(200);
		expect(readdirSync(photoFolder(deps.config))).toHaveLength(2);
	});

	test('a new photo that finds the disk full is answered 507 with Retry-After, and the old one stays', async () => {
		const ada = await signupMember(app);
		const photo = (background: string) =>
			sharp({ create: { width: 300, height: 300, channels: 3, background } })
				.jpeg()
				.toBuffer();
		expect((await uploadPhoto(app, ada.id, ada.token, await photo('#3a7'))).status).toBe(200);
		const files = readdirSync(photoFolder(deps.config)).sort();
		const [row] = await deps.db.select().from(profilePhotos);

		// Room for part of the new medium size only.
		const disk = fillDisk(photoFolder(deps.config), { roomLeft: 200 });
		try {
			const response = await uploadPhoto(app, ada.id, ada.token, await photo('#a37'));
			expect(response.status).toBe(507);
			expect(response.headers.get('retry-after')).toBe('300');
			expect(response.json).toMatchObject({ error: 'storage_full' });
			expect(disk.refused).toBe(1);
		} finally {
			disk.restore();
		}
		expect(readdirSync(photoFolder(deps.config)).sort()).toEqual(files);
		expect(await deps.db.select().from(profilePhotos)).toEqual([row]);
		expect((await uploadPhoto(app, ada.id, ada.token, await photo('#a37'))).status).toBe(200);
	});

	test('a first photo that finds no room leaves no file and no row', async () => {
		const ada = await signupMember(app);
		const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#fff' } })
			.png()
			.toBuffer();
		const disk = fillDisk(photoFolder(deps.config), { code: 'EDQUOT' });
		try {
			const response = await uploadPhoto(app, ada.id, ada.token, png);
			expect(response.status).toBe(507);
			expect(response.headers.get('retry-after')).toBe('300');
		} finally {
			disk.restore();
		}
		expect(readdirSync(photoFolder(deps.config))).toEqual([]);
		expect(await deps.db.select().from(profilePhotos)).toHaveLength(0);
	});

	test.each([
		['SVG', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
		['HTML renamed .png', Buffer.from('<html><script>alert(1)</script></html>')],
		['PHP', Buffer.from('<?php echo 1; ?>')],
		['a GIF header with JavaScript after it', Buffer.from('GIF89a/*</script><script>alert(1)//*/')],
	])("refuses %s as 'invalid-image-type'", async (_name, bytes) => {
		const ada = await signupMember(app);
		const response = await uploadPhoto(app, ada.id, ada.token, bytes);
		expect(response.status).toBe(400);
		expect(response.json.error).toBe('invalid-image-type');
	});

	test("refuses more than 1,000,000 bytes as 'too-big' and too many pixels", async () => {
		const ada = await signupMember(app);
		const big = Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			Buffer.alloc(1_000_000 - 7),
		]);
		expect(big.byteLength).toBe(1_000_001);
		const tooBig = await uploadPhoto(app, ada.id, ada.token, big);
		expect(tooBig.status).toBe(413);
		expect(tooBig.json.error).toBe('too-big');
		const bomb = await uploadPhoto(app, ada.id, ada.token, pngClaiming(20_000, 20_000));
		expect(bomb.status).toBe(413);
		expect(bomb.json.error).toBe('too-big');
		expect(existsSync(photoFolder(deps.config)) ? readdirSync(photoFolder(deps.config)) : []).toHaveLength(0);
	});

	test("refuses a PNG that decodes to 400 megapixels as 'too-big' without holding up other requests", async () => {
		const ada = await signupMember(app);
		const bomb = makePngBomb(20_000, 20_000);
		expect(bomb.byteLength).toBeLessThan(PHOTO_MAX_BYTES);
		// The first image of a process starts libvips (a one-time pause); this test is about the bomb.
		expect((await uploadPhoto(app, ada.id, ada.token, pngClaiming(20_000, 20_000))).status).toBe(413);
		// The same request with an image refused from its header alone.
		const light = await healthLatenciesDuring(
			app,
			uploadPhoto(app, ada.id, ada.token, pngClaiming(20_000, 20_000)),
		);
		const { result, worst, failures } = await healthLatenciesDuring(
			app,
			uploadPhoto(app, ada.id, ada.token, bomb),
		);
		expect(result.status).toBe(413);
		expect(result.json.error).toBe('too-big');
		expect(failures).toBe(0);
		expect(worst).toBeLessThan(light.worst + STALL_MS);
		expect(existsSync(photoFolder(deps.config)) ? readdirSync(photoFolder(deps.config)) : []).toHaveLength(0);
	});

	test("nobody sets another member's photo", async () => {
		const ada = await signupMember(app);
		const bob = await signupMember(app, { email: 'bob@example.test' });
		const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
			.png()
			.toBuffer();
		expect((await uploadPhoto(app, ada.id, bob.token, png)).status).toBe(403);
	});
});

describe('account deletion', () => {
	test('needs the password, then removes every row and file of the member and ends their sessions', async () => {
		const ada = await signupMember(app);
		const bob = await signupMember(app, { email: 'bob@example.test' });
		const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
			.png()
			.toBuffer();
		await uploadPhoto(app, ada.id, ada.token, png);
		await deps.db.insert(heartRateZones).values({ userId: ada.id, zones: [] });
		await deps.db.insert(userGear).values({ userId: ada.id, kind: 'shoes', nickname: 'Blue pair' });
		// An export zip still waiting to be imported: its row and its file go.
		const waiting = path.join(importFolder(deps.config), `import-${ada.id}-waiting.zip`);
		mkdirSync(importFolder(deps.config), { recursive: true });
		writeFileSync(waiting, 'PK');
		await deps.db
			.insert(workoutBulkImports)
			.values({ userId: ada.id, fileName: path.basename(waiting), total: 1 });
		await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'ada@example.test', password: 'wrong-password-1' },
		});
		// Failures at her account from another address, which her own sign-ins do not clear.
		const proxied = createAccountsApp({ ...deps, config: { ...deps.config, trustedProxy: true } });
		const fromElsewhere = (password: string) =>
			callApi(proxied, 'POST', '/api/auth/login', {
				body: { email: 'ada@example.test', password },
				headers: { 'x-forwarded-for': '198.51.100.23' },
			});
		for (let i = 0; i < 2; i++) expect((await fromElsewhere(`elsewhere-${i}`)).status).toBe(401);
		await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: 'ada@example.test' } });

		const del = (id: number, token: string | undefined, password: string) =>
			callApi(app, 'DELETE', `/api/auth/deletion-request/${id}`, { token, body: { password } });
		expect((await del(ada.id, undefined, PASSWORD)).status).toBe(401);
		expect((await del(ada.id, bob.token, PASSWORD)).status).toBe(403);
		const wrong = await del(ada.id, ada.token, 'not-my-password');
		expect(wrong.status).toBe(403);
		expect(wrong.json.error).toBe('access_denied');
		const blank = await del(ada.id, ada.token, '');
		expect(blank.json.error).toBe('blank_password');

		const done = await del(ada.id, ada.token, PASSWORD);
		expect(done.status).toBe(200);
		expect(done.json).toEqual({ status: 'deleted', user_id: ada.id });

		// Every column that names a member, in every table, no longer holds Ada's id.
		const columns = await deps.db.execute<{ table_name: string; column_name: string }>(sql`
			select table_name, column_name from information_schema.columns
			where table_schema = 'public'
			  and (column_name = 'user_id' or column_name like '%\\_user\\_id' or (table_name = 'users' and column_name = 'id'))`);
		const rows = (columns as unknown as { rows: { table_name: string; column_name: string }[] }).rows;
		expect(rows.length).toBeGreaterThanOrEqual(7);
		expect(rows.map((row) => row.table_name)).toEqual(
			expect.arrayContaining(['user_gear', 'workout_bulk_imports']),
		);
		expect(existsSync(waiting)).toBe(false);
		for (const { table_name, column_name } of rows) {
			const found = await deps.db.execute<{ n: number }>(
				sql.raw(`select count(*)::int as n from "${table_name}" where "${column_name}" = ${ada.id}`),
			);
			expect((found as unknown as { rows: { n: number }[] }).rows[0].n, `${table_name}.${column_name}`).toBe(
				0,
			);
		}
		expect(await deps.db.select().from(profilePhotos)).toHaveLength(0);
		expect(readdirSync(photoFolder(deps.config))).toHaveLength(0);
		expect(
			(await callApi(app, 'GET', '/api/auth/refresh-token', { headers: { cookie: ada.cookie } })).status,
		).toBe(401);
		expect((await callApi(app, 'GET', '/api/v7.1/user/self/', { token: ada.token })).status).toBe(401);
		const login = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'ada@example.test', password: PASSWORD },
		});
		expect(login.status).toBe(401);
		// The failures counted at her account from the other address went with it: ten more reach
		// the password check there, and only the next is paused.
		for (let i = 0; i < 10; i++) expect((await fromElsewhere(`after-deletion-${i}`)).status).toBe(401);
		expect((await fromElsewhere(PASSWORD)).status).toBe(429);
		// Bob is untouched.
		expect((await callApi(app, 'GET', '/api/v7.1/user/self/', { token: bob.token })).status).toBe(200);
	});
});

describe('avatar look-up', () => {
	test('finds the photo only for those who may see the profile', async () => {
		const { findProfilePhoto } = await import('../../../src/lib/account/server/service');
		const ada = await signupMember(app);
		const bob = await signupMember(app, { email: 'bob@example.test' });
		const png = await sharp({ create: { width: 10, height: 10, channels: 3, background: '#000' } })
			.png()
			.toBuffer();
		await uploadPhoto(app, ada.id, ada.token, png);
		const username = ada.user.username as string;
		expect(await findProfilePhoto(deps, ada.id, username, 'Small')).toMatchObject({
			file: expect.stringMatching(/-small\.jpg$/),
		});
		expect(await findProfilePhoto(deps, bob.id, username, 'Medium')).toBeNull();
		expect(await findProfilePhoto(deps, null, username, 'Medium')).toBeNull();
		await callApi(app, 'PUT', `/api/v7.1/user/${ada.id}/`, {
			token: ada.token,
			body: { privacy: { profile: 3 } },
		});
		expect(await findProfilePhoto(deps, null, username.toUpperCase(), 'Medium')).toMatchObject({
			file: expect.stringMatching(/-medium\.jpg$/),
		});
		expect(await findProfilePhoto(deps, null, 'nobody-here', 'Small')).toBeNull();
	});
});
