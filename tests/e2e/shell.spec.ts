import { getPromoText } from '../../src/lib/site/promo';
import { getVariant, type SiteVariantSlug } from '../../src/lib/site/variants';
import { expect, test } from './fixtures';
import {
	expectNoSeriousA11yIssues,
	forbidExternalRequests,
	member,
	mvpMember,
	open,
	setGeo,
	signInWithHint,
} from './helpers';

const isMobile = (name: string) => name.startsWith('mobile');
// The server under test was built for this variant (SITE_VARIANT, fitness by default).
const variant = getVariant((process.env.SITE_VARIANT ?? 'fitness') as SiteVariantSlug);

test.describe('pages of the shell', () => {
	for (const path of ['/', '/mvp', '/mvp/']) {
		test(`${path} answers 200 with landmarks and no serious accessibility issues`, async ({ page }) => {
			const response = await open(page, path);
			expect(response?.status()).toBe(200);
			await expect(page.getByRole('banner')).toBeVisible();
			await expect(page.getByRole('main')).toBeVisible();
			await expect(page.getByRole('contentinfo')).toBeVisible();
			await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1);
			await expectNoSeriousA11yIssues(page);
		});
	}

	for (const path of ['/no/such/page', '/error/notfound', '/us/stores']) {
		// The status does not depend on the screen; the page's fit at 375 px is layout-375.spec.ts's.
		test(`${path} shows the not-found page with status 404 @desktop-layout`, async ({ page }) => {
			const response = await open(page, path);
			expect(response?.status()).toBe(404);
			await expect(page.getByRole('heading', { level: 1 })).toHaveText('We couldn’t find that page');
			await expect(page.getByRole('main').getByRole('link', { name: 'Home' })).toHaveAttribute('href', '/');
			await expectNoSeriousA11yIssues(page);
		});
	}

	test('nothing is fetched from another host', async ({ page, baseURL }) => {
		const external = await forbidExternalRequests(page, baseURL ?? '');
		for (const path of ['/', '/mvp', '/no/such/page']) await open(page, path);
		expect(external).toEqual([]);
	});

	test('/favicon.ico answers with the icon, for browsers and tools that ask for it by that name', async ({
		request,
	}) => {
		const response = await request.get('/favicon.ico');
		expect(response.status()).toBe(200);
		expect(response.headers()['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
		// An ICO file: reserved 0, type 1 (icon), then how many images it holds.
		const head = (await response.body()).subarray(0, 6);
		expect([head.readUInt16LE(0), head.readUInt16LE(2), head.readUInt16LE(4)]).toEqual([0, 1, 3]);
	});

	test('fonts are self-hosted Plus Jakarta Sans and Barlow', async ({ page }) => {
		await open(page, '/');
		await page.evaluate(() => document.fonts.ready);
		const loaded = await page.evaluate(() =>
			[...document.fonts]
				.filter((font) => font.status === 'loaded')
				.map((font) => font.family.replaceAll('"', '')),
		);
		expect(loaded).toContain('Plus Jakarta Sans Variable');
		expect(loaded).toContain('Barlow');
	});

	test('the skip link moves focus to the main content', async ({ page }) => {
		await open(page, '/');
		await page.keyboard.press('Tab');
		const skip = page.getByRole('link', { name: 'Skip to main content' });
		await expect(skip).toBeFocused();
		await page.keyboard.press('Enter');
		await expect(page.locator('#main')).toBeFocused();
	});

	test('the body is never wider than 1552 px', async ({ page }) => {
		await page.setViewportSize({ width: 1700, height: 900 });
		await open(page, '/');
		const width = await page.evaluate(() => document.body.getBoundingClientRect().width);
		expect(width).toBe(1552);
	});
});

// The same scripts load at every width; Lighthouse weighs them again on its mobile profile.
test.describe('script budget @desktop-layout', () => {
	for (const path of ['/', '/mvp', '/no/such/page']) {
		test(`${path} has no island, loads no React and ships at most 10 KB of gzipped script`, async ({
			page,
			request,
		}) => {
			const scriptUrls: string[] = [];
			page.on('request', (req) => {
				if (req.resourceType() === 'script') scriptUrls.push(req.url());
			});
			await open(page, path);
			await expect(page.locator('astro-island')).toHaveCount(0);
			const inline = await page.evaluate(() =>
				[...document.querySelectorAll('script:not([src])')].map((script) => script.textContent ?? ''),
			);
			const external = await Promise.all(
				scriptUrls.map(async (url) => (await (await request.get(url)).body()).toString('utf8')),
			);
			// The home page's city search names React in a lazy import map, loaded on first use only.
			expect(scriptUrls.filter((url) => /\/_astro\/(react|client|mount-)[.\w-]*\.js/.test(url))).toEqual([]);
			expect(external.join('')).not.toMatch(/useState|hydrateRoot/);
			const { gzipSync } = await import('node:zlib');
			const gzipped = gzipSync([...inline, ...external].join('\n'), { level: 9 }).length;
			expect(gzipped).toBeGreaterThan(0);
			expect(gzipped).toBeLessThanOrEqual(10 * 1024);
		});
	}
});

test.describe('header for visitors', () => {
	test('offers Log in and Sign Up that bring the visitor back', async ({ page }) => {
		await open(page, '/?from=test');
		await expect(page.getByRole('banner').getByRole('link', { name: 'Log in' })).toHaveAttribute(
			'href',
			'/auth/login/?next=%2F%3Ffrom%3Dtest',
		);
		await expect(page.getByRole('banner').getByRole('link', { name: 'Sign Up' })).toHaveAttribute(
			'href',
			'/auth/signup/?next=%2F%3Ffrom%3Dtest',
		);
		await expect(page.locator('[data-profile-menu]')).toBeHidden();
	});

	test('the footer offers Log In and Register, the current year and no Privacy Request link', async ({
		page,
	}) => {
		await open(page, '/');
		const footer = page.getByRole('contentinfo');
		await expect(footer.getByRole('link', { name: 'Log In' })).toBeVisible();
		await expect(footer.getByRole('link', { name: 'Register' })).toBeVisible();
		await expect(footer.getByRole('link', { name: 'Account Settings' })).toBeHidden();
		await expect(footer.getByRole('link', { name: 'Privacy Request' })).toBeHidden();
		await expect(footer).toContainText(`© ${new Date().getFullYear()}`);
		for (const name of [
			'Privacy Policy',
			'Terms of Use',
			'Cookie Policy',
			'Privacy Notice',
			'Find Your City',
			'Go MVP',
		]) {
			await expect(footer.getByRole('link', { name })).toBeVisible();
		}
	});

	test('Manage Cookie Preferences opens a dialog that explains the cookies', async ({ page }) => {
		await open(page, '/');
		await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
		const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
		await expect(dialog).toBeVisible();
		await expectNoSeriousA11yIssues(page);
		await dialog.getByRole('button', { name: 'Cancel' }).click();
		await expect(dialog).toBeHidden();
	});
});

test.describe('privacy request link', () => {
	for (const [geo, shown] of [
		['US-CA', true],
		['US-VA', true],
		['US-NY', false],
		['CA-ON', false],
	] as const) {
		test(`is ${shown ? 'shown' : 'hidden'} for a visitor in ${geo}`, async ({ page, context, baseURL }) => {
			await setGeo(context, baseURL ?? '', geo);
			await open(page, '/');
			const link = page.getByRole('contentinfo').getByRole('link', { name: 'Privacy Request' });
			if (shown) await expect(link).toBeVisible();
			else await expect(link).toBeHidden();
		});
	}
});

test.describe('signed-in header on a pre-rendered page', () => {
	test('shows the member menu, members-only navigation and account links', async ({
		page,
		context,
		baseURL,
	}, info) => {
		await signInWithHint(context, baseURL ?? '', member);
		await open(page, '/');
		const header = page.getByRole('banner');
		await expect(header.getByRole('link', { name: 'Log in' })).toBeHidden();
		const toggle = header.getByRole('button', { name: /account menu/ });
		await expect(toggle).toBeVisible();
		if (!isMobile(info.project.name)) await expect(toggle).toContainText('Ana Runner');
		// The picture endpoint answers with the default image when the member has no photo.
		const avatar = toggle.locator('img');
		await expect(avatar).toHaveAttribute('src', '/profile/ana.runner/picture?size=Small');
		await expect
			.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0))
			.toBe(true);
		await toggle.click();
		await expect(toggle).toHaveAttribute('aria-expanded', 'true');
		const menu = page.locator('#profile-menu-list');
		for (const name of ['Profile and Settings', 'Connected Apps', 'Privacy Center', 'Support', 'Logout']) {
			await expect(menu.getByRole('link', { name })).toBeVisible();
		}
		await expect(menu.getByRole('link', { name: 'Logout' })).toHaveAttribute('href', '/auth/logout');
		await expectNoSeriousA11yIssues(page);
		await page.keyboard.press('Escape');
		await expect(toggle).toHaveAttribute('aria-expanded', 'false');
		await expect(toggle).toBeFocused();

		const footer = page.getByRole('contentinfo');
		await expect(footer.getByRole('link', { name: 'Account Settings' })).toBeVisible();
		await expect(footer.getByRole('link', { name: 'Log In' })).toBeHidden();
		// The member's own goals page, which a page built for everyone reaches through /goals/.
		await expect(page.locator('a[href="/goals/"]')).toHaveCount(2);
		await expect(page.locator('[data-promo]')).toBeVisible();
	});

	test('asks the server for the member picture', async ({ page, context, baseURL }) => {
		await signInWithHint(context, baseURL ?? '', member);
		const picture = page.waitForRequest((req) =>
			req.url().endsWith('/profile/ana.runner/picture?size=Small'),
		);
		await open(page, '/');
		await picture;
	});

	test('hides the promo banner from MVP members', async ({ page, context, baseURL }) => {
		await signInWithHint(context, baseURL ?? '', mvpMember);
		await open(page, '/');
		await expect(page.locator('[data-promo]')).toBeHidden();
	});
});

test.describe('promo banner', () => {
	test('links to MVP, stays dismissed for the session, and the logo brings it back', async ({ page }) => {
		await open(page, '/');
		const banner = page.getByRole('complementary', { name: 'MVP membership' });
		await expect(banner).toBeVisible();
		await expect(banner.getByRole('link')).toHaveAttribute('href', '/mvp');
		await expect(banner).toContainText(getPromoText(variant.action));
		await banner.getByRole('button', { name: 'Dismiss MVP offer' }).click();
		await expect(banner).toBeHidden();
		await open(page, '/no/such/page');
		await expect(page.locator('[data-promo]')).toBeHidden();
		await open(page, '/');
		await expect(page.locator('[data-promo]')).toBeHidden();
		await page.getByRole('link', { name: `${variant.name} home` }).click();
		await page.waitForURL('**/');
		await expect(page.locator('[data-promo]')).toBeVisible();
	});

	test('is not shown on the MVP page', async ({ page }) => {
		await open(page, '/mvp');
		await expect(page.locator('[data-promo]')).toHaveCount(0);
	});

	test('comes back in a new browser session', async ({ browser }) => {
		const first = await browser.newContext();
		const page = await first.newPage();
		await open(page, '/');
		await page.getByRole('button', { name: 'Dismiss MVP offer' }).click();
		await first.close();
		const second = await browser.newContext();
		const again = await second.newPage();
		await open(again, '/');
		await expect(again.locator('[data-promo]')).toBeVisible();
		await second.close();
	});
});

// Tagged by layout: playwright.config.ts runs each tag only in the project with that screen size.
test.describe('main navigation on a desktop @desktop-layout', () => {
	test('opens on hover and lists only public links for visitors', async ({ page }) => {
		await open(page, '/');
		const nav = page.getByRole('navigation', { name: 'Main' });
		const workouts = nav.getByRole('button', { name: 'Workouts' });
		await expect(page.getByRole('button', { name: 'Open menu' })).toBeHidden();
		const tab = await page.locator('.site-header__inner').boundingBox();
		expect(tab?.height).toBe(68);
		await workouts.hover();
		await expect(workouts).toHaveAttribute('aria-expanded', 'true');
		await expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard/');
		await expect(nav.getByRole('link', { name: 'Workout Stats' })).toHaveCount(0);
		await nav.getByRole('button', { name: 'Challenges' }).hover();
		await expect(workouts).toHaveAttribute('aria-expanded', 'false');
		// The address that leads to this year's challenge, whichever year the page was built in.
		await expect(nav.getByRole('link', { name: 'You VS The Year' })).toHaveAttribute(
			'href',
			'/challenges/yvty',
		);
		await expectNoSeriousA11yIssues(page);
	});

	test('is operable with the keyboard', async ({ page }) => {
		await open(page, '/');
		const routes = page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Routes' });
		await routes.focus();
		await page.keyboard.press('Enter');
		await expect(routes).toHaveAttribute('aria-expanded', 'true');
		await page.keyboard.press('Tab');
		await expect(page.getByRole('link', { name: 'Routes home' })).toBeFocused();
		await page.keyboard.press('Escape');
		await expect(routes).toHaveAttribute('aria-expanded', 'false');
		await expect(routes).toBeFocused();
	});

	test('shows members-only links to a signed-in member', async ({ page, context, baseURL }) => {
		await signInWithHint(context, baseURL ?? '', member);
		await open(page, '/');
		const nav = page.getByRole('navigation', { name: 'Main' });
		await nav.getByRole('button', { name: 'Routes' }).click();
		for (const [name, href] of [
			['Routes home', '/routes/'],
			['Find Routes', '/routes/search/'],
			['Create Route', '/routes/create/'],
			['My Routes', '/routes/my_routes/'],
			['Find Your City', '/us/'],
		]) {
			await expect(nav.getByRole('link', { name, exact: true })).toHaveAttribute('href', href);
		}
	});
});

test.describe('drawer on a small screen @small-screen-layout', () => {
	test('opens at 80 % width below the header, hides the banner and closes with Escape', async ({ page }) => {
		await open(page, '/');
		const toggle = page.getByRole('button', { name: 'Open menu' });
		await expect(page.getByRole('navigation', { name: 'Main' })).toBeHidden();
		await expect(toggle).toHaveAttribute('aria-controls', 'site-drawer');
		await expect(page.locator('[data-promo]')).toBeVisible();
		await toggle.click();
		const close = page.getByRole('button', { name: 'Close menu' });
		await expect(close).toHaveAttribute('aria-expanded', 'true');
		const drawer = page.getByRole('navigation', { name: 'Site menu' });
		await expect(drawer).toBeVisible();
		const box = await page.locator('#site-drawer').boundingBox();
		expect(box?.width).toBe(300);
		expect(box?.y).toBe(64);
		await expect(page.locator('[data-promo]')).toBeHidden();
		await expect(drawer.getByRole('link', { name: 'Find Your City' })).toBeVisible();
		await expect(drawer.getByRole('link', { name: 'Create Route' })).toHaveCount(0);
		await expectNoSeriousA11yIssues(page);
		await page.keyboard.press('Escape');
		await expect(drawer).toBeHidden();
		await expect(toggle).toBeFocused();
		await expect(toggle).toHaveAttribute('aria-expanded', 'false');
		await expect(page.locator('[data-promo]')).toBeVisible();
	});

	test('closes when keyboard focus leaves it', async ({ page }) => {
		await open(page, '/');
		await page.getByRole('button', { name: 'Open menu' }).click();
		const drawer = page.getByRole('navigation', { name: 'Site menu' });
		await drawer.getByRole('link', { name: 'You VS The Year' }).focus();
		await page.keyboard.press('Tab');
		await expect(drawer).toBeHidden();
		await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
	});

	test('keeps the banner away after closing when it was dismissed', async ({ page }) => {
		await open(page, '/');
		await page.getByRole('button', { name: 'Dismiss MVP offer' }).click();
		await page.getByRole('button', { name: 'Open menu' }).click();
		await page.getByRole('button', { name: 'Close menu' }).click();
		await expect(page.locator('[data-promo]')).toBeHidden();
	});

	test('closes when a link is followed', async ({ page }) => {
		await open(page, '/');
		await page.getByRole('button', { name: 'Open menu' }).click();
		await page
			.getByRole('navigation', { name: 'Site menu' })
			.getByRole('link', { name: 'Find Challenges' })
			.click();
		await page.waitForURL('**/challenges/');
		await expect(page.locator('#site-drawer')).toBeHidden();
		await page.goBack();
		await expect(page.locator('#site-drawer')).toBeHidden();
		await expect(page.getByRole('button', { name: 'Open menu' })).toHaveAttribute('aria-expanded', 'false');
	});
});

test.describe('notices', () => {
	test('the refreshing-token modal covers the page and cannot be dismissed', async ({ page }) => {
		await open(page, '/');
		await page.evaluate(() =>
			(
				window as never as { mapstrideNotices: { setKey(k: string, v: boolean): void } }
			).mapstrideNotices.setKey('refreshingToken', true),
		);
		const modal = page.getByRole('dialog', { name: 'Refreshing auth token' });
		await expect(modal).toBeVisible();
		await page.keyboard.press('Escape');
		await expect(modal).toBeVisible();
		expect(await page.evaluate(() => (document.querySelector('#main') as HTMLElement).inert)).toBe(true);
		await page.evaluate(() =>
			(
				window as never as { mapstrideNotices: { setKey(k: string, v: boolean): void } }
			).mapstrideNotices.setKey('refreshingToken', false),
		);
		await expect(modal).toBeHidden();
		expect(await page.evaluate(() => (document.querySelector('#main') as HTMLElement).inert)).toBe(false);
	});

	test('the global error notice and the error screen carry the product wording', async ({ page }) => {
		await open(page, '/');
		await page.evaluate(() => {
			const notices = (window as never as { mapstrideNotices: { setKey(k: string, v: boolean): void } })
				.mapstrideNotices;
			notices.setKey('globalError', true);
			notices.setKey('errorScreen', true);
		});
		await expect(page.getByRole('alert')).toHaveText(
			'This page encountered an error.  Please refresh and try again.',
		);
		const screen = page.getByRole('main');
		await expect(screen.getByRole('heading', { name: 'Looks like something went wrong' })).toBeVisible();
		await expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute('href', '/support/');
		await expect(page.getByRole('heading', { name: 'Everything you need to go further' })).toBeHidden();
		await expectNoSeriousA11yIssues(page);
		await page.evaluate(() =>
			(
				window as never as { mapstrideNotices: { setKey(k: string, v: boolean): void } }
			).mapstrideNotices.setKey('errorScreen', false),
		);
		await expect(page.getByRole('heading', { name: 'Everything you need to go further' })).toBeVisible();
	});
});

test.describe('bootup configuration', () => {
	test('is served to islands with the variant, control rollouts for visitors and no token', async ({
		request,
	}) => {
		const response = await request.get('/api/site/bootup');
		expect(response.status()).toBe(200);
		expect(response.headers()['cache-control']).toBe('private, no-store');
		const bootup = await response.json();
		expect(bootup.site.variant).toBe(variant.slug);
		expect(bootup.authToken).toBeNull();
		expect(bootup.messages.globalError).toBe(
			'This page encountered an error.  Please refresh and try again.',
		);
		expect(bootup.rollouts.map((rollout: { variant_name: string }) => rollout.variant_name)).toEqual([
			'control',
			'control',
			'control',
			'control',
		]);
	});

	test('offers the privacy request link to a visitor in an eligible state', async ({ request }) => {
		const inOregon = await (
			await request.get('/api/site/bootup', { headers: { cookie: 'ms_geo=US-OR' } })
		).json();
		const inOhio = await (
			await request.get('/api/site/bootup', { headers: { cookie: 'ms_geo=US-OH' } })
		).json();
		expect(inOregon.privacyRequestLink).toBe('/privacy_center/manage/');
		expect(inOhio.privacyRequestLink).toBeNull();
	});
});
