import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { loadApiModules } from '../../../src/lib/api/modules';
import { readConfig } from '../../../src/lib/core/config';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { TEST_CACHE_DIR } from '../../unit/routing/region-cache';
import { signupBody } from '../auth/helpers';
import { linePayload } from '../routes/helpers';

/**
 * Every operation of /api/openapi.json (and every other endpoint the app answers), called with
 * hostile input as a visitor and as a member: NUL and lone surrogates, over-long text, wrong
 * types, impossible numbers, unknown fields, empty and malformed bodies, odd ids. Any answer of
 * 500 or above is a bug; the failure names the operation and the request that caused it.
 */

/** Runs per operation; with a fixed seed the same requests are sent every time. */
const RUNS_PER_OPERATION = 40;
const SEED = 20_261_123;

type JsonSchema = {
	type?: string | string[];
	enum?: unknown[];
	const?: unknown;
	pattern?: string;
	minLength?: number;
	maxLength?: number;
	minimum?: number;
	maximum?: number;
	items?: JsonSchema;
	minItems?: number;
	maxItems?: number;
	properties?: Record<string, JsonSchema>;
	required?: string[];
	additionalProperties?: boolean | JsonSchema;
	anyOf?: JsonSchema[];
	oneOf?: JsonSchema[];
	allOf?: JsonSchema[];
	default?: unknown;
};
type Parameter = { in: 'path' | 'query' | 'header' | 'cookie'; name: string; schema?: JsonSchema };
type Operation = {
	method: string;
	/** The OpenAPI path, `{name}` for a path parameter. */
	path: string;
	parameters: Parameter[];
	body?: JsonSchema;
	/** Listed in /api/openapi.json (the rest are found in the app's own route table). */
	documented: boolean;
};

/** Text PostgreSQL refuses to store, and text no keyboard types. */
const HOSTILE_TEXT = [
	'a\u0000b',
	'\u0000',
	'\ud800',
	'x\udc00y',
	'\ud83d',
	'bell\u0007',
	'line\nbreak',
	'\u202e',
];
const LONG_TEXT = ['x'.repeat(5_000), 'é'.repeat(70_000), '\u{1F3C3}'.repeat(20_000)];
/** Marks a number JSON can carry but JSON.stringify cannot write: replaced in the body text. */
const RAW_NUMBERS = ['1e999', '-1e999', '-0', '1e-400', '123456789012345678901234567890'];
const rawMarker = (raw: string) => `\u0001raw:${raw}\u0001`;

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
	fc.constantFrom(...HOSTILE_TEXT),
	fc.constantFrom(...LONG_TEXT),
	fc.constantFrom(-1, 0, -0.5, 0.5, 1e308, -1e308, 2 ** 53 + 1, -(2 ** 31), 2 ** 31),
	fc.constantFrom(...RAW_NUMBERS.map(rawMarker)),
	fc.constantFrom(null, true, false, {}, [], [null], { $ne: 1 }, 'NaN', 'Infinity', '', ' '),
	fc.string({ unit: 'binary', maxLength: 12 }),
);

/** Unknown fields a client may slip in: ownership, privileges, prototype keys. */
const unknownFields = fc.dictionary(
	fc.constantFrom(
		'is_admin',
		'user_id',
		'owner',
		'id',
		'__proto__',
		'constructor',
		'premium_until',
		'\u0000',
	),
	hostileScalar,
	{ maxKeys: 2 },
);

/** A value that follows the schema (so the request gets past validation and into the services). */
function validValue(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
	if (!schema || depth > 6) return fc.constant('x');
	if (schema.enum) return fc.constantFrom(...schema.enum);
	if (schema.const !== undefined) return fc.constant(schema.const);
	const options = schema.anyOf ?? schema.oneOf;
	if (options) return fc.oneof(...options.map((option) => validValue(option, depth + 1)));
	if (schema.allOf?.length) return validValue(schema.allOf[0], depth + 1);
	const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
	switch (type) {
		case 'string': {
			if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern));
			const maxLength = Math.min(schema.maxLength ?? 20, 20);
			const minLength = Math.min(schema.minLength ?? 0, maxLength);
			return fc.string({ minLength, maxLength, unit: 'grapheme' });
		}
		case 'integer':
			return fc.integer({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000 });
		case 'number':
			return fc.double({ min: schema.minimum ?? -1_000, max: schema.maximum ?? 1_000_000, noNaN: true });
		case 'boolean':
			return fc.boolean();
		case 'null':
			return fc.constant(null);
		case 'array': {
			const minLength = Math.min(schema.minItems ?? 0, 12);
			const maxLength = Math.max(minLength, Math.min(schema.maxItems ?? 3, minLength + 3));
			return fc.array(anyValue(schema.items, depth + 1), { minLength, maxLength });
		}
		case 'object': {
			const properties = schema.properties ?? {};
			const record = fc.record(
				Object.fromEntries(
					Object.entries(properties).map(([key, value]) => [key, anyValue(value, depth + 1)]),
				),
				{ requiredKeys: (schema.required ?? []).filter((key) => key in properties) },
			);
			const extra =
				typeof schema.additionalProperties === 'object'
					? fc.dictionary(fc.string({ maxLength: 8 }), anyValue(schema.additionalProperties, depth + 1), {
							maxKeys: 3,
						})
					: fc.constant({});
			return fc.tuple(record, extra).map(([known, more]) => ({ ...more, ...known }));
		}
		default:
			return fc.oneof(fc.string({ maxLength: 8 }), fc.integer(), fc.constant(null));
	}
}

/** Mostly what the schema asks for; now and then something hostile in its place. */
function anyValue(schema: JsonSchema | undefined, depth = 0): fc.Arbitrary<unknown> {
	return fc.oneof(
		{ arbitrary: validValue(schema, depth), weight: 6 },
		{ arbitrary: hostileScalar, weight: 1 },
	);
}

function jsonBody(schema: JsonSchema | undefined): fc.Arbitrary<unknown> {
	return fc
		.tuple(anyValue(schema ?? { type: 'object' }), unknownFields, fc.boolean())
		.map(([value, extra, addExtra]) =>
			addExtra && value && typeof value === 'object' && !Array.isArray(value)
				? { ...extra, ...value }
				: value,
		);
}

/** Body text that is not JSON, or JSON of the wrong shape. */
const MALFORMED_BODIES = [
	'',
	'{',
	'{"name":',
	'null',
	'[]',
	'"text"',
	'1e999',
	'{"a":1,"a":2}',
	'\u0000',
	'{"__proto__":{"is_admin":true}}',
	'['.repeat(20_000),
	`{"name":"${'\\ud800'}"}`,
	`{"name":"a${'\\u0000'}b"}`,
];
/** A GPX file whose names are hostile, for the upload endpoints. */
const HOSTILE_GPX = `<?xml version="1.0"?><gpx version="1.1" creator="\u0000" xmlns="http://www.topografix.com/GPX/1/1"><metadata><name>a\u0000b&#xD800;&#1;</name></metadata><wpt lat="40.275" lon="-76.88"><name>&#xDC00;</name></wpt><trk><trkseg><trkpt lat="40.27" lon="-76.88"/><trkpt lat="40.28" lon="-76.88"/></trkseg></trk></gpx>`;

type Body = { contentType?: string; text?: string };

/** Files as the upload and photo endpoints take them, with hostile names inside and out. */
const FILE_BODIES: Body[] = [
	{ contentType: 'application/octet-stream', text: HOSTILE_GPX },
	{
		contentType: 'multipart/form-data; boundary=b',
		text: `--b\r\nContent-Disposition: form-data; name="file"; filename="\u0000.gpx"\r\n\r\n${HOSTILE_GPX}\r\n--b--\r\n`,
	},
	{
		contentType: 'multipart/form-data; boundary=b',
		text: '--b\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\u0089PNG\r\n--b--\r\n',
	},
];

function bodyFor(operation: Operation): fc.Arbitrary<Body> {
	const json = jsonBody(operation.body).map((value) => ({
		contentType: 'application/json',
		text: JSON.stringify(value).replace(/"\\u0001raw:([^"\\]*)\\u0001"/g, '$1'),
	}));
	return fc.oneof(
		{ arbitrary: json, weight: 6 },
		{
			arbitrary: fc.record({
				contentType: fc.constantFrom(
					'application/json',
					'text/plain',
					'multipart/form-data',
					'application/x-www-form-urlencoded',
				),
				text: fc.constantFrom(...MALFORMED_BODIES),
			}),
			weight: 2,
		},
		{ arbitrary: fc.constantFrom(...FILE_BODIES), weight: 1 },
		{ arbitrary: fc.constant<Body>({}), weight: 1 },
	);
}

/** Path and query text already written for a URL: odd ids, NUL, a lone surrogate's bytes, broken escapes. */
const HOSTILE_URL_TEXT = [
	'0',
	'-1',
	'99999999999999999999',
	'%00',
	'a%00b',
	'..%2f',
	'..%2F..%2Fetc%2Fpasswd',
	'%ED%A0%80',
	'%',
	'%zz',
	'1e999',
	'NaN',
	'Infinity',
	'1.5',
	'1,2,3',
	`${'1,'.repeat(150)}1`,
	'x'.repeat(3_000),
	'%20',
	'',
];

function urlValue(schema: JsonSchema | undefined, known: string[]): fc.Arbitrary<string> {
	return fc.oneof(
		{
			arbitrary: validValue(schema ?? { type: 'string' }).map((value) => encodeURIComponent(String(value))),
			weight: 3,
		},
		{ arbitrary: fc.constantFrom(...known), weight: 2 },
		{ arbitrary: fc.constantFrom(...HOSTILE_URL_TEXT), weight: 3 },
	);
}

type Call = { method: string; url: string; as: 'visitor' | 'member' | 'bad token'; body: Body };

function callFor(operation: Operation, queryNames: string[], known: string[]): fc.Arbitrary<Call> {
	const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path');
	const queryParams = operation.parameters.filter((parameter) => parameter.in === 'query');
	const path = fc
		.tuple(...pathParams.map((parameter) => urlValue(parameter.schema, known)))
		.map((values) =>
			pathParams.reduce(
				(text, parameter, index) => text.replace(`{${parameter.name}}`, values[index]),
				operation.path,
			),
		);
	const query = fc
		.tuple(
			fc.tuple(
				...queryParams.map((parameter) => fc.option(urlValue(parameter.schema, known), { nil: undefined })),
			),
			fc.array(fc.tuple(fc.constantFrom(...queryNames), urlValue(undefined, known)), { maxLength: 2 }),
		)
		.map(([values, extra]) =>
			[
				...queryParams.flatMap((parameter, index) =>
					values[index] === undefined ? [] : [`${parameter.name}=${values[index]}`],
				),
				...extra.map(([name, value]) => `${name}=${value}`),
			].join('&'),
		);
	const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(operation.method);
	return fc.record({
		method: fc.constant(operation.method),
		url: fc.tuple(path, query).map(([base, search]) => (search ? `${base}?${search}` : base)),
		as: fc.constantFrom('visitor', 'member', 'member', 'bad token'),
		body: hasBody ? bodyFor(operation) : fc.constant<Body>({}),
	});
}

/** The operations of the spec, then every other endpoint of the app's route table. */
function listOperations(
	spec: {
		paths: Record<
			string,
			Record<
				string,
				{ parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }
			>
		>;
	},
	routes: { method: string; path: string }[],
): Operation[] {
	const operations: Operation[] = [];
	const seen = new Set<string>();
	for (const [path, methods] of Object.entries(spec.paths)) {
		for (const [method, operation] of Object.entries(methods)) {
			const upper = method.toUpperCase();
			seen.add(`${upper} ${path}`);
			operations.push({
				method: upper,
				path,
				parameters: operation.parameters ?? [],
				body: operation.requestBody?.content?.['application/json']?.schema,
				documented: true,
			});
		}
	}
	for (const route of routes) {
		if (route.method === 'ALL' || route.path.includes('*')) continue;
		const path = route.path.replace(/:(\w+)/g, '{$1}');
		if (seen.has(`${route.method} ${path}`)) continue;
		seen.add(`${route.method} ${path}`);
		const parameters = [...path.matchAll(/\{(\w+)\}/g)].map(
			([, name]): Parameter => ({ in: 'path', name, schema: { type: 'string' } }),
		);
		operations.push({ method: route.method, path, parameters, documented: false });
	}
	return operations;
}

/** The smallest request value the schema accepts: required fields only, defaults where given. */
function baseValue(schema: JsonSchema | undefined, depth = 0): unknown {
	if (!schema || depth > 8) return 'x';
	if (schema.default !== undefined) return schema.default;
	if (schema.enum) return schema.enum[0];
	if (schema.const !== undefined) return schema.const;
	const options = schema.anyOf ?? schema.oneOf;
	if (options) return baseValue(options[0], depth + 1);
	const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
	const clamp = (value: number) =>
		Math.min(Math.max(value, schema.minimum ?? value), schema.maximum ?? value);
	switch (type) {
		case 'string':
			return schema.pattern
				? fc.sample(fc.stringMatching(new RegExp(schema.pattern)), { seed: SEED, numRuns: 1 })[0]
				: 'Hill'.padEnd(schema.minLength ?? 0, 'x');
		case 'integer':
		case 'number':
			return clamp(1);
		case 'boolean':
			return false;
		case 'null':
			return null;
		case 'array':
			return Array.from({ length: schema.minItems ?? 0 }, () => baseValue(schema.items, depth + 1));
		case 'object':
			return Object.fromEntries(
				(schema.required ?? []).map((key) => [key, baseValue(schema.properties?.[key], depth + 1)]),
			);
		default:
			return 'x';
	}
}

/** Paths to every text field of a body schema; `0` stands for an array's first item. */
function textFieldPaths(schema: JsonSchema | undefined, prefix: string[] = [], depth = 0): string[][] {
	if (!schema || depth > 8) return [];
	const options = schema.anyOf ?? schema.oneOf;
	if (options) return options.flatMap((option) => textFieldPaths(option, prefix, depth + 1)).slice(0, 1);
	const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
	if (type === 'string' && !schema.enum) return [prefix];
	if (type === 'array') return textFieldPaths(schema.items, [...prefix, '0'], depth + 1);
	if (type === 'object') {
		const named = Object.entries(schema.properties ?? {}).flatMap(([key, value]) =>
			textFieldPaths(value, [...prefix, key], depth + 1),
		);
		return typeof schema.additionalProperties === 'object' ? [...named, [...prefix, 'a\u0000b']] : named;
	}
	return [];
}

/** The base body with one field set, creating what leads to it from the schema's own base values. */
function withField(schema: JsonSchema | undefined, base: unknown, path: string[], value: unknown): unknown {
	if (path.length === 0) return value;
	const [head, ...rest] = path;
	const options = schema?.anyOf ?? schema?.oneOf;
	const shape = options ? options[0] : schema;
	if (head === '0' && shape?.type === 'array') {
		const items = Array.isArray(base) && base.length > 0 ? [...base] : [baseValue(shape.items)];
		items[0] = withField(shape.items, items[0], rest, value);
		return items;
	}
	const child =
		shape?.properties?.[head] ??
		(typeof shape?.additionalProperties === 'object' ? shape.additionalProperties : undefined);
	const holder = (base && typeof base === 'object' ? base : {}) as Record<string, unknown>;
	return { ...holder, [head]: withField(child, holder[head] ?? baseValue(child), rest, value) };
}

/** Text that must never reach the database raw, one field at a time. */
const SWEEP_TEXT = ['a\u0000b', '\ud800', 'x\udc00y', 'bell\u0007'];
const SWEEP_URL_TEXT = ['a%00b', '%00', '%ED%A0%80', '%01', '..%2f', '99999999999999999999', '-1', '0'];

/**
 * Calls built one field at a time from a request the schema accepts, so hostile text in that one
 * field travels as far into the service as it can; random calls rarely get every other field right.
 */
function sweepCalls(operation: Operation, known: string[]): Call[] {
	const pathParams = operation.parameters.filter((parameter) => parameter.in === 'path');
	const queryParams = operation.parameters.filter((parameter) => parameter.in === 'query');
	const fits = (parameter: Parameter, value: string) =>
		!parameter.schema?.pattern || new RegExp(parameter.schema.pattern).test(decodeURIComponent(value));
	const idChoices = (parameter: Parameter) => {
		const fitting = known.filter((value) => fits(parameter, value));
		return fitting.length ? fitting : [encodeURIComponent(String(baseValue(parameter.schema)))];
	};
	// Every combination of known ids for the path parameters (a member's own route, another's, …).
	let paths = [operation.path];
	for (const parameter of pathParams)
		paths = paths.flatMap((path) =>
			idChoices(parameter).map((id) => path.replace(`{${parameter.name}}`, id)),
		);
	const calls: Call[] = [];
	const hasBody = ['POST', 'PUT', 'PATCH', 'DELETE'].includes(operation.method);
	const base = baseValue(operation.body ?? { type: 'object' });
	const json = (value: unknown): Body => ({ contentType: 'application/json', text: JSON.stringify(value) });
	for (const path of paths) {
		for (const as of ['member', 'visitor'] as const) {
			calls.push({ method: operation.method, url: path, as, body: hasBody ? json(base) : {} });
			for (const field of textFieldPaths(operation.body))
				for (const text of SWEEP_TEXT)
					calls.push({
						method: operation.method,
						url: path,
						as,
						body: json(withField(operation.body, base, field, text)),
					});
			for (const parameter of queryParams)
				for (const text of SWEEP_URL_TEXT)
					calls.push({
						method: operation.method,
						url: `${path}?${parameter.name}=${text}`,
						as,
						body: hasBody ? json(base) : {},
					});
			if (hasBody)
				for (const body of FILE_BODIES) calls.push({ method: operation.method, url: path, as, body });
		}
	}
	for (const index of pathParams.keys())
		for (const text of SWEEP_URL_TEXT) {
			const url = pathParams.reduce(
				(path, other, otherIndex) =>
					path.replace(`{${other.name}}`, otherIndex === index ? text : idChoices(other)[0]),
				operation.path,
			);
			calls.push({ method: operation.method, url, as: 'member', body: hasBody ? json(base) : {} });
		}
	return calls;
}

let database: TestDatabase;
let dataDir: string;
let app: ReturnType<typeof createTestApi>;
let operations: Operation[];
let memberToken: string;
const known: string[] = [];

beforeAll(async () => {
	database = await openTestDb();
	// The routing engine reads the graphs the routing tests build once, instead of building its own.
	dataDir = mkdtempSync(join(tmpdir(), 'mapstride-fuzz-'));
	mkdirSync(TEST_CACHE_DIR, { recursive: true });
	symlinkSync(TEST_CACHE_DIR, join(dataDir, 'routing-cache'));
	const deps = createTestDeps(database.db, {
		config: readConfig({
			NODE_ENV: 'test',
			PUBLIC_URL: 'http://localhost:4321',
			DATA_DIR: dataDir,
			API_RATE_LIMIT: '0',
		}),
	});
	app = createTestApi(deps, await loadApiModules(deps));

	const member = await callApi(app, 'POST', '/api/auth/signup', { body: signupBody() });
	expect(member.status, member.text).toBe(201);
	memberToken = member.json.access_token;
	const other = await callApi(app, 'POST', '/api/auth/signup', {
		body: signupBody({ email: 'bo@example.test' }),
	});
	const shared = await callApi(app, 'POST', '/api/v7.1/route/', {
		token: other.json.access_token,
		body: linePayload('Shared loop', { privacy: 6 }),
	});
	const own = await callApi(app, 'POST', '/api/v7.1/route/', {
		token: memberToken,
		body: linePayload('Own loop'),
	});
	await callApi(app, 'POST', '/api/v7.1/route_bookmark/', {
		token: memberToken,
		body: { _links: { route: [{ id: String(own.json.id) }] } },
	});
	// A resumable upload of the member's, so hostile PATCH and HEAD requests reach the tus server.
	const upload = await app.request('/api/workout_uploads/', {
		method: 'POST',
		headers: {
			authorization: `Bearer ${memberToken}`,
			'tus-resumable': '1.0.0',
			'upload-length': '2000',
			'upload-metadata': `filename ${btoa('ride.gpx')}`,
		},
	});
	expect(upload.status).toBe(201);
	// Real ids and tokens, so some requests reach the services with something to find.
	known.push(
		String(upload.headers.get('location')?.split('/').at(-1)),
		String(member.json.user.id),
		String(other.json.user.id),
		String(own.json.id),
		String(shared.json.id),
		encodeURIComponent(shared.json.share_token),
		'self',
	);
	known.splice(0, known.length, ...new Set(known));

	const spec = await callApi(app, 'GET', '/api/openapi.json');
	expect(spec.status).toBe(200);
	// Deletions last, so the member's route and bookmark are there for every other operation.
	operations = listOperations(spec.json as never, app.routes).sort(
		(a, b) => Number(a.method === 'DELETE') - Number(b.method === 'DELETE'),
	);
}, 120_000);

afterAll(async () => {
	await database?.close();
	if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

async function send(call: Call): Promise<{ status: number; text: string }> {
	const headers: Record<string, string> = {};
	if (call.as === 'member') headers.authorization = `Bearer ${memberToken}`;
	if (call.as === 'bad token') headers.authorization = 'Bearer \u00ff.not-a-token';
	if (call.body.contentType) headers['content-type'] = call.body.contentType;
	const response = await app.request(call.url, { method: call.method, headers, body: call.body.text });
	return { status: response.status, text: await response.text() };
}

describe('every API operation survives hostile input', () => {
	test('the spec lists operations, and every operation is called without a 5xx', async () => {
		const documented = operations.filter((operation) => operation.documented);
		expect(documented.length).toBeGreaterThan(40);
		expect(documented.map((operation) => `${operation.method} ${operation.path}`)).toEqual(
			expect.arrayContaining([
				'POST /api/auth/signup',
				'PUT /api/v7.1/route/{id}/',
				'POST /api/v7.1/route/upload/',
			]),
		);
		const queryNames = [
			...new Set([
				...operations.flatMap((operation) => operation.parameters.map((parameter) => parameter.name)),
				// Read by handlers straight from the query string.
				'json',
				'term',
				'q',
			]),
		];
		const called = new Map<string, number>();
		const failures: string[] = [];
		const statuses = new Map<number, number>();
		const check = async (key: string, call: Call) => {
			called.set(key, (called.get(key) ?? 0) + 1);
			const answer = await send(call);
			statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
			if (answer.status >= 500) {
				const body = call.body.text === undefined ? '(none)' : JSON.stringify(call.body.text.slice(0, 400));
				// Every 5xx is listed, not only the first, so one run shows all there is to fix.
				failures.push(
					`${key} → ${answer.status} for ${call.method} ${JSON.stringify(call.url.slice(0, 300))} as ${call.as}, content-type ${call.body.contentType ?? '(none)'}, body ${body}: ${answer.text.slice(0, 200)}`,
				);
			}
		};
		for (const [index, operation] of operations.entries()) {
			const key = `${operation.method} ${operation.path}`;
			for (const call of sweepCalls(operation, known)) await check(key, call);
			await fc.assert(
				fc.asyncProperty(callFor(operation, queryNames, known), (call) => check(key, call)),
				{ seed: SEED + index, numRuns: RUNS_PER_OPERATION },
			);
		}
		expect(failures, failures.join('\n')).toEqual([]);
		// Hostile input must not stop everything at validation: many calls reach a service and succeed.
		const succeeded = [...statuses.entries()]
			.filter(([status]) => status < 300)
			.reduce((sum, [, count]) => sum + count, 0);
		expect(succeeded).toBeGreaterThan(operations.length);
		const missed = operations.filter((operation) => !called.get(`${operation.method} ${operation.path}`));
		expect(missed).toEqual([]);
	}, 600_000);
});
