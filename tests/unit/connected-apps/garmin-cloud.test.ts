import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeviceCloudError, type DeviceTokens } from '~/lib/connected-apps/server/device-clouds';
import { garminCloud } from '~/lib/connected-apps/server/garmin';

const CLIENT_ID = 'mapstride-client';
const CLIENT_SECRET = 'client-secret-value';
const GARMIN_USER = 'a1b2c3d4-e5f6-4789-abcd-ef0123456789';
const REDIRECT_URI = 'https://mapstride.example/api/device_clouds/garmin/callback?from=settings';
const FIT_BYTES = new Uint8Array([14, 16, 0x5a, 0x08, 1, 2, 3, 4, 0x2e, 0x46, 0x49, 0x54, 9, 9]);
const DAY = 86_400;

type Recorded = { method: string; url: URL; headers: IncomingMessage['headers']; body: string };

/** What the fake Garmin remembers between requests, as Garmin would. */
const garmin = {
	requests: [] as Recorded[],
	/** Codes handed out by the consent page, with the PKCE challenge they were issued for. */
	codes: new Map<string, { challenge: string; redirectUri: string }>(),
	accessTokens: new Set<string>(),
	refreshTokens: new Set<string>(),
	issued: 0,
	registrationStatus: 204,
	/** Activity files by upload time, in Garmin's list shape. */
	uploads: [] as { uploadSeconds: number; item: Record<string, unknown> }[],
};
let evilHits = 0;
let garminServer: Server;
let evilServer: Server;
let base = '';
let evilBase = '';

const readBody = (req: IncomingMessage) =>
	new Promise<string>((resolve, reject) => {
		let text = '';
		req.setEncoding('utf8');
		req.on('data', (chunk: string) => {
			text += chunk;
		});
		req.on('end', () => resolve(text));
		req.on('error', reject);
	});

function json(res: ServerResponse, status: number, body: unknown) {
	res.writeHead(status, { 'content-type': 'application/json' });
	res.end(JSON.stringify(body));
}

function issueTokens() {
	garmin.issued++;
	const access = `access-${garmin.issued}-${randomBytes(8).toString('hex')}`;
	const refresh = `refresh-${garmin.issued}-${randomBytes(8).toString('hex')}`;
	garmin.accessTokens.add(access);
	garmin.refreshTokens.add(refresh);
	return {
		access_token: access,
		refresh_token: refresh,
		expires_in: 86_400,
		refresh_token_expires_in: 7_776_000,
		token_type: 'bearer',
		scope: 'ACTIVITY_EXPORT HEALTH_EXPORT',
		jti: randomBytes(8).toString('hex'),
	};
}

const bearerOk = (req: IncomingMessage) =>
	garmin.accessTokens.has(req.headers.authorization?.replace(/^Bearer /, '') ?? '');

async function answerGarmin(req: IncomingMessage, res: ServerResponse) {
	const url = new URL(req.url ?? '/', base);
	const body = await readBody(req);
	garmin.requests.push({ method: req.method ?? '', url, headers: req.headers, body });

	if (req.method === 'GET' && url.pathname === '/oauth2Confirm') {
		// The member approves at once: Garmin keeps the challenge and sends the browser back with a code.
		const code = randomBytes(12).toString('hex');
		garmin.codes.set(code, {
			challenge: url.searchParams.get('code_challenge') ?? '',
			redirectUri: url.searchParams.get('redirect_uri') ?? '',
		});
		const back = new URL(url.searchParams.get('redirect_uri') ?? '');
		back.searchParams.set('code', code);
		back.searchParams.set('state', url.searchParams.get('state') ?? '');
		res.writeHead(302, { location: back.toString() });
		return res.end();
	}

	if (req.method === 'POST' && url.pathname === '/di-oauth2-service/oauth/token') {
		const form = new URLSearchParams(body);
		if (form.get('client_id') !== CLIENT_ID || form.get('client_secret') !== CLIENT_SECRET)
			return json(res, 401, { error: 'invalid_client' });
		if (form.get('grant_type') === 'authorization_code') {
			const issued = garmin.codes.get(form.get('code') ?? '');
			const verifier = form.get('code_verifier') ?? '';
			const challenge = createHash('sha256').update(verifier).digest('base64url');
			if (!issued || issued.challenge !== challenge || issued.redirectUri !== form.get('redirect_uri'))
				return json(res, 400, { error: 'invalid_grant' });
			garmin.codes.delete(form.get('code') ?? '');
			return json(res, 200, issueTokens());
		}
		if (form.get('grant_type') === 'refresh_token') {
			const refresh = form.get('refresh_token') ?? '';
			if (!garmin.refreshTokens.delete(refresh)) return json(res, 400, { error: 'invalid_grant' });
			return json(res, 200, issueTokens());
		}
		return json(res, 400, { error: 'unsupported_grant_type' });
	}

	if (url.pathname.startsWith('/wellness-api/') && !bearerOk(req))
		return json(res, 401, { message: 'Unauthorized' });

	if (req.method === 'GET' && url.pathname === '/wellness-api/rest/user/id')
		return json(res, 200, { userId: GARMIN_USER });

	if (req.method === 'DELETE' && url.pathname === '/wellness-api/rest/user/registration') {
		res.writeHead(garmin.registrationStatus);
		return res.end();
	}

	if (req.method === 'GET' && url.pathname === '/wellness-api/rest/activityFile') {
		const id = url.searchParams.get('id');
		if (id === 'big-declared') {
			res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': 100_000 });
			return res.end(Buffer.alloc(100_000));
		}
		if (id === 'big-streamed') {
			// No content-length: only counting while reading finds out.
			res.writeHead(200, { 'content-type': 'application/octet-stream' });
			for (let i = 0; i < 10; i++) res.write(Buffer.alloc(10_000));
			return res.end();
		}
		if (id === '1001') {
			res.writeHead(200, { 'content-type': 'application/octet-stream' });
			return res.end(Buffer.from(FIT_BYTES));
		}
		if (id !== null) return json(res, 404, { message: 'not found' });
		const start = Number(url.searchParams.get('uploadStartTimeInSeconds'));
		const end = Number(url.searchParams.get('uploadEndTimeInSeconds'));
		if (!(end > start) || end - start > DAY)
			return json(res, 400, { errorMessage: 'timespan must be at most 86400 seconds' });
		return json(
			res,
			200,
			garmin.uploads
				.filter((upload) => upload.uploadSeconds >= start && upload.uploadSeconds < end)
				.map((upload) => upload.item),
		);
	}

	json(res, 404, { message: 'no such endpoint' });
}

async function listen(server: Server): Promise<string> {
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

beforeAll(async () => {
	garminServer = createServer((req, res) => {
		answerGarmin(req, res).catch(() => {
			res.writeHead(500);
			res.end();
		});
	});
	evilServer = createServer((_req, res) => {
		evilHits++;
		res.writeHead(200, { 'content-type': 'application/octet-stream' });
		res.end('not from garmin');
	});
	base = await listen(garminServer);
	evilBase = await listen(evilServer);
});

afterAll(async () => {
	garminServer.closeAllConnections();
	evilServer.closeAllConnections();
	await Promise.all([
		new Promise((resolve) => garminServer.close(resolve)),
		new Promise((resolve) => evilServer.close(resolve)),
	]);
});

const cloud = () =>
	garminCloud({
		clientId: CLIENT_ID,
		clientSecret: CLIENT_SECRET,
		authorizeBase: base,
		tokenBase: base,
		apiBase: base,
	});

function pkce() {
	const verifier = randomBytes(32).toString('base64url');
	return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** Runs the consent step the member's browser would: the fake Garmin records the challenge and hands back a code. */
async function approve(authorizeUrl: string): Promise<URL> {
	const response = await fetch(authorizeUrl, { redirect: 'manual' });
	expect(response.status).toBe(302);
	return new URL(response.headers.get('location') ?? '');
}

async function connect(): Promise<DeviceTokens> {
	const { verifier, challenge } = pkce();
	const back = await approve(
		cloud().authorizeUrl({ state: 'state-1', redirectUri: REDIRECT_URI, codeChallenge: challenge }),
	);
	return cloud().exchangeCode({
		code: back.searchParams.get('code') ?? '',
		redirectUri: REDIRECT_URI,
		codeVerifier: verifier,
	});
}

async function failure(promise: Promise<unknown>): Promise<DeviceCloudError> {
	const error = await promise.then(
		() => null,
		(e: unknown) => e,
	);
	expect(error).toBeInstanceOf(DeviceCloudError);
	return error as DeviceCloudError;
}

const noSignal = () => new AbortController().signal;
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('Garmin connect', () => {
	it('describes itself as a real cloud', () => {
		const garminConnect = cloud();
		expect(garminConnect.key).toBe('garmin');
		expect(garminConnect.name).toBe('Garmin Connect');
		expect(garminConnect.test).toBe(false);
		expect(garminConnect.description.length).toBeGreaterThan(20);
	});

	it('sends the member to the consent page with an S256 challenge, the state and the exact redirect', () => {
		const { challenge } = pkce();
		const authorizeUrl = cloud().authorizeUrl({
			state: 'st/at+e=1',
			redirectUri: REDIRECT_URI,
			codeChallenge: challenge,
		});
		expect(authorizeUrl.startsWith(`${base}/oauth2Confirm?response_type=code&client_id=`)).toBe(true);
		const url = new URL(authorizeUrl);
		expect(Object.fromEntries(url.searchParams)).toEqual({
			response_type: 'code',
			client_id: CLIENT_ID,
			code_challenge: challenge,
			code_challenge_method: 'S256',
			redirect_uri: REDIRECT_URI,
			state: 'st/at+e=1',
		});
	});

	it('exchanges the code with the verifier and learns the Garmin user id', async () => {
		const before = garmin.requests.length;
		const startedAt = Date.now();
		const tokens = await connect();
		expect(tokens.cloudAccount).toBe(GARMIN_USER);
		expect(garmin.accessTokens.has(tokens.accessToken)).toBe(true);
		expect(garmin.refreshTokens.has(tokens.refreshToken ?? '')).toBe(true);
		expect(tokens.expiresAt).toBeGreaterThanOrEqual(startedAt + 86_400_000);
		expect(tokens.expiresAt).toBeLessThanOrEqual(Date.now() + 86_400_000);

		const [tokenRequest, userIdRequest] = garmin.requests
			.slice(before)
			.filter((request) => request.url.pathname !== '/oauth2Confirm');
		expect(tokenRequest.method).toBe('POST');
		expect(tokenRequest.headers['content-type']).toBe('application/x-www-form-urlencoded');
		expect(tokenRequest.headers.accept).toBe('application/json');
		const form = new URLSearchParams(tokenRequest.body);
		expect(form.get('grant_type')).toBe('authorization_code');
		expect(form.get('redirect_uri')).toBe(REDIRECT_URI);
		expect(form.get('code_verifier')).toMatch(/^[\w-]{43}$/);
		expect(userIdRequest.url.pathname).toBe('/wellness-api/rest/user/id');
		expect(userIdRequest.headers.authorization).toBe(`Bearer ${tokens.accessToken}`);
		expect(userIdRequest.headers.accept).toBe('application/json');
	});

	it('is refused a code with the wrong verifier, as a lost authorisation', async () => {
		const { challenge } = pkce();
		const back = await approve(
			cloud().authorizeUrl({ state: 's', redirectUri: REDIRECT_URI, codeChallenge: challenge }),
		);
		const error = await failure(
			cloud().exchangeCode({
				code: back.searchParams.get('code') ?? '',
				redirectUri: REDIRECT_URI,
				codeVerifier: pkce().verifier,
			}),
		);
		expect(error.kind).toBe('auth');
	});

	it('refreshes with the refresh token and keeps the member id', async () => {
		const tokens = await connect();
		const renewed = await cloud().refresh(tokens);
		expect(renewed.cloudAccount).toBe(GARMIN_USER);
		expect(renewed.accessToken).not.toBe(tokens.accessToken);
		expect(renewed.refreshToken).not.toBe(tokens.refreshToken);
		const form = new URLSearchParams(garmin.requests.at(-1)?.body);
		expect(form.get('grant_type')).toBe('refresh_token');
		expect(form.get('refresh_token')).toBe(tokens.refreshToken);
		// The old refresh token was spent: using it again is a lost authorisation.
		expect((await failure(cloud().refresh(tokens))).kind).toBe('auth');
	});

	it('turns a wrong bearer into an auth error that does not quote the token', async () => {
		const tokens: DeviceTokens = { cloudAccount: GARMIN_USER, accessToken: 'not-a-real-token-42' };
		const error = await failure(cloud().listActivities(tokens, new Date(Date.now() - 3_600_000), noSignal()));
		expect(error.kind).toBe('auth');
		expect(error.message).not.toContain('not-a-real-token-42');
		const download = await failure(
			cloud().fetchActivityFile(
				tokens,
				{ externalId: '1001', startTime: new Date(), name: 'x' },
				1_000_000,
				noSignal(),
			),
		);
		expect(download.kind).toBe('auth');
	});
});

describe('Garmin activities', () => {
	let tokens: DeviceTokens;
	beforeAll(async () => {
		tokens = await connect();
	});

	it('walks day-long upload windows from since to now and returns only FIT files, oldest first', async () => {
		const now = nowSeconds();
		const since = new Date((now - 3 * DAY - 3_600) * 1000);
		const item = (summaryId: string | number, startSeconds: number, extra: Record<string, unknown> = {}) => ({
			userId: GARMIN_USER,
			userAccessToken: 'legacy-field',
			summaryId,
			fileType: 'FIT',
			callbackURL: `${evilBase}/wellness-api/rest/activityFile?id=${summaryId}`,
			startTimeInSeconds: startSeconds,
			manual: false,
			...extra,
		});
		garmin.uploads = [
			// Newest upload first in the list; the answer must still come back oldest first.
			{ uploadSeconds: now - 600, item: item('3003', now - 4_000, { activityName: 'Evening ride' }) },
			{ uploadSeconds: now - 2 * DAY, item: item(2002, now - 2 * DAY - 5_000, { activityId: 77 }) },
			{
				uploadSeconds: now - 2 * DAY + 10,
				item: item('2002-tcx', now - 2 * DAY - 5_000, { fileType: 'TCX' }),
			},
			{
				uploadSeconds: now - 3 * DAY,
				item: item('1001', now - 3 * DAY - 600, { activityName: 'Morning run' }),
			},
			// Recorded before `since`, uploaded after it: outside what was asked for.
			{ uploadSeconds: now - DAY, item: item('0999', now - 10 * DAY) },
			// Uploaded before `since`: in no window.
			{ uploadSeconds: now - 4 * DAY, item: item('0888', now - 4 * DAY) },
		];
		const before = garmin.requests.length;
		const activities = await cloud().listActivities(tokens, since, noSignal());
		expect(activities).toEqual([
			{ externalId: '1001', startTime: new Date((now - 3 * DAY - 600) * 1000), name: 'Morning run' },
			{ externalId: '2002', startTime: new Date((now - 2 * DAY - 5_000) * 1000), name: 'Garmin activity' },
			{ externalId: '3003', startTime: new Date((now - 4_000) * 1000), name: 'Evening ride' },
		]);

		const windows = garmin.requests.slice(before).map((request) => {
			expect(request.headers.authorization).toBe(`Bearer ${tokens.accessToken}`);
			expect(request.headers.accept).toBe('application/json');
			return [
				Number(request.url.searchParams.get('uploadStartTimeInSeconds')),
				Number(request.url.searchParams.get('uploadEndTimeInSeconds')),
			];
		});
		expect(windows).toHaveLength(4);
		expect(windows[0][0]).toBe(Math.floor(since.getTime() / 1000));
		for (const [i, [start, end]] of windows.entries()) {
			expect(end - start).toBeLessThanOrEqual(DAY);
			if (i > 0) expect(start).toBe(windows[i - 1][1]);
		}
		expect(windows.at(-1)?.[1]).toBeGreaterThanOrEqual(now);
		expect(evilHits).toBe(0);
	});

	it('asks for at most thirty days, the most recent ones', async () => {
		garmin.uploads = [];
		const before = garmin.requests.length;
		const startedAt = nowSeconds();
		await cloud().listActivities(tokens, new Date(Date.now() - 90 * DAY * 1000), noSignal());
		const windows = garmin.requests.slice(before);
		expect(windows).toHaveLength(30);
		expect(Number(windows[0].url.searchParams.get('uploadStartTimeInSeconds'))).toBeGreaterThanOrEqual(
			startedAt - 30 * DAY,
		);
	});

	it('reports a list in an unknown shape as unavailable', async () => {
		garmin.uploads = [{ uploadSeconds: nowSeconds() - 60, item: { userId: GARMIN_USER, summaryId: 'x' } }];
		const error = await failure(cloud().listActivities(tokens, new Date(Date.now() - 3_600_000), noSignal()));
		expect(error.kind).toBe('unavailable');
		garmin.uploads = [];
	});

	it('downloads the FIT file from the API host with the bearer token', async () => {
		const bytes = await cloud().fetchActivityFile(
			tokens,
			{ externalId: '1001', startTime: new Date(), name: 'Morning run' },
			1_000_000,
			noSignal(),
		);
		expect(bytes).toEqual(FIT_BYTES);
		const request = garmin.requests.at(-1);
		expect(request?.url.pathname).toBe('/wellness-api/rest/activityFile');
		expect(request?.url.searchParams.get('id')).toBe('1001');
		expect(request?.headers.authorization).toBe(`Bearer ${tokens.accessToken}`);
	});

	it('refuses a file above maxBytes, declared or found while reading', async () => {
		for (const externalId of ['big-declared', 'big-streamed']) {
			const error = await failure(
				cloud().fetchActivityFile(
					tokens,
					{ externalId, startTime: new Date(), name: 'x' },
					50_000,
					noSignal(),
				),
			);
			expect(error.kind).toBe('refused');
		}
		// Exactly at the limit is still allowed.
		const bytes = await cloud().fetchActivityFile(
			tokens,
			{ externalId: '1001', startTime: new Date(), name: 'x' },
			FIT_BYTES.byteLength,
			noSignal(),
		);
		expect(bytes.byteLength).toBe(FIT_BYTES.byteLength);
	});

	it('refuses an id that could change the request, without asking anyone', async () => {
		const before = garmin.requests.length;
		const error = await failure(
			cloud().fetchActivityFile(
				tokens,
				{ externalId: '1001&id=evil', startTime: new Date(), name: 'x' },
				1_000_000,
				noSignal(),
			),
		);
		expect(error.kind).toBe('refused');
		expect(garmin.requests.length).toBe(before);
	});

	it('reports a missing file as unavailable', async () => {
		const error = await failure(
			cloud().fetchActivityFile(
				tokens,
				{ externalId: '404', startTime: new Date(), name: 'x' },
				1_000,
				noSignal(),
			),
		);
		expect(error.kind).toBe('unavailable');
	});
});

describe('Garmin pushes', () => {
	const start = 1_717_000_000;
	const entry = (overrides: Record<string, unknown> = {}) => ({
		userId: GARMIN_USER,
		userAccessToken: 'legacy-oauth1-token',
		summaryId: '1001',
		fileType: 'FIT',
		callbackURL: `${evilBase}/wellness-api/rest/activityFile?id=1001&token=abc`,
		startTimeInSeconds: start,
		activityId: 1001,
		activityName: 'Morning run',
		manual: false,
		...overrides,
	});
	const read = (body: string) => cloud().readWebhook({ headers: new Headers(), body });

	it('reads a push into one notice per member with its FIT activities, and never calls the callbackURL', async () => {
		const body = JSON.stringify({
			activityFiles: [
				entry({ summaryId: '1002', startTimeInSeconds: start + 7_200, activityName: undefined }),
				entry(),
				entry({ summaryId: '1003', fileType: 'GPX' }),
				entry({ userId: 'other-member', summaryId: 5005 }),
				entry({ userId: 'gpx-only', summaryId: '6006', fileType: 'TCX' }),
			],
			deregistrations: [{ userId: 'someone-else' }],
		});
		const notices = await read(body);
		expect(notices).toEqual([
			{
				cloudAccount: GARMIN_USER,
				activities: [
					{ externalId: '1001', startTime: new Date(start * 1000), name: 'Morning run' },
					{ externalId: '1002', startTime: new Date((start + 7_200) * 1000), name: 'Garmin activity' },
				],
			},
			{
				cloudAccount: 'other-member',
				activities: [{ externalId: '5005', startTime: new Date(start * 1000), name: 'Morning run' }],
			},
		]);

		// The member's activity is fetched from the API host with their own token; the evil host hears nothing.
		const tokens = await connect();
		const before = garmin.requests.length;
		if (!notices) throw new Error('expected the push to be read');
		const bytes = await cloud().fetchActivityFile(tokens, notices[0].activities[0], 1_000_000, noSignal());
		expect(bytes).toEqual(FIT_BYTES);
		expect(garmin.requests.length).toBe(before + 1);
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(evilHits).toBe(0);
	});

	it('reads a push with nothing for us as no notices', async () => {
		expect(await read(JSON.stringify({ deregistrations: [{ userId: GARMIN_USER }] }))).toEqual([]);
		expect(await read(JSON.stringify({ activityFiles: [] }))).toEqual([]);
	});

	it('returns null for anything not in the push shape', async () => {
		const malformed = [
			'{"activityFiles": [',
			'',
			'null',
			JSON.stringify([entry()]),
			JSON.stringify({ activityFiles: entry() }),
			JSON.stringify({ activityFiles: 'none' }),
			JSON.stringify({ activityFiles: [entry({ userId: 'x'.repeat(101) })] }),
			JSON.stringify({ activityFiles: [entry({ summaryId: '../../user/registration' })] }),
			JSON.stringify({ activityFiles: [entry({ summaryId: '' })] }),
			JSON.stringify({ activityFiles: [entry({ startTimeInSeconds: 'yesterday' })] }),
			JSON.stringify({ activityFiles: [entry({ activityName: 'x'.repeat(10_000) })] }),
			JSON.stringify({ activityFiles: [entry({ userId: undefined })] }),
			JSON.stringify({
				activityFiles: Array.from({ length: 201 }, (_, i) => entry({ summaryId: String(i) })),
			}),
		];
		for (const body of malformed) expect(await read(body), body.slice(0, 80)).toBeNull();
		expect(
			await read(
				JSON.stringify({
					activityFiles: Array.from({ length: 200 }, (_, i) => entry({ summaryId: String(i) })),
				}),
			),
		).toHaveLength(1);
	});
});

describe('Garmin disconnect', () => {
	it('ends the registration with the member token', async () => {
		const tokens = await connect();
		garmin.registrationStatus = 204;
		await cloud().deauthorize(tokens);
		const request = garmin.requests.at(-1);
		expect(request?.method).toBe('DELETE');
		expect(request?.url.pathname).toBe('/wellness-api/rest/user/registration');
		expect(request?.headers.authorization).toBe(`Bearer ${tokens.accessToken}`);
	});

	it('swallows a 503 and a host that is not there', async () => {
		const tokens = await connect();
		garmin.registrationStatus = 503;
		await expect(cloud().deauthorize(tokens)).resolves.toBeUndefined();
		garmin.registrationStatus = 204;

		const gone = createServer();
		const goneBase = await listen(gone);
		await new Promise((resolve) => gone.close(resolve));
		const away = garminCloud({
			clientId: CLIENT_ID,
			clientSecret: CLIENT_SECRET,
			authorizeBase: goneBase,
			tokenBase: goneBase,
			apiBase: goneBase,
		});
		await expect(away.deauthorize(tokens)).resolves.toBeUndefined();
	});
});
