import { expect, test } from '@playwright/test';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { SHELL_MESSAGES } from '../../src/lib/site/messages';
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
		'/password_reset/%00',
		'/verify_email/%00',
	]) {
		test(`${path} answers 404 with the not-found page, never 500`, async ({ request }) => {
			const response = await request.get(path, { maxRedirects: 0 });
			expect(response.status()).toBe(404);
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
		await expect(page.getByText('No apps or devices are connected to your account.')).toBeVisible();
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

test('an on-demand page keeps its hashed script policy and still refuses framing', async ({ request }) => {
	// Rendered on demand so that it can answer 404.
	const response = await request.get('/error/notfound');
	expect(response.status()).toBe(404);
	const policy = response.headers()['content-security-policy'];
	expect(policy).toContain("frame-ancestors 'none'");
	expect(policy).toMatch(/script-src[^;]*'sha256-/);
});
