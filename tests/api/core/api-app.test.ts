import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_BODY_LIMIT } from '../../../src/lib/api/body';
import type { ApiEnv } from '../../../src/lib/api/context';
import { validate } from '../../../src/lib/api/validate';
import { signAccessToken } from '../../../src/lib/auth/server/access-token';
import { addSignedInMember, callApi, createTestApi, createTestDeps, signInAs } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
let app: ReturnType<typeof createTestApi>;
let deps: ReturnType<typeof createTestDeps>;

/** A small endpoint that exercises the shared machinery: validation, bodies, bearer tokens. */
const echo = new Hono<ApiEnv>()
	.post(
		'/echo',
		validate('json', v.object({ name: v.pipe(v.string(), v.minLength(1, 'name is required.')) })),
		(c) => c.json({ name: c.req.valid('json').name, viewer: c.var.viewer?.id ?? null }),
	)
	.delete('/echo/:id', (c) => c.json({ deleted: c.req.param('id') }))
	// An answer that sets a header the API also sets on every answer.
	.get('/echo/own-vary', (c) => c.json({ ok: true }, 200, { Vary: 'Origin' }));

/** One request over a real socket, as curl or a browser sends it (no framing added by us). */
function overTheWire(
	port: number,
	method: string,
	path: string,
	headers: Record<string, string> = {},
	body?: string,
): Promise<{ status: number; text: string; headers: Record<string, string | string[] | undefined> }> {
	return new Promise((resolve, reject) => {
		const request = httpRequest({ host: '127.0.0.1', port, method, path, headers }, (response) => {
			let text = '';
			response.setEncoding('utf8');
			response.on('data', (chunk: string) => {
				text += chunk;
			});
			response.on('end', () =>
				resolve({ status: response.statusCode ?? 0, text, headers: response.headers }),
			);
		});
		request.on('error', reject);
		request.end(body);
	});
}

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, { routes: [echo] });
});
afterAll(() => database.close());

describe('the API app', () => {
	test('answers liveness without touching the database and readiness with it', async () => {
		expect((await callApi(app, 'GET', '/api/health')).json).toEqual({ status: 'ok' });
		const ready = await callApi(app, 'GET', '/api/health/ready');
		expect(ready.status).toBe(200);
		expect(ready.json).toEqual({ status: 'ok', database: 'ok' });
	});

	test('describes its endpoints in OpenAPI 3.1 generated from the validation schemas', async () => {
		const spec = await callApi(app, 'GET', '/api/openapi.json');
		expect(spec.status).toBe(200);
		expect(spec.json.openapi).toBe('3.1.0');
		expect(Object.keys(spec.json.paths)).toEqual(
			expect.arrayContaining(['/api/health', '/api/health/ready', '/api/echo']),
		);
		const body = spec.json.paths['/api/echo'].post.requestBody.content['application/json'].schema;
		expect(body.required).toEqual(['name']);
	});

	test('sends its security headers on answers, errors and unknown endpoints alike, and compresses large ones', async () => {
		const answers = [
			await app.request('/api/health'),
			await app.request('/api/echo', {
				method: 'POST',
				body: '{',
				headers: { 'content-type': 'application/json' },
			}),
			await app.request('/api/nowhere'),
			await app.request('/api/openapi.json', { headers: { 'accept-encoding': 'gzip' } }),
		];
		expect(answers.map((answer) => answer.status)).toEqual([200, 400, 404, 200]);
		for (const answer of answers) {
			expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
			expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
			expect(answer.headers.get('x-frame-options')).toBe('DENY');
		}
		expect(answers[3].headers.get('content-encoding')).toBe('gzip');
	});

	test('over a real socket, sends the same headers, keeps the value a handler sets, and names each request', async () => {
		const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
		await new Promise((resolve) => server.once('listening', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			const answers = [
				await overTheWire(port, 'GET', '/api/health'),
				await overTheWire(port, 'GET', '/api/nowhere'),
				await overTheWire(port, 'POST', '/api/echo', { 'content-type': 'application/json' }, '{'),
			];
			expect(answers.map((answer) => answer.status)).toEqual([200, 404, 400]);
			for (const { headers } of answers) {
				expect(headers['x-content-type-options']).toBe('nosniff');
				expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
				expect(headers['x-frame-options']).toBe('DENY');
				expect(headers.vary).toBe('Accept-Encoding');
				expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
			}
			expect(new Set(answers.map(({ headers }) => headers['x-request-id'])).size).toBe(3);
			expect(JSON.parse(answers[0].text)).toEqual({ status: 'ok' });

			expect((await overTheWire(port, 'GET', '/api/echo/own-vary')).headers.vary).toBe('Origin');
			// A proxy's id is carried through; one that could break a log line is replaced.
			const forwarded = await overTheWire(port, 'GET', '/api/health', { 'x-request-id': 'edge-42' });
			expect(forwarded.headers['x-request-id']).toBe('edge-42');
			const hostile = await overTheWire(port, 'GET', '/api/health', { 'x-request-id': 'a b\tc' });
			expect(hostile.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);

			const compressed = await overTheWire(port, 'GET', '/api/openapi.json', { 'accept-encoding': 'gzip' });
			expect(compressed.headers['content-encoding']).toBe('gzip');
			expect(compressed.headers.vary).toBe('Accept-Encoding');
			const plain = await overTheWire(port, 'GET', '/api/openapi.json');
			expect(plain.headers['content-encoding']).toBeUndefined();
			expect(JSON.parse(plain.text).openapi).toBe('3.1.0');
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	test('answers an unknown endpoint with 404 in the main API shape', async () => {
		const response = await callApi(app, 'GET', '/api/v7.1/nothing/');
		expect(response.status).toBe(404);
		expect(response.json).toMatchObject({ error: 'not_found', _diagnostics: { validation_failures: [] } });
	});

	test('turns invalid input into validation failures naming the field', async () => {
		const response = await callApi(app, 'POST', '/api/echo', { body: { name: '' } });
		expect(response.status).toBe(400);
		expect(response.json._diagnostics.validation_failures).toEqual([{ name: ['name is required.'] }]);
	});

	test('refuses malformed JSON with 400, never 500', async () => {
		const response = await callApi(app, 'POST', '/api/echo', {
			body: '{"name": ',
			headers: { 'content-type': 'application/json' },
		});
		expect(response.status).toBe(400);
		expect(response.json.error).toBe('bad_request');
	});

	test('refuses bodies of the wrong type with 415, closing the cross-site text/plain hole', async () => {
		const response = await callApi(app, 'POST', '/api/echo', {
			body: '{"name":"x"}',
			headers: { 'content-type': 'text/plain' },
		});
		expect(response.status).toBe(415);
		expect(response.json.error).toBe('unsupported_media_type');
	});

	test('lets a DELETE without a body through over HTTP, with or without a Content-Type, and still checks one that has a body', async () => {
		const server = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' });
		await new Promise((resolve) => server.once('listening', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			// What `curl -X DELETE` sends: no Content-Type, no Content-Length.
			const bare = await overTheWire(port, 'DELETE', '/api/echo/5');
			expect(bare.status).toBe(200);
			expect(JSON.parse(bare.text)).toEqual({ deleted: '5' });
			const emptyJson = await overTheWire(port, 'DELETE', '/api/echo/6', {
				'content-type': 'application/json',
				'content-length': '0',
			});
			expect(emptyJson.status).toBe(200);
			const plain = await overTheWire(
				port,
				'DELETE',
				'/api/echo/7',
				{ 'content-type': 'text/plain', 'content-length': '1' },
				'x',
			);
			expect(plain.status).toBe(415);
			const untyped = await overTheWire(port, 'POST', '/api/echo', {}, '{"name":"x"}');
			expect(untyped.status).toBe(415);
		} finally {
			await new Promise((resolve) => server.close(resolve));
		}
	});

	test('refuses bodies over the limit with 413', async () => {
		const response = await callApi(app, 'POST', '/api/echo', {
			body: { name: 'x'.repeat(DEFAULT_BODY_LIMIT + 10) },
		});
		expect(response.status).toBe(413);
		expect(response.json.error).toBe('payload_too_large');
	});

	test('knows the caller from a valid bearer token and refuses a forged one', async () => {
		const { viewer, token } = await addSignedInMember(deps, 'ana');
		const ok = await callApi(app, 'POST', '/api/echo', { body: { name: 'x' }, token });
		expect(ok.json.viewer).toBe(viewer.id);

		const sessionId = JSON.parse(Buffer.from(token.split('.')[1], 'base64url').toString()).sid;
		const forged = await signAccessToken(
			viewer,
			sessionId,
			'another-secret-of-sufficient-length-000000',
			deps.clock(),
		);
		expect((await callApi(app, 'POST', '/api/echo', { body: { name: 'x' }, token: forged })).status).toBe(
			401,
		);

		const [header, payload] = token.split('.');
		const unsigned = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
		expect(header).toBeTruthy();
		expect((await callApi(app, 'POST', '/api/echo', { body: { name: 'x' }, token: unsigned })).status).toBe(
			401,
		);
	});

	test('refuses an expired access token', async () => {
		const { viewer } = await addSignedInMember(deps, 'ana-expired');
		const token = await signInAs(deps, viewer, new Date(deps.clock().getTime() - 3600_000));
		expect((await callApi(app, 'POST', '/api/echo', { body: { name: 'x' }, token })).status).toBe(401);
	});
});
