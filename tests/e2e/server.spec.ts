import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { SHELL_MESSAGES } from '../../src/lib/site/messages';
import { expect, test } from './fixtures';
import { logIn } from './helpers';

/** What the server itself promises every page: redirects, guards, status codes, headers. */
test.describe('redirects', () => {
	for (const [from, to] of [
		['/premium', '/premium/membership'],
		['/promo/UAWireless', '/premium/coupon'],
		['/promo/ua', '/premium/coupon'],
		['/workout/import/dashboard', '/account/connected_apps'],
	]) {
		test(`${from} moves permanently to ${to}`, async ({ request }) => {
			const response = await request.get(from, { maxRedirects: 0 });
			expect(response.status()).toBe(301);
			expect(new URL(response.headers().location, 'http://x').pathname).toBe(to);
		});
	}
});

test.describe('guarded pages', () => {
	for (const path of ['/dashboard', '/account/my_profile', '/routes/create', '/workout/stats?week=3']) {
		test(`${path} sends a visitor to the login page carrying next`, async ({ page }) => {
			await page.goto(path);
			const url = new URL(page.url());
			expect(url.pathname).toBe('/auth/login');
			expect(url.searchParams.get('next')).toBe(path);
		});
	}
});

test.describe('not found', () => {
	for (const path of ['/error/notfound', '/us/stores', '/no/such/page']) {
		test(`${path} answers 404 with the not-found page`, async ({ request }) => {
			const response = await request.get(path);
			expect(response.status()).toBe(404);
			expect(response.statusText()).toBe('Not Found');
			expect(response.headers()['content-type']).toContain('text/html');
		});
	}
});

test.describe('unknown addresses under on-demand pages', () => {
	// Signed in, so guarded prefixes reach their page instead of the login redirect.
	test.beforeEach(async ({ request, baseURL }) => {
		await logIn(request, baseURL as string, DEMO_LOGIN);
	});
	for (const path of [
		'/account/nope',
		'/account/%00',
		'/routes/view/999999',
		'/routes/view/abc',
		'/routes/print/abc',
		'/routes/view/add_to_website/abc',
		'/us/zz/nowhere',
		'/us/pa/harrisburg/extra',
		'/profile/x/y',
	]) {
		test(`${path} answers 404 with the not-found page, never 500`, async ({ request }) => {
			const response = await request.get(path, { maxRedirects: 0 });
			expect(response.status()).toBe(404);
			// The status line agrees with the code: "404 Not Found", never "404 OK".
			expect(response.statusText()).toBe('Not Found');
			expect(response.headers()['content-type']).toContain('text/html');
			expect(await response.text()).toContain(SHELL_MESSAGES.notFoundTitle);
		});
	}

	test('/workout/import/dashboard ends on the Connected apps tab of account settings', async ({
		page,
		baseURL,
	}) => {
		await logIn(page.request, baseURL as string, DEMO_LOGIN);
		const response = await page.goto('/workout/import/dashboard');
		expect(response?.status()).toBe(200);
		expect(new URL(page.url()).pathname).toBe('/account/connected_apps');
		await expect(page.getByRole('heading', { level: 2, name: 'Connected apps' })).toBeVisible();
		await expect(
			page.getByTestId('connected-apps').getByRole('heading', { name: 'Trailhead Sync (demo app)' }),
		).toBeVisible();
		await expect(page.getByRole('link', { name: 'Connected apps' })).toHaveAttribute('aria-current', 'page');
	});
});

test.describe('headers', () => {
	test('a pre-rendered page refuses framing, sniffing and carries a hashed script policy', async ({
		page,
	}) => {
		const response = await page.goto('/');
		const headers = response?.headers() ?? {};
		expect(headers['content-security-policy']).toContain("frame-ancestors 'none'");
		expect(headers['x-content-type-options']).toBe('nosniff');
		expect(headers['cross-origin-opener-policy']).toBe('same-origin');
		const meta = await page.locator('meta[http-equiv="content-security-policy"]').getAttribute('content');
		expect(meta).toMatch(/script-src[^;]*'sha(256|384|512)-/);
	});

	test('text is sent compressed and hashed assets are cached for good with only nosniff', async ({
		request,
		page,
	}) => {
		const home = await request.get('/', { headers: { 'accept-encoding': 'br, gzip' } });
		expect(home.headers()['content-encoding']).toMatch(/br|gzip/);
		const assets: Record<string, string>[] = [];
		page.on('response', (response) => {
			if (new URL(response.url()).pathname.startsWith('/_astro/')) assets.push(response.headers());
		});
		await page.goto('/');
		await page.waitForLoadState('load');
		expect(assets.length).toBeGreaterThan(0);
		for (const headers of assets) {
			expect(headers['cache-control']).toContain('immutable');
			expect(headers['x-content-type-options']).toBe('nosniff');
			// Document policies mean nothing on a script and would only add bytes to every download.
			expect(headers['content-security-policy']).toBeUndefined();
		}
	});

	test('the API answers JSON errors, never HTML', async ({ request }) => {
		const response = await request.post('/api/health', {
			headers: { 'content-type': 'text/plain' },
			data: 'x',
		});
		expect(response.status()).toBe(415);
		expect(await response.json()).toMatchObject({ error: 'unsupported_media_type' });
	});
});

test('a form post to a page is bounded before it is read', async ({ request, baseURL }) => {
	await logIn(request, baseURL as string, DEMO_LOGIN);
	const headers = { origin: new URL(baseURL as string).origin };
	// A form of a few megabytes at a page whose forms hold a few fields.
	const large = await request.post('/challenges/yvty2025', {
		headers,
		form: { action: 'join', padding: 'x'.repeat(3 * 1024 * 1024) },
	});
	expect(large.status()).toBe(413);
	// The workout page's photo form takes more, and still has a ceiling.
	const photos = await request.post('/workout/1', {
		headers,
		multipart: {
			action: 'add-photos',
			photos: { name: 'big.jpg', mimeType: 'image/jpeg', buffer: Buffer.alloc(41 * 1024 * 1024) },
		},
	});
	expect(photos.status()).toBe(413);
	// An ordinary post still arrives.
	const small = await request.post('/challenges/yvty2025', { headers, form: { action: 'nothing' } });
	expect(small.status()).toBeLessThan(413);
});

test('an on-demand page keeps its hashed script policy and still refuses framing', async ({ request }) => {
	// Rendered on demand so that it can answer 404.
	const response = await request.get('/error/notfound');
	expect(response.status()).toBe(404);
	const policy = response.headers()['content-security-policy'];
	expect(policy).toContain("frame-ancestors 'none'");
	expect(policy).toMatch(/script-src[^;]*'sha256-/);
});

/** A raw GET that keeps the body as sent: the test, not the client, undoes the compression. */
function rawGet(url: string, acceptEncoding: string): Promise<{ encoding?: string; body: Buffer }> {
	return new Promise((resolve, reject) => {
		http
			.get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
				const chunks: Buffer[] = [];
				response.on('data', (chunk: Buffer) => chunks.push(chunk));
				response.on('end', () =>
					resolve({ encoding: response.headers['content-encoding'], body: Buffer.concat(chunks) }),
				);
			})
			.on('error', reject);
	});
}

test('a location page sent with brotli or gzip decodes to the same page as sent plainly', async ({
	baseURL,
}) => {
	// A city page is compressed on its first request rather than at build time.
	const url = `${baseURL}/us/pa/pittsburgh/`;
	const [br, gzip, plain] = await Promise.all([
		rawGet(url, 'br'),
		rawGet(url, 'gzip'),
		rawGet(url, 'identity'),
	]);
	expect(br.encoding).toBe('br');
	expect(gzip.encoding).toBe('gzip');
	expect(plain.encoding).toBeUndefined();
	expect(plain.body.toString()).toContain('Pittsburgh');
	expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
	expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
	// Served again from the kept copies.
	const again = await rawGet(url, 'br');
	expect(brotliDecompressSync(again.body).equals(plain.body)).toBe(true);
});

function freePort(): Promise<number> {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address() as net.AddressInfo;
			server.close(() => resolve(port));
		});
	});
}

function isListening(port: number): Promise<boolean> {
	return new Promise((resolve) => {
		const socket = net.connect(port, '127.0.0.1');
		socket.on('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.on('error', () => resolve(false));
	});
}

/** `npm start` on a data folder, as an operator runs it; resolves once it prints its address. */
async function startServer(port: number, dataDir: string, env: Record<string, string> = {}) {
	const npm = spawn('npm', ['start'], {
		cwd: path.resolve(import.meta.dirname, '../..'),
		stdio: ['ignore', 'pipe', 'pipe'],
		env: {
			...process.env,
			PORT: String(port),
			HOST: '127.0.0.1',
			DATA_DIR: dataDir,
			PUBLIC_URL: `http://127.0.0.1:${port}`,
			LOG_LEVEL: 'warn',
			...env,
		},
	});
	let output = '';
	npm.stdout?.on('data', (chunk) => {
		output += chunk;
	});
	npm.stderr?.on('data', (chunk) => {
		output += chunk;
	});
	const exited = new Promise<number | null>((resolve) => npm.on('exit', (code) => resolve(code)));
	// A start that fails says why at once rather than at the timeout.
	const deadline = Date.now() + 150_000;
	while (!output.includes('Mapstride is running at')) {
		if (npm.exitCode !== null || Date.now() > deadline)
			throw new Error(`npm start did not reach its address:\n${output}`);
		await new Promise((resolve) => setTimeout(resolve, 100));
	}
	return { npm, exited, output: () => output };
}

// One server process is enough and the viewport plays no part: the tag keeps it to the desktop project.
test.describe('npm start under a process manager @desktop-layout', () => {
	let child: ChildProcess | undefined;
	let dataDir: string | undefined;
	test.afterEach(() => {
		if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
		if (dataDir) rmSync(dataDir, { recursive: true, force: true });
	});

	test('SIGTERM sent to the npm process stops the server and releases the database', async () => {
		// A fresh database folder takes initdb and migrations; the build is already there.
		test.setTimeout(180_000);
		const port = await freePort();
		dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-sigterm-'));
		const server = await startServer(port, dataDir);
		child = server.npm;
		expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(true);

		server.npm.kill('SIGTERM');
		// Requests in flight get up to 10 s to finish; an idle server stops at once.
		await expect.poll(() => isListening(port), { timeout: 12_000 }).toBe(false);
		expect(await server.exited).toBe(0);
		expect(server.output()).toContain('SIGTERM received');
		expect(existsSync(path.join(dataDir, 'db.lock'))).toBe(false);
		expect(server.output()).not.toContain('does not call the');
	});

	test('a request in flight at SIGTERM is answered with Connection: close, and its connection ends', async () => {
		test.setTimeout(180_000);
		const port = await freePort();
		dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-keepalive-'));
		const server = await startServer(port, dataDir);
		child = server.npm;
		// A kept-alive client whose request is still arriving when the stop begins.
		const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
		const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password' });
		const answered = new Promise<{ connection: string | undefined; closed: Promise<void> }>(
			(resolve, reject) => {
				const request = http.request(
					{
						port,
						host: '127.0.0.1',
						method: 'POST',
						path: '/api/auth/login',
						agent,
						headers: {
							'content-type': 'application/json',
							'content-length': Buffer.byteLength(body),
							origin: `http://127.0.0.1:${port}`,
						},
					},
					(response) => {
						const socket = request.socket;
						const closed = new Promise<void>((done) => {
							if (socket?.destroyed) done();
							else socket?.once('close', () => done());
						});
						response.resume();
						resolve({ connection: response.headers.connection, closed });
					},
				);
				request.on('error', reject);
				request.write(body.slice(0, 10));
				setTimeout(() => {
					server.npm.kill('SIGTERM');
					setTimeout(() => request.end(body.slice(10)), 500);
				}, 200);
			},
		);
		const { connection, closed } = await answered;
		expect(connection).toBe('close');
		await closed;
		expect(await server.exited).toBe(0);
		agent.destroy();
	});

	test('a request body that stops arriving is cut with 408, and the server goes on', async () => {
		test.setTimeout(180_000);
		const port = await freePort();
		dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-stall-'));
		const server = await startServer(port, dataDir, { BODY_STALL_SECONDS: '3' });
		child = server.npm;
		const started = Date.now();
		// Half a body, then nothing: the way a client holds a connection open without sending.
		const answer = await new Promise<{ status: number | undefined; ms: number }>((resolve, reject) => {
			const request = http.request(
				{
					port,
					host: '127.0.0.1',
					method: 'POST',
					path: '/api/auth/login',
					headers: {
						'content-type': 'application/json',
						'content-length': 100,
						origin: `http://127.0.0.1:${port}`,
					},
				},
				(response) => {
					response.resume();
					response.on('end', () => resolve({ status: response.statusCode, ms: Date.now() - started }));
				},
			);
			request.on('error', reject);
			request.write('{"email":"');
		});
		expect(answer.status).toBe(408);
		expect(answer.ms).toBeGreaterThanOrEqual(2_500);
		expect(answer.ms).toBeLessThan(15_000);
		// A body that keeps arriving, a piece a second for longer than the bound, is read and answered.
		const body = JSON.stringify({ email: 'nobody@example.test', password: 'not the password at all' });
		const pieces = [body.slice(0, 12), body.slice(12, 24), body.slice(24, 36), body.slice(36)];
		const slow = await new Promise<number | undefined>((resolve, reject) => {
			const request = http.request(
				{
					port,
					host: '127.0.0.1',
					method: 'POST',
					path: '/api/auth/login',
					headers: {
						'content-type': 'application/json',
						'content-length': Buffer.byteLength(body),
						origin: `http://127.0.0.1:${port}`,
					},
				},
				(response) => {
					response.resume();
					resolve(response.statusCode);
				},
			);
			request.on('error', reject);
			for (const [i, piece] of pieces.entries()) setTimeout(() => request.write(piece), i * 1_000);
			setTimeout(() => request.end(), pieces.length * 1_000);
		});
		expect(slow).toBe(401);
		// The server goes on answering.
		const health = await fetch(`http://127.0.0.1:${port}/api/health`);
		expect(health.status).toBe(200);
		server.npm.kill('SIGTERM');
		expect(await server.exited).toBe(0);
	});

	test('restarts on one data folder never refuse, and leave 127.0.0.1 its sign-up budget', async () => {
		test.setTimeout(300_000);
		const port = await freePort();
		dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-restarts-'));
		// One sign-up an hour: a start that seeded through sign-up would spend it, and the second
		// demo member would already be refused on the first start.
		const budget = { SIGNUPS_PER_HOUR: '1' };
		for (let start = 1; start <= 6; start++) {
			const server = await startServer(port, dataDir, budget);
			child = server.npm;
			if (start === 6) {
				const signup = await fetch(`http://127.0.0.1:${port}/api/auth/signup`, {
					method: 'POST',
					headers: { 'content-type': 'application/json', origin: `http://127.0.0.1:${port}` },
					body: JSON.stringify({
						first_name: 'Rita',
						last_name: 'Restart',
						email: 'rita.restart@example.com',
						password: 'six restarts and a trail run',
						birthdate: '1991-02-03',
						gender: 'F',
						location: { country: 'US', region: 'PA', locality: 'Harrisburg' },
					}),
				});
				expect(signup.status, await signup.clone().text()).toBe(201);
			}
			server.npm.kill('SIGTERM');
			expect(await server.exited).toBe(0);
		}
	});
});
