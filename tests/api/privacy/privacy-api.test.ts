import {
	existsSync,
	mkdirSync,
	mkdtempSync,
	readdirSync,
	readFileSync,
	rmSync,
	statSync,
	writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq, inArray, sql } from 'drizzle-orm';
import sharp from 'sharp';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import yauzl from 'yauzl';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { outboxMessages, users } from '../../../src/lib/auth/server/tables';
import { tokenizeLocalCard } from '../../../src/lib/billing/local-card';
import { addBillingProfile } from '../../../src/lib/billing/server/billing-profiles';
import { seedCatalogue } from '../../../src/lib/billing/server/catalogue';
import { redeemCouponCode } from '../../../src/lib/billing/server/member-coupons';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { createGear } from '../../../src/lib/gear/server/service';
import { runDueJobs } from '../../../src/lib/jobs/server/service';
import { jobs } from '../../../src/lib/jobs/server/tables';
import { flushMail } from '../../../src/lib/mail/server/service';
import { regionForCountry } from '../../../src/lib/privacy/contract';
import { createPrivacyApi } from '../../../src/lib/privacy/server/api';
import { exportFolder } from '../../../src/lib/privacy/server/export-files';
import { privacyJobs } from '../../../src/lib/privacy/server/jobs';
import {
	buildExport,
	listExports,
	openExport,
	removeExpiredExports,
} from '../../../src/lib/privacy/server/service';
import { consentRecords } from '../../../src/lib/privacy/server/tables';
import { RouteSaveSchema } from '../../../src/lib/routes/contract';
import { createBookmark } from '../../../src/lib/routes/server/bookmarks';
import { createRoute } from '../../../src/lib/routes/server/saving';
import { routes } from '../../../src/lib/routes/server/tables';
import { COOKIE_CHOICES_COOKIE } from '../../../src/lib/site/cookie-choices';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { memberStories } from '../../../src/lib/social/server/tables';
import { surveyResponses } from '../../../src/lib/surveys/server/tables';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { workoutPhotoFolder } from '../../../src/lib/workouts/server/photo-files';
import { addWorkoutPhoto } from '../../../src/lib/workouts/server/photos';
import { workouts } from '../../../src/lib/workouts/server/tables';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { fillDisk } from '../../helpers/disk-full';
import { latestMail, PASSWORD, signupMember } from '../auth/helpers';

let database: TestDatabase;
let deps: AppDeps & { clock: ReturnType<typeof createTestDeps>['clock'] & { advance?: (s: number) => void } };
let app: ReturnType<typeof createTestApi>;
let dataDir: string;

beforeAll(async () => {
	database = await openTestDb();
	dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-privacy-'));
	const base = createTestDeps(database.db);
	deps = { ...base, config: { ...base.config, dataDir } };
	app = createTestApi(deps, {
		routes: [createAuthApi(), createAccountApi(), createPrivacyApi(), createWorkoutsApi(), createSocialApi()],
	});
});
beforeEach(async () => {
	await database.reset();
	rmSync(exportFolder(deps.config), { recursive: true, force: true });
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
	rmSync(dataDir, { recursive: true, force: true });
});

const advance = (seconds: number) =>
	(deps.clock as unknown as { advance: (s: number) => void }).advance(seconds);

function member(
	email: string,
	country: string,
	region = '',
	birthdate = '1990-04-12',
	headers: Record<string, string> = {},
) {
	return signupMember(
		app,
		{
			email,
			first_name: email.split('@')[0],
			birthdate,
			location: { country, region, locality: '' },
			gdpr_iso_code: country,
			consents: { terms_of_use: true, privacy_policy: true },
		},
		headers,
	);
}

async function addRoute(owner: { id: number }, name: string) {
	const input = v.parse(RouteSaveSchema, {
		name,
		privacy: 0,
		points: Array.from({ length: 3 }, (_, i) => ({
			lat: 42.5 + i * 0.01,
			lng: 1.5,
			order: i,
			travel_mode: 'WALKING',
		})),
	});
	return createRoute(deps, owner, input);
}

/** Every entry of a zip file, by name, as text. */
function readZip(file: string): Promise<Map<string, Buffer>> {
	return new Promise((resolve, reject) => {
		yauzl.open(file, { lazyEntries: true }, (error, zip) => {
			if (error || !zip) return reject(error);
			const entries = new Map<string, Buffer>();
			zip.on('entry', (entry: yauzl.Entry) => {
				zip.openReadStream(entry, (streamError, stream) => {
					if (streamError || !stream) return reject(streamError);
					const chunks: Buffer[] = [];
					stream.on('data', (chunk: Buffer) => chunks.push(chunk));
					stream.on('end', () => {
						entries.set(entry.fileName, Buffer.concat(chunks));
						zip.readEntry();
					});
				});
			});
			zip.on('end', () => resolve(entries));
			zip.on('error', reject);
			zip.readEntry();
		});
	});
}

describe('consent matrices by region', () => {
	test('countries fall in US, EU1 or EU2; the rest of the world answers the US matrix', () => {
		for (const code of ['DE', 'FR', 'ES', 'IT', 'CN', 'HK', 'KR', 'PL', 'RO', 'RU', 'AT', 'CH', 'CY'])
			expect(regionForCountry(code)).toBe('EU1');
		for (const code of ['GB', 'NL', 'SE', 'CA', 'AU', 'BR', 'JP', 'MX', 'SG'])
			expect(regionForCountry(code)).toBe('EU2');
		for (const code of ['US', 'IN', 'ZA', '']) expect(regionForCountry(code)).toBe('US');
	});

	test('the matrix calls name required and default-on consents and the minimum age', async () => {
		const eu1 = await callApi(app, 'GET', '/api/auth/consents-matrix/EU1');
		expect(eu1.status).toBe(200);
		expect(eu1.json).toMatchObject({ region: 'EU1', version: 1, minimum_age: 16 });
		// Opt-in law: nothing optional starts on.
		expect(eu1.json.consents.filter((c: { default_on: boolean }) => c.default_on)).toEqual([]);
		const us = await callApi(app, 'GET', '/api/consent/v1/consent/matrix/2?region=US');
		expect(us.json.minimum_age).toBe(13);
		const sale = us.json.consents.find((c: { key: string }) => c.key === 'sale_share');
		expect(sale).toMatchObject({ required: false, default_on: true });
		expect((await callApi(app, 'GET', '/api/consent/v1/consent/matrix/9?region=US')).status).toBe(404);
		expect((await callApi(app, 'GET', '/api/auth/consents-matrix/US-1')).json.consents).toHaveLength(6);
	});

	test('signup records each consent given with the matrix version, time and source', async () => {
		const ada = await member('ada@example.test', 'DE');
		const status = await callApi(app, 'GET', '/api/consent/v1/consent/status', { token: ada.token });
		expect(status.status).toBe(200);
		expect(status.json).toMatchObject({ region: 'EU1', country: 'DE', matrix_version: 1 });
		const terms = status.json.consents.find((c: { key: string }) => c.key === 'terms');
		expect(terms).toMatchObject({ granted: true, answered: true, source: 'signup', matrix_version: 1 });
		expect(terms.recorded_datetime).toMatch(/\+00:00$/);
		// Health data is required in EU1 and was not answered at signup: asked on the consent screen.
		expect(status.json.pending).toEqual([
			'marketing_email',
			'personalised_ads',
			'sale_share',
			'precise_location',
			'health_data',
		]);
		// Nothing changed since signup, so logging in goes straight on.
		expect(status.json.changed).toEqual([]);
		const login = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'ada@example.test', password: PASSWORD },
		});
		expect(login.json.consents_pending).toBe(false);
	});

	test('a new matrix version asks again only about what changed', async () => {
		const bo = await member('bo@example.test', 'US', 'OH');
		// Bo answered the whole US matrix in its first version.
		await database.db.delete(consentRecords).where(eq(consentRecords.userId, bo.id));
		const keys = [
			'terms',
			'privacy_policy',
			'marketing_email',
			'personalised_ads',
			'sale_share',
			'precise_location',
		];
		await database.db.insert(consentRecords).values(
			keys.map((key) => ({
				userId: bo.id,
				consentKey: key,
				granted: true,
				region: 'US',
				matrixVersion: 1,
				source: 'signup',
			})),
		);
		const status = await callApi(app, 'GET', '/api/auth/consents-status', { token: bo.token });
		expect(status.json.pending).toEqual(['privacy_policy', 'health_data']);
		expect(status.json.changed).toEqual(['privacy_policy', 'health_data']);
		const login = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'bo@example.test', password: PASSWORD },
		});
		expect(login.json.consents_pending).toBe(true);

		const saved = await callApi(app, 'POST', '/api/auth/update-consents', {
			token: bo.token,
			body: {
				consent_matrix_version: 2,
				consents: [
					{ key: 'privacy_policy', granted: true },
					{ key: 'health_data', granted: false },
				],
			},
		});
		expect(saved.status).toBe(200);
		expect(saved.json.pending).toEqual([]);
		const again = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'bo@example.test', password: PASSWORD },
		});
		expect(again.json.consents_pending).toBe(false);
		// Each change is a record of its own; the earlier answers stay in the log.
		const history = await callApi(app, 'GET', '/api/consent/v1/consent/history', { token: bo.token });
		expect(history.json.records).toHaveLength(8);
		expect(history.json.records[0]).toMatchObject({ matrix_version: 2, source: 'api' });
	});

	test('answers to a stale matrix, unknown consents and another member are refused', async () => {
		const cy = await member('cy@example.test', 'US', 'NY');
		const stale = await callApi(app, 'POST', '/api/consent/v1/consent/status', {
			token: cy.token,
			body: { consent_matrix_version: 1, consents: [{ key: 'marketing_email', granted: true }] },
		});
		expect(stale.status).toBe(409);
		const unknown = await callApi(app, 'POST', '/api/consent/v1/consent/status', {
			token: cy.token,
			body: { consents: [{ key: 'tracking_pixels', granted: true }] },
		});
		expect(unknown.status).toBe(400);
		const twice = await callApi(app, 'POST', '/api/consent/v1/consent/status', {
			token: cy.token,
			body: {
				consents: [
					{ key: 'marketing_email', granted: true },
					{ key: 'marketing_email', granted: false },
				],
			},
		});
		expect(twice.status).toBe(400);
		expect((await callApi(app, 'GET', '/api/consent/v1/consent/status')).status).toBe(401);
	});

	test('correcting the country moves the member to that region’s matrix', async () => {
		const di = await member('di@example.test', 'US', 'NY');
		const moved = await callApi(app, 'PUT', '/api/consent/v1/consent/country', {
			token: di.token,
			body: { country: 'fr' },
		});
		expect(moved.json).toMatchObject({ region: 'EU1', country: 'FR', country_confirmed: true });
		// Answers given under the US matrix do not count for the EU1 one.
		expect(moved.json.pending).toContain('terms');
	});
});

describe('Global Privacy Control', () => {
	test('Sec-GPC: 1 opts a Californian out of sale, sharing and targeted ads, once', async () => {
		const ed = await member('ed@example.test', 'US', 'CA');
		const headers = { 'sec-gpc': '1' };
		const status = await callApi(app, 'GET', '/api/consent/v1/consent/status', { token: ed.token, headers });
		expect(status.json.do_not_sell_applies).toBe(true);
		const sale = status.json.consents.find((c: { key: string }) => c.key === 'sale_share');
		expect(sale).toMatchObject({ granted: false, source: 'gpc', matrix_version: 2 });
		const ads = status.json.consents.find((c: { key: string }) => c.key === 'personalised_ads');
		expect(ads).toMatchObject({ granted: false, source: 'gpc' });
		await callApi(app, 'GET', '/api/consent/v1/consent/status', { token: ed.token, headers });
		const rows = await database.db.select().from(consentRecords).where(eq(consentRecords.source, 'gpc'));
		expect(rows).toHaveLength(2);
	});

	test('outside the opt-out states the signal changes nothing', async () => {
		const fy = await member('fy@example.test', 'US', 'OH');
		const status = await callApi(app, 'GET', '/api/consent/v1/consent/status', {
			token: fy.token,
			headers: { 'sec-gpc': '1' },
		});
		expect(status.json.do_not_sell_applies).toBe(false);
		expect(status.json.consents.find((c: { key: string }) => c.key === 'sale_share').source).toBeNull();
	});
});

describe('a visitor’s Global Privacy Control opt-out', () => {
	const optOuts = async (who: { token: string }) =>
		(await callApi(app, 'GET', '/api/consent/v1/consent/status', { token: who.token })).json.consents
			.filter((c: { key: string }) => c.key === 'sale_share' || c.key === 'personalised_ads')
			.map((c: { key: string; granted: boolean; source: string | null }) => [c.key, c.granted, c.source]);

	test('kept in the cookie-choices cookie, it becomes the new member’s opt-out wherever they live', async () => {
		const kept = { cookie: `a=1; ${COOKIE_CHOICES_COOKIE}=preferences-on.gpc` };
		const ohio = await member('oh@example.test', 'US', 'OH', undefined, kept);
		expect(await optOuts(ohio)).toEqual([
			['personalised_ads', false, 'gpc'],
			['sale_share', false, 'gpc'],
		]);
		// The signal sent with the signup itself counts as well, in a state whose law does not require it.
		const newYork = await member('ny@example.test', 'US', 'NY', undefined, { 'sec-gpc': '1' });
		expect(await optOuts(newYork)).toEqual([
			['personalised_ads', false, 'gpc'],
			['sale_share', false, 'gpc'],
		]);
		const rows = await database.db.select().from(consentRecords).where(eq(consentRecords.userId, ohio.id));
		expect(rows.filter((row) => row.source === 'gpc')).toHaveLength(2);
	});

	test('a visitor without the signal or the cookie keeps the region’s defaults', async () => {
		const choices = { cookie: `${COOKIE_CHOICES_COOKIE}=preferences-off` };
		const plain = await member('plain@example.test', 'US', 'OH', undefined, choices);
		expect((await optOuts(plain)).map(([, , source]: unknown[]) => source)).toEqual([null, null]);
	});
});

describe('age gate', () => {
	test('a 12-year-old cannot sign up in the US and nothing of them is kept', async () => {
		const response = await callApi(app, 'POST', '/api/auth/signup', {
			body: {
				...{
					first_name: 'Kid',
					last_name: 'Young',
					email: 'kid@example.test',
					password: PASSWORD,
					gender: 'M',
				},
				birthdate: '2014-01-01',
				location: { country: 'US' },
				consents: { terms_of_use: true, privacy_policy: true },
			},
		});
		expect(response.status).toBe(400);
		expect(response.json.error).toBe('birthdate_ineligible');
		const [{ n }] = await database.db.select({ n: sql<number>`count(*)::int` }).from(users);
		expect(n).toBe(0);
	});

	test('the minimum age follows the region: 14 is enough in the US, not in Germany', async () => {
		const body = (email: string, country: string) => ({
			first_name: 'Teen',
			last_name: 'Runner',
			email,
			password: PASSWORD,
			gender: 'F',
			birthdate: '2012-01-01',
			location: { country },
		});
		expect(
			(await callApi(app, 'POST', '/api/auth/signup', { body: body('t1@example.test', 'US') })).status,
		).toBe(201);
		const de = await callApi(app, 'POST', '/api/auth/signup', { body: body('t2@example.test', 'DE') });
		expect(de.json.error).toBe('birthdate_ineligible');
	});

	test('a birthdate change under the minimum age is refused', async () => {
		const gus = await member('gus@example.test', 'US', 'NY');
		const response = await callApi(app, 'PUT', `/api/v7.1/user/${gus.id}/`, {
			token: gus.token,
			body: { birthdate: '2015-06-01' },
		});
		expect(response.status).toBe(400);
		expect(JSON.stringify(response.json)).toContain('ineligible to participate');
	});
});

describe('data export', () => {
	test('the archive holds all of the member’s data and nobody else’s; the link is theirs for 7 days', async () => {
		const hal = await member('hal@example.test', 'US', 'CA');
		const ivy = await member('ivy@example.test', 'DE');
		await addRoute(hal, 'Hal loop');
		await addRoute(ivy, 'Ivy secret loop');
		await importWalk(hal);
		const photo = new FormData();
		const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#0b5cad' } })
			.png()
			.toBuffer();
		photo.append('image', new File([new Uint8Array(png)], 'me.png', { type: 'image/png' }));
		const photoUpload = await app.request(`/api/v7.1/user_profile_photo/${hal.id}/`, {
			method: 'PUT',
			headers: { authorization: `Bearer ${hal.token}` },
			body: photo,
		});
		expect(photoUpload.status).toBe(200);
		await createGear(deps, hal, {
			kind: 'shoes',
			brand: 'Hoka',
			model: 'Clifton',
			nickname: 'Hal shoes',
			start_distance: 1000,
			alert_distance: null,
			retired: false,
		});
		await createGear(deps, ivy, {
			kind: 'bike',
			brand: '',
			model: '',
			nickname: 'Ivy secret bike',
			start_distance: 0,
			alert_distance: null,
			retired: false,
		});

		const asked = await callApi(app, 'POST', '/api/consent/v1/exports', {
			token: hal.token,
			body: { password: PASSWORD },
		});
		expect(asked.status).toBe(202);
		// Asking for everything takes the password again.
		const wrong = await callApi(app, 'POST', '/api/consent/v1/exports', {
			token: ivy.token,
			body: { password: 'not-the-password' },
		});
		expect(wrong.status).toBe(403);
		expect((await callApi(app, 'POST', '/api/consent/v1/exports', { token: ivy.token })).status).toBe(400);
		expect(asked.json.status).toBe('queued');
		const twice = await callApi(app, 'POST', '/api/consent/v1/exports', {
			token: hal.token,
			body: { password: PASSWORD },
		});
		expect(twice.json.id).toBe(asked.json.id);
		await runDueJobs(deps, privacyJobs);

		const list = await callApi(app, 'GET', '/api/consent/v1/exports', { token: hal.token });
		expect(list.json.exports[0]).toMatchObject({ status: 'ready', progress: 100 });
		const mail = await latestMail(deps, 'hal@example.test');
		expect(mail.row?.subject).toBe('Your data export is ready');
		const link = new URL(mail.link as string);
		const token = link.searchParams.get('token') as string;
		const id = Number(link.pathname.split('/').pop());

		const archive = await openExport(deps, hal.id, id, token);
		const entries = await readZip(archive.filePath);
		const names = [...entries.keys()];
		for (const name of [
			'profile.json',
			'settings.json',
			'consents.json',
			'routes.json',
			'workouts.json',
			'goals.json',
			'gear.json',
			'device_connections.json',
			'friends.json',
			'comments.json',
		])
			expect(names).toContain(name);
		expect(names.some((name) => name.startsWith('routes/') && name.endsWith('.gpx'))).toBe(true);
		expect(names.some((name) => name.startsWith('workouts/') && name.endsWith('.tcx'))).toBe(true);
		expect(names.some((name) => name.startsWith('photos/profile.'))).toBe(true);
		const everything = [...entries.values()].map((bytes) => bytes.toString('latin1')).join('\n');
		expect(everything).toContain('Hal loop');
		expect(everything).not.toContain('Ivy secret loop');
		expect(JSON.parse(entries.get('gear.json')?.toString() ?? '[]')).toMatchObject([
			{ kind: 'shoes', nickname: 'Hal shoes', distance_worn: 1000 },
		]);
		expect(everything).not.toContain('Ivy secret bike');
		expect(everything).not.toContain('ivy@example.test');
		expect(JSON.parse(entries.get('profile.json')?.toString() ?? '{}').id).toBe(hal.id);

		// The export read location and health data: the member sees that in their access log.
		const log = await callApi(app, 'GET', '/api/consent/v1/access-log', { token: hal.token });
		expect(log.json.entries.map((entry: { data_kind: string }) => entry.data_kind).sort()).toEqual([
			'health',
			'location',
		]);
		expect(log.json.entries[0].reader).toBe('Data export');
		const other = await callApi(app, 'GET', '/api/consent/v1/access-log', { token: ivy.token });
		expect(other.json.entries).toEqual([]);

		// The privacy centre's own link carries no token: the signed-in owner alone may use it.
		expect((await openExport(deps, hal.id, id, null)).filePath).toBe(archive.filePath);
		await expect(openExport(deps, ivy.id, id, null)).rejects.toMatchObject({ code: 'not_found' });
		// Someone else, a wrong token, or too late: the same "no such export".
		await expect(openExport(deps, ivy.id, id, token)).rejects.toMatchObject({ code: 'not_found' });
		await expect(openExport(deps, hal.id, id, `${token.slice(0, -2)}xx`)).rejects.toMatchObject({
			code: 'not_found',
		});
		advance(7 * 86_400 + 1);
		await expect(openExport(deps, hal.id, id, token)).rejects.toMatchObject({ code: 'not_found' });
		await expect(openExport(deps, hal.id, id, null)).rejects.toMatchObject({ code: 'not_found' });
		// Builds a whole archive of every kind of data: seconds on a quiet machine, several times that on a busy one.
	}, 120_000);
});

/** Asks for the member's export, runs the job and opens the archive through the mailed link. */
async function exportOf(who: { id: number; token: string }, email: string) {
	await callApi(app, 'POST', '/api/consent/v1/exports', { token: who.token, body: { password: PASSWORD } });
	await runDueJobs(deps, privacyJobs);
	const link = new URL((await latestMail(deps, email)).link as string);
	const archive = await openExport(
		deps,
		who.id,
		Number(link.pathname.split('/').pop()),
		link.searchParams.get('token') as string,
	);
	return readZip(archive.filePath);
}
const parsed = (entries: Map<string, Buffer>, name: string) =>
	JSON.parse(entries.get(name)?.toString() ?? 'null');

describe('data export of feed activity and photos', () => {
	test('likes, goal stories, workout photos, bookmarks and blocks are the member’s own, with when', async () => {
		const hal = await member('hal@example.test', 'US', 'CA');
		const ivy = await member('ivy@example.test', 'DE');
		const halRoute = await addRoute(hal, 'Hal loop');
		const ivyRoute = await addRoute(ivy, 'Ivy loop');
		await database.db
			.update(routes)
			.set({ privacy: 3 })
			.where(inArray(routes.id, [halRoute.id, ivyRoute.id]));
		const like = (who: { token: string }, routeId: number) =>
			callApi(app, 'POST', '/api/v7.1/activity_story/', {
				token: who.token,
				body: { verb: 'like', parent_story_id: `route_${routeId}` },
			});
		expect((await like(hal, ivyRoute.id)).status).toBe(201);
		expect((await like(ivy, halRoute.id)).status).toBe(201);
		await createBookmark(deps, hal, ivyRoute.id, undefined);
		await createBookmark(deps, ivy, halRoute.id, undefined);
		expect(
			(await callApi(app, 'POST', '/api/v7.1/block/', { token: ivy.token, body: { user: hal.id } })).status,
		).toBe(204);
		const story = (actorId: number, title: string) => ({
			actorId,
			objectType: 'goal' as const,
			subjectId: actorId,
			period: '2026-06-01',
			publishedAt: deps.clock(),
			title,
			details: {
				type: 'goal' as const,
				goal_id: actorId,
				metric: 'distance' as const,
				target: 20_000,
				activity_group: 'all',
				week_start: '2026-06-01',
			},
		});
		await database.db
			.insert(memberStories)
			.values([story(hal.id, 'Hal ran 20 km'), story(ivy.id, 'Ivy ran 20 km')]);
		const form = new FormData();
		form.append(
			'file',
			new Blob([readFileSync('tests/fixtures/workouts/tcx/walking_activity_1.tcx')]),
			'walk.tcx',
		);
		await app.request('/api/v7.1/device/file_import/', {
			method: 'POST',
			headers: { authorization: `Bearer ${hal.token}` },
			body: form,
		});
		const [workout] = await database.db.select().from(workouts).where(eq(workouts.ownerId, hal.id));
		const jpeg = await sharp({ create: { width: 40, height: 30, channels: 3, background: '#0b5cad' } })
			.jpeg()
			.toBuffer();
		await addWorkoutPhoto(deps, hal, workout.id, jpeg);

		const entries = await exportOf(hal, 'hal@example.test');
		const feed = parsed(entries, 'feed.json');
		expect(feed.likes).toEqual([
			{ on: { type: 'route', id: ivyRoute.id }, created_datetime: expect.any(String) },
		]);
		expect(feed.stories).toEqual([
			expect.objectContaining({ title: 'Hal ran 20 km', about: { type: 'goal', id: hal.id } }),
		]);
		// Ivy blocked Hal: that is Ivy's data, not Hal's.
		expect(feed.blocked_members).toEqual([]);
		// A block hides each member's routes from the other, bookmarks of them too.
		expect(parsed(entries, 'bookmarks.json')).toEqual([]);
		const [exported] = parsed(entries, 'workouts.json');
		expect(exported.photos).toHaveLength(1);
		expect(exported.photos[0]).toMatchObject({ width: 40, height: 30 });
		const photoFile = entries.get(exported.photos[0].file);
		expect((await sharp(photoFile).metadata()).format).toBe('jpeg');
		const everything = [...entries.values()].map((bytes) => bytes.toString('latin1')).join('\n');
		expect(everything).not.toContain('Ivy ran 20 km');
		expect(everything).not.toContain('ivy@example.test');

		const ivys = parsed(await exportOf(ivy, 'ivy@example.test'), 'feed.json');
		expect(ivys.blocked_members).toEqual([{ user: hal.id, created_datetime: expect.any(String) }]);
		expect(ivys.likes).toEqual([
			{ on: { type: 'route', id: halRoute.id }, created_datetime: expect.any(String) },
		]);
	});
});

describe('data export of membership and survey answers', () => {
	test('MVP history and survey answers are the member’s own; cards only by brand and last four', async () => {
		await seedCatalogue({ db: database.db });
		const jo = await member('jo@example.test', 'US', 'CA');
		const kim = await member('kim@example.test', 'US', 'NY');
		const viewerOf = (who: { id: number }) => ({
			id: who.id,
			username: '',
			displayName: '',
			isPremium: false,
		});
		const card = tokenizeLocalCard({ number: '4242 4242 4242 4242', expiry: '12/40', cvc: '123' });
		if ('error' in card) throw new Error(card.error);
		const saved = await addBillingProfile(deps, viewerOf(jo), {
			payment_provider: 'local',
			cc_token: card.token,
			default: true,
		});
		await redeemCouponCode(deps, viewerOf(jo), 'MVP90');
		await database.db.insert(surveyResponses).values([
			{
				userId: jo.id,
				survey: 'customer-2026',
				score: 9,
				mainUse: 'running',
				comment: 'Jo likes the planner',
			},
			{ userId: kim.id, survey: 'customer-2026', dismissed: true, comment: 'Kim said not now' },
		]);

		const jos = await exportOf(jo, 'jo@example.test');
		const membership = parsed(jos, 'membership.json');
		expect(membership.subscriptions).toEqual([
			expect.objectContaining({ status: 'active', trial: true, coupon: 'MVP90' }),
		]);
		expect(membership.cards).toEqual([{ brand: 'visa', last4: '4242', default: true }]);
		expect(membership.coupons).toEqual([{ code: 'MVP90', redeemed: true }]);
		expect(parsed(jos, 'surveys.json')).toEqual([
			expect.objectContaining({ score: 9, main_use: 'running', comment: 'Jo likes the planner' }),
		]);
		const everything = [...jos.values()].map((bytes) => bytes.toString('latin1')).join('\n');
		expect(everything).not.toContain(saved.cc_token);
		expect(everything).not.toContain('Kim said not now');

		const kims = await exportOf(kim, 'kim@example.test');
		expect(parsed(kims, 'membership.json')).toEqual({
			subscriptions: [],
			payments: [],
			cards: [],
			coupons: [],
		});
		expect(parsed(kims, 'surveys.json')).toEqual([expect.objectContaining({ dismissed: true, score: null })]);
	});
});

describe('export job', () => {
	test('a failed build is retried later, and the link is mailed once', async () => {
		const lu = await member('lu@example.test', 'US', 'NY');
		// The archive folder cannot be made: the first try fails.
		mkdirSync(dataDir, { recursive: true });
		writeFileSync(exportFolder(deps.config), 'not a folder');
		const asked = await callApi(app, 'POST', '/api/consent/v1/exports', {
			token: lu.token,
			body: { password: PASSWORD },
		});
		expect(await runDueJobs(deps, privacyJobs)).toBe(1);
		const first = await callApi(app, 'GET', '/api/consent/v1/exports', { token: lu.token });
		expect(first.json.exports[0]).toMatchObject({ id: asked.json.id, status: 'building' });

		rmSync(exportFolder(deps.config), { force: true });
		advance(3600);
		expect(await runDueJobs(deps, privacyJobs)).toBe(1);
		// (The access token has expired by now; the service answers for the member.)
		const [done] = await listExports(deps, lu.id);
		expect(done).toMatchObject({ status: 'ready', progress: 100 });
		// Running the build again (a process that died after mailing) sends nothing more.
		await buildExport(deps, asked.json.id);
		await flushMail();
		const mails = await database.db
			.select()
			.from(outboxMessages)
			.where(eq(outboxMessages.toAddress, 'lu@example.test'));
		expect(mails.filter((mail) => mail.subject === 'Your data export is ready')).toHaveLength(1);

		// Once the link expired, the hourly upkeep takes the archive off the disk.
		advance(8 * 86_400);
		expect(await removeExpiredExports(deps)).toBe(1);
		expect(readdirSync(exportFolder(deps.config))).toEqual([]);
	});
});

/** A walk imported from a device file; its workout id. */
async function importWalk(who: Awaited<ReturnType<typeof member>>): Promise<number> {
	const form = new FormData();
	form.append(
		'file',
		new Blob([readFileSync('tests/fixtures/workouts/tcx/walking_activity_1.tcx')]),
		'walk.tcx',
	);
	const run = await app.request('/api/v7.1/device/file_import/', {
		method: 'POST',
		headers: { authorization: `Bearer ${who.token}` },
		body: form,
	});
	expect(run.status).toBe(201);
	return ((await run.json()) as { id: number }).id;
}

/** A walk imported from a device file, with one photo of `width` × `height`; its workout id. */
async function walkWithPhoto(who: Awaited<ReturnType<typeof member>>, width: number, height: number) {
	const workoutId = await importWalk(who);
	const jpeg = await sharp({ create: { width, height, channels: 3, background: '#0b5cad' } })
		.jpeg()
		.toBuffer();
	await addWorkoutPhoto(deps, who, workoutId, jpeg);
	return workoutId;
}

describe('export job on a full disk', () => {
	test.each([
		['before the first entry', 0],
		['part way through the archive', 3000],
	])(
		'a disk full %s leaves no archive, never marks it ready, and the job tries again later',
		async (_when, roomLeft) => {
			const mo = await member('mo@example.test', 'US', 'NY');
			// A device file: reading its original back lets the event loop turn mid-build, as a
			// database across the network does, so a failed write surfaces while entries are still added.
			await walkWithPhoto(mo, 640, 480);
			const asked = await callApi(app, 'POST', '/api/consent/v1/exports', {
				token: mo.token,
				body: { password: PASSWORD },
			});
			const disk = fillDisk(exportFolder(deps.config), { roomLeft });
			// A write that fails while nothing awaits the archive yet must not go unhandled.
			const unhandled: unknown[] = [];
			const onUnhandled = (reason: unknown) => unhandled.push(reason);
			process.on('unhandledRejection', onUnhandled);
			try {
				expect(await runDueJobs(deps, privacyJobs)).toBe(1);
				expect(disk.refused).toBe(1);
			} finally {
				disk.restore();
				process.off('unhandledRejection', onUnhandled);
			}
			expect(unhandled).toEqual([]);
			expect(readdirSync(exportFolder(deps.config))).toEqual([]);
			const [tried] = await listExports(deps, mo.id);
			expect(tried).toMatchObject({ id: asked.json.id, status: 'building', bytes: null });
			const [job] = await database.db.select().from(jobs).where(eq(jobs.kind, 'privacy.export'));
			expect(job).toMatchObject({
				status: 'queued',
				attempts: 1,
				lastError: expect.stringContaining('ENOSPC'),
			});
			expect(job.runAt.getTime()).toBeGreaterThan(deps.clock().getTime());
			await flushMail();
			const mailed = await database.db
				.select()
				.from(outboxMessages)
				.where(eq(outboxMessages.toAddress, 'mo@example.test'));
			expect(mailed.filter((mail) => mail.subject === 'Your data export is ready')).toEqual([]);

			// With room again, the next try builds the whole archive.
			advance(3600);
			expect(await runDueJobs(deps, privacyJobs)).toBe(1);
			const [done] = await listExports(deps, mo.id);
			expect(done).toMatchObject({ status: 'ready', progress: 100 });
			const archives = readdirSync(exportFolder(deps.config));
			expect(archives).toHaveLength(1);
			const archive = path.join(exportFolder(deps.config), archives[0]);
			expect(statSync(archive).size).toBeGreaterThan(roomLeft);
			const entries = await readZip(archive);
			expect(parsed(entries, 'workouts.json')[0].photos).toHaveLength(1);
		},
	);
});

describe('export job with a photo gone from the disk', () => {
	test('fails that try, leaves no archive and keeps the server running', async () => {
		const lu = await member('lu@example.test', 'US', 'TX');
		const workoutId = await walkWithPhoto(lu, 64, 48);
		// Taken off the disk behind the product's back (a restore that missed the uploads, say).
		rmSync(workoutPhotoFolder(deps.config, lu.id, workoutId), { recursive: true, force: true });
		await callApi(app, 'POST', '/api/consent/v1/exports', { token: lu.token, body: { password: PASSWORD } });

		expect(await runDueJobs(deps, privacyJobs)).toBe(1);
		expect(readdirSync(exportFolder(deps.config))).toEqual([]);
		const [job] = await database.db.select().from(jobs).where(eq(jobs.kind, 'privacy.export'));
		expect(job).toMatchObject({
			status: 'queued',
			attempts: 1,
			lastError: expect.stringContaining('ENOENT'),
		});
		const [tried] = await listExports(deps, lu.id);
		expect(tried).toMatchObject({ status: 'building', bytes: null });
	});
});

describe('account deletion', () => {
	test('removes the member from every table and their archives from disk', async () => {
		const jo = await member('jo@example.test', 'US', 'TX');
		const kim = await member('kim@example.test', 'US', 'TX');
		await addRoute(jo, 'Jo route');
		const logged = await callApi(app, 'POST', '/api/v7.1/workout/', {
			token: jo.token,
			body: {
				name: 'Jo run',
				start_datetime: '2026-05-01T07:00:00+00:00',
				activity_type: 16,
				aggregates: { distance_total: 5000, active_time_total: 1800 },
			},
		});
		expect(logged.status).toBe(201);
		await callApi(app, 'POST', '/api/v7.1/friendship/', {
			token: jo.token,
			body: { _links: { to_user: [{ id: String(kim.id) }] } },
		});
		await callApi(app, 'GET', '/api/consent/v1/consent/status', {
			token: jo.token,
			headers: { 'sec-gpc': '1' },
		});
		await callApi(app, 'POST', '/api/consent/v1/exports', { token: jo.token, body: { password: PASSWORD } });
		await runDueJobs(deps, privacyJobs);
		expect(readdirSync(exportFolder(deps.config)).length).toBeGreaterThan(0);

		const deleted = await callApi(app, 'DELETE', `/api/auth/deletion-request/${jo.id}`, {
			token: jo.token,
			body: { password: PASSWORD },
		});
		expect(deleted.status).toBe(200);

		// Every column that names a member, with or without a foreign key, is scanned for the id.
		const columns = (await database.db.execute(sql`
			select c.table_name, c.column_name from information_schema.columns c
			where c.table_schema = 'public' and c.data_type in ('integer', 'bigint')
			and (c.column_name ~ '(^|_)(user|owner|author|actor|member|blocker|blocked|from_user|to_user|created_by|friend)(_id)?$'
				or c.column_name ~ '_user_id$' or (c.table_name = 'users' and c.column_name = 'id'))
		`)) as unknown as { rows: { table_name: string; column_name: string }[] };
		expect(columns.rows.length).toBeGreaterThan(15);
		for (const { table_name, column_name } of columns.rows) {
			const found = (await database.db.execute(
				sql.raw(`select count(*)::int as n from "${table_name}" where "${column_name}" = ${jo.id}`),
			)) as unknown as { rows: { n: number }[] };
			expect({ table: table_name, column: column_name, rows: found.rows[0].n }).toEqual({
				table: table_name,
				column: column_name,
				rows: 0,
			});
		}
		expect(readdirSync(exportFolder(deps.config))).toEqual([]);
		expect(existsSync(dataDir)).toBe(true);
		// The old token is refused.
		expect((await callApi(app, 'GET', '/api/consent/v1/consent/status', { token: jo.token })).status).toBe(
			401,
		);
	});
});
