import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { signupBody, signupMember } from '../auth/helpers';
import { linePayload } from '../routes/helpers';

let database: TestDatabase;
let app: ReturnType<typeof createTestApi>;
let member: { id: number; token: string };

/** What PostgreSQL refuses to store (NUL, lone surrogates) and what no keyboard types (other C0). */
const HOSTILE = { nul: 'a\u0000b', loneHigh: 'a\ud800b', loneLow: '\udc00', bell: 'a\u0007b' };

beforeAll(async () => {
	database = await openTestDb();
	app = createTestApi(createTestDeps(database.db), {
		routes: [createAuthApi(), createAccountApi(), createRoutesApi()],
	});
});
beforeEach(async () => {
	await database.reset();
	member = await signupMember(app);
});
afterAll(() => database.close());

/** Sets `value` at a dotted path of a copy of `body`. */
function withField(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
	const copy = structuredClone(body);
	const keys = path.split('.');
	let holder = copy as Record<string, unknown>;
	for (const key of keys.slice(0, -1)) {
		holder[key] ??= {};
		holder = holder[key] as Record<string, unknown>;
	}
	holder[keys.at(-1) as string] = value;
	return copy;
}

/** The main API names the refused field in `_diagnostics.validation_failures`. */
function expectMainApiRefusal(response: Awaited<ReturnType<typeof callApi>>, field: string) {
	expect(response.status, response.text).toBe(400);
	const fields = response.json._diagnostics.validation_failures.flatMap((failure: object) =>
		Object.keys(failure),
	);
	expect(fields).toContain(field);
}

describe('text no keyboard types is refused with 400 naming the field', () => {
	test.each(
		[
			'first_name',
			'last_name',
			'email',
			'location.region',
			'location.locality',
			'consent_matrix_version',
			'gdpr_iso_code',
			'appName',
		].flatMap((field) => Object.entries(HOSTILE).map(([kind, value]) => [field, kind, value] as const)),
	)('signup %s with %s answers {field}_invalid_format', async (field, _kind, value) => {
		const body = withField(signupBody({ email: 'new@example.test' }), field, value);
		const response = await callApi(app, 'POST', '/api/auth/signup', { body });
		expect(response.status, response.text).toBe(400);
		expect(response.json.error).toBe(`${field.split('.').pop()}_invalid_format`);
	});

	test('signup consents with a hostile name answer consents_invalid_format', async () => {
		const body = signupBody({ email: 'new@example.test', consents: { [HOSTILE.nul]: true } });
		const response = await callApi(app, 'POST', '/api/auth/signup', { body });
		expect(response.status).toBe(400);
		expect(response.json.error).toBe('consents_invalid_format');
		expect(response.text).not.toContain('\\u0000');
	});

	test('login and the member search refuse a NUL in the email instead of failing in the database', async () => {
		const login = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: `ada${HOSTILE.nul}@example.test`, password: 'whatever-password' },
		});
		expect(login.status).toBe(400);
		expect(login.json.error).toBe('email_invalid_format');
		const search = await callApi(app, 'GET', '/api/auth/find-user-by-email/ada%00%40example.test', {
			token: member.token,
		});
		expect(search.status).toBe(400);
		expect(search.json.error).toBe('email_invalid_format');
	});

	test.each([
		'first_name',
		'last_name',
		'display_name',
		'goal_statement',
		'introduction',
		'location.locality',
	])('the profile field %s', async (field) => {
		for (const value of [HOSTILE.nul, HOSTILE.loneHigh, HOSTILE.loneLow]) {
			const body = withField({}, field, value);
			const response = await callApi(app, 'PUT', `/api/v7.1/user/${member.id}/`, {
				token: member.token,
				body,
			});
			expectMainApiRefusal(response, field);
		}
	});

	test('multi-line profile text keeps its line breaks and tabs; single-line text refuses them', async () => {
		const kept = await callApi(app, 'PUT', `/api/v7.1/user/${member.id}/`, {
			token: member.token,
			body: { introduction: 'Runs:\n\tmornings\r\n\tweekends', goal_statement: 'Sub 20 🏃' },
		});
		expect(kept.status, kept.text).toBe(200);
		expect(kept.json.introduction).toBe('Runs:\n\tmornings\r\n\tweekends');
		expect(kept.json.goal_statement).toBe('Sub 20 🏃');
		const refused = await callApi(app, 'PUT', `/api/v7.1/user/${member.id}/`, {
			token: member.token,
			body: { display_name: 'Ada\nRunner' },
		});
		expectMainApiRefusal(refused, 'display_name');
	});

	test.each(['privacy_standard', 'region'])('the promotional preference %s', async (field) => {
		const body = { choice: true, [field]: HOSTILE.nul };
		for (const method of ['POST', 'PUT']) {
			const response = await callApi(app, method, '/api/v7.1/promotional_preference/', {
				token: member.token,
				body,
			});
			expectMainApiRefusal(response, field);
		}
	});

	test.each(['name', 'description', 'city', 'state', 'notes'])('a saved route’s %s', async (field) => {
		for (const value of [HOSTILE.nul, HOSTILE.loneHigh]) {
			const body = withField(linePayload('Hill'), field, value);
			expectMainApiRefusal(
				await callApi(app, 'POST', '/api/v7.1/route/', { token: member.token, body }),
				field,
			);
		}
		const created = await callApi(app, 'POST', '/api/v7.1/route/', {
			token: member.token,
			body: linePayload('Hill'),
		});
		const body = withField(linePayload('Hill'), field, HOSTILE.nul);
		expectMainApiRefusal(
			await callApi(app, 'PUT', `/api/v7.1/route/${created.json.id}/`, { token: member.token, body }),
			field,
		);
	});

	test('a route marker text and the route search text', async () => {
		const body = {
			...linePayload('Hill'),
			markers: [{ lat: 40.27, lng: -76.88, text: HOSTILE.loneHigh, icon_id: 2016 }],
		};
		expectMainApiRefusal(
			await callApi(app, 'POST', '/api/v7.1/route/', { token: member.token, body }),
			'markers.0.text',
		);
		expectMainApiRefusal(await callApi(app, 'GET', '/api/v7.1/route/?text_search=a%00b'), 'text_search');
	});

	test('the GPX upload’s ?name=', async () => {
		const gpx =
			'<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="40.27" lon="-76.88"/><trkpt lat="40.28" lon="-76.88"/></trkseg></trk></gpx>';
		const upload = (name: string) =>
			callApi(app, 'POST', `/api/v7.1/route/upload/?name=${name}`, {
				token: member.token,
				headers: { 'content-type': 'application/octet-stream' },
				body: gpx,
			});
		expectMainApiRefusal(await upload('a%00b'), 'name');
		expect((await upload('River%20run')).status).toBe(201);
	});
});

describe('text a file carries is cleaned, not refused', () => {
	test('a GPX whose names hold NUL, control characters and a lone surrogate imports with clean names', async () => {
		const gpx = `<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><metadata><name>River\u0000 Loop&#1;&#xD800;</name></metadata><wpt lat="40.275" lon="-76.88"><name>Tap&#xDC00;\u0007</name></wpt><trk><trkseg><trkpt lat="40.27" lon="-76.88"/><trkpt lat="40.28" lon="-76.88"/></trkseg></trk></gpx>`;
		const response = await callApi(app, 'POST', '/api/v7.1/route/upload/', {
			token: member.token,
			headers: { 'content-type': 'application/octet-stream' },
			body: gpx,
		});
		expect(response.status, response.text).toBe(201);
		expect(response.json.name).toBe('River Loop\uFFFD');
		expect(response.json.markers.map((marker: { text: string }) => marker.text)).toEqual(['Tap\uFFFD']);
	});
});
