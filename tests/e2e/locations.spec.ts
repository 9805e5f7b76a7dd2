import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, open } from './helpers';

/** Find-your-city, state and city route pages, and the city search widget (issue 7). */

async function readJsonLd(page: Page): Promise<Record<string, unknown>> {
	const text = await page.locator('script[type="application/ld+json"]').first().textContent();
	return JSON.parse(text ?? 'null');
}

async function scriptBytes(page: Page): Promise<number> {
	return page.evaluate(() =>
		performance
			.getEntriesByType('resource')
			.filter(
				(entry) =>
					(entry as PerformanceResourceTiming).initiatorType === 'script' || entry.name.endsWith('.js'),
			)
			.reduce((sum, entry) => sum + (entry as PerformanceResourceTiming).encodedBodySize, 0),
	);
}

test.describe('find-your-city', () => {
	test('/us lists every state and the largest cities, with title, canonical and structured data', async ({
		page,
	}) => {
		const response = await open(page, '/us/');
		expect(response?.status()).toBe(200);
		await expect(page).toHaveTitle(/Find Your City: routes in United States/);
		expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(/\/us\/$/);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Find routes in your city');
		const states = page.getByRole('region', { name: 'States' }).getByRole('link');
		await expect(states).toHaveCount(51);
		await expect(page.getByRole('link', { name: 'Pennsylvania', exact: true })).toHaveAttribute(
			'href',
			'/us/pa/',
		);
		await expect(
			page.getByRole('region', { name: 'Popular cities' }).getByRole('link').first(),
		).toContainText('New York City');
		const jsonLd = await readJsonLd(page);
		expect(jsonLd['@type']).toBe('CollectionPage');
		await expect(page.getByRole('combobox', { name: 'Search Any City or State' })).toBeVisible();
	});

	test('each served country has a page; other codes are not found', async ({ request }) => {
		for (const code of ['ca', 'au', 'de', 'mx', 'ad'])
			expect((await request.get(`/${code}/`)).status()).toBe(200);
		expect((await request.get('/xx/')).status()).toBe(404);
	});
});

test.describe('state page', () => {
	test('/us/pa lists popular cities and cities A–Z linking to city pages', async ({ page }) => {
		const response = await open(page, '/us/pa');
		expect(response?.status()).toBe(200);
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Routes in Pennsylvania');
		const popular = page.getByRole('region', { name: 'Popular cities in Pennsylvania' }).getByRole('link');
		await expect(popular.first()).toContainText('Philadelphia');
		await expect(page.getByRole('link', { name: 'Harrisburg', exact: true })).toHaveAttribute(
			'href',
			'/us/pa/harrisburg/',
		);
		expect((await readJsonLd(page)).about).toMatchObject({ '@type': 'State', name: 'Pennsylvania' });
	});
});

test.describe('city page', () => {
	test('/us/pa/harrisburg has its map with OSM credit, route list and structured data', async ({ page }) => {
		const response = await open(page, '/us/pa/harrisburg');
		expect(response?.status()).toBe(200);
		await expect(page).toHaveTitle(/Harrisburg, PA running, walking and cycling routes/);
		expect(await page.locator('meta[name="description"]').getAttribute('content')).toContain('Harrisburg');
		expect(await page.locator('link[rel="canonical"]').getAttribute('href')).toMatch(
			/\/us\/pa\/harrisburg\/$/,
		);
		await expect(page.getByRole('img', { name: 'Map of Harrisburg' })).toBeVisible();
		await expect(page.getByText('© OpenStreetMap contributors')).toBeVisible();
		await expect(page.getByRole('heading', { name: 'Popular routes in Harrisburg' })).toBeVisible();
		const jsonLd = await readJsonLd(page);
		expect(jsonLd.about).toMatchObject({
			'@type': 'City',
			name: 'Harrisburg',
			sameAs: 'https://www.geonames.org/5192726',
		});
		// The route list asks the API for what was shared since the build.
		await expect(page.locator('[data-city-routes]')).toHaveAttribute('data-refreshed', 'true', {
			timeout: 15_000,
		});
		await expect(page.getByRole('link', { name: 'Pennsylvania' })).toHaveAttribute('href', '/us/pa/');
	});

	test('reading a city page ships well under 30 KB of script and no React', async ({ page }) => {
		await open(page, '/us/pa/harrisburg/');
		await page.waitForLoadState('networkidle');
		expect(await scriptBytes(page)).toBeLessThan(30 * 1024);
		const scripts = await page.evaluate(() => performance.getEntriesByType('resource').map((e) => e.name));
		expect(scripts.some((name) => /mount-city-search|client\.[\w-]+\.js/.test(name))).toBe(false);
	});

	test('a smaller city is rendered on demand and may be cached', async ({ request }) => {
		const response = await request.get('/us/pa/wormleysburg/');
		expect(response.status()).toBe(200);
		expect(response.headers()['cache-control']).toContain('public');
		const html = await response.text();
		expect(html).toContain('Routes in Wormleysburg, PA');
		expect(html).toContain('application/ld+json');
	});

	for (const path of [
		'/us/stores',
		'/us/zz',
		'/us/pa/atlantis',
		'/xx/pa/harrisburg',
		'/us/pa/harrisburg/extra',
	]) {
		test(`${path} answers 404`, async ({ request }) => {
			const response = await request.get(path);
			expect(response.status()).toBe(404);
			expect(await response.text()).toContain('404');
		});
	}

	for (const path of ['/us/', '/us/pa/', '/us/pa/harrisburg/']) {
		test(`${path} has no serious accessibility issues`, async ({ page }) => {
			test.setTimeout(60_000);
			await open(page, path);
			await expectNoSeriousA11yIssues(page);
		});
	}
});

test.describe('city search widget', () => {
	// A person clicks the field and types as soon as the page shows; the widget takes over meanwhile.
	for (const path of ['/', '/us/', '/us/pa/', '/us/pa/harrisburg/']) {
		for (const slowScripts of [false, true]) {
			test(`${path}: typing right after load${slowScripts ? ' on a slow connection' : ''} keeps every letter, the focus and the caret`, async ({
				page,
			}) => {
				if (slowScripts) {
					await page.route('**/_astro/**', async (route) => {
						await new Promise((resolve) => setTimeout(resolve, 1000));
						await route.continue();
					});
				}
				await page.goto(path, { waitUntil: 'commit' });
				const input = page.getByRole('combobox', { name: 'Search Any City or State' }).first();
				await input.click();
				await page.keyboard.type('Pittsburgh', { delay: 80 });
				await expect(page.getByRole('option', { name: 'Pittsburgh, PA, US' }).first()).toBeVisible({
					timeout: 15_000,
				});
				await expect(input).toHaveValue('Pittsburgh');
				await expect(input).toBeFocused();
				const caret = await input.evaluate((field: HTMLInputElement) => [
					field.selectionStart,
					field.selectionEnd,
				]);
				expect(caret).toEqual([10, 10]);
			});
		}
	}

	test('searches from 3 characters, moves by keyboard, enables Go once chosen and opens the city page', async ({
		page,
	}) => {
		await open(page, '/us/');
		const input = page.getByRole('combobox', { name: 'Search Any City or State' });
		const go = page.getByRole('button', { name: 'Go', exact: true });
		await expect(go).toBeDisabled();
		await input.click();
		await expect(page.locator('[data-city-search]')).toHaveAttribute('data-hydrated', 'true');
		const searches: string[] = [];
		page.on('request', (request) => {
			if (request.url().includes('search_for_city')) searches.push(request.url());
		});
		await input.pressSequentially('Ha', { delay: 50 });
		await page.waitForTimeout(600);
		expect(searches).toEqual([]);
		await expect(page.getByText('Type at least 3 characters')).toBeVisible();

		await input.pressSequentially('rrisburg', { delay: 30 });
		const listbox = page.getByRole('listbox');
		await expect(listbox).toBeVisible({ timeout: 15_000 });
		// Debounced: one request for the whole burst of typing.
		expect(searches).toHaveLength(1);
		await expect(input).toHaveAttribute('aria-expanded', 'true');
		const option = page.getByRole('option', { name: 'Harrisburg, PA, US' });
		await expect(option).toBeVisible();

		await input.press('ArrowDown');
		const activeId = await input.getAttribute('aria-activedescendant');
		expect(activeId).toBeTruthy();
		await expect(page.locator(`[id="${activeId}"]`)).toHaveAttribute('aria-selected', 'true');
		// Walk to the Pennsylvania one and choose it with Enter.
		const options = await page.getByRole('option').allTextContents();
		const index = options.indexOf('Harrisburg, PA, US');
		for (let i = 0; i < index; i++) await input.press('ArrowDown');
		await input.press('Enter');
		await expect(input).toHaveValue('Harrisburg, PA, US');
		await expect(listbox).toBeHidden();
		await expect(go).toBeEnabled();

		await go.click();
		await page.waitForURL('**/us/pa/harrisburg/');
		await expect(page.getByRole('heading', { level: 1 })).toHaveText('Routes in Harrisburg, PA');
	});

	test('Enter on a typed name opens the first suggestion, as choosing it and pressing Go does', async ({
		page,
	}) => {
		await open(page, '/us/');
		const input = page.getByRole('combobox', { name: 'Search Any City or State' });
		await input.click();
		await expect(page.locator('[data-city-search]')).toHaveAttribute('data-hydrated', 'true');
		await input.pressSequentially('Harrisburg', { delay: 20 });
		const first = page.getByRole('option').first();
		await expect(first).toBeVisible({ timeout: 15_000 });
		const label = (await first.textContent()) ?? '';
		await input.press('Enter');
		await page.waitForURL(/\/[a-z]{2}\/[a-z-]+\/[a-z-]+\/$/);
		await expect(page.getByRole('heading', { level: 1 })).toContainText(`Routes in ${label.split(',')[0]}`);
	});

	test("shows 'No results found', Escape closes then clears, and clear resets", async ({ page }) => {
		await open(page, '/us/pa/');
		const input = page.getByRole('combobox', { name: 'Search Any City or State' });
		const go = page.getByRole('button', { name: 'View City Route' });
		await input.click();
		await expect(page.locator('[data-city-search]')).toHaveAttribute('data-hydrated', 'true');
		await input.pressSequentially('Qxzqxzq', { delay: 20 });
		await expect(page.locator('.city-search__empty')).toHaveText('No results found', { timeout: 15_000 });
		await expect(go).toBeDisabled();
		await input.press('Escape');
		await expect(page.locator('.city-search__empty')).toBeHidden();
		await input.press('Escape');
		await expect(input).toHaveValue('');

		await input.pressSequentially('Philadelphia', { delay: 20 });
		await page.getByRole('option').first().click();
		await expect(go).toBeEnabled();
		await page.getByRole('button', { name: 'Clear search' }).click();
		await expect(input).toHaveValue('');
		await expect(input).toBeFocused();
		await expect(go).toBeDisabled();
		await expect(page.getByRole('listbox')).toBeHidden();
	});

	test('the home page offers the same search and takes a visitor to the chosen city', async ({ page }) => {
		await open(page, '/');
		const band = page.getByRole('region', { name: 'Routes in your city' });
		const input = band.getByRole('combobox', { name: 'Search Any City or State' });
		await input.click();
		await expect(band.locator('[data-city-search]')).toHaveAttribute('data-hydrated', 'true');
		await input.pressSequentially('Andorra la', { delay: 20 });
		await band.getByRole('option', { name: /^Andorra la Vella/ }).click({ timeout: 15_000 });
		await band.getByRole('button', { name: 'Go', exact: true }).click();
		await page.waitForURL(/\/ad\/[\w-]+\/andorra-la-vella\/$/);
		await expect(page.getByRole('heading', { level: 1 })).toContainText('Andorra la Vella');
	});
});
