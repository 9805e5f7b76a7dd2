import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { logIn, open } from './helpers';

/**
 * Page side margins on a wide screen: what a page shows keeps clear of the window's edges by the
 * same margin as the member's other pages (the page column's inline padding), the planner's map
 * and the stats charts included.
 */
const BLANK_TILE = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
	'base64',
);

/** The gaps between the window's edges and the outermost thing shown in the page's main area. */
async function sideGaps(
	page: Page,
): Promise<{ left: number; right: number; leftmost: string; rightmost: string }> {
	return page.evaluate(() => {
		const main = document.querySelector('main') as HTMLElement;
		const width = document.documentElement.clientWidth;
		// What a box clips or scrolls is drawn inside that box: the box is what counts.
		const clipped = (element: Element) => {
			for (let node = element.parentElement; node && node !== main; node = node.parentElement) {
				if (getComputedStyle(node).overflowX !== 'visible') return true;
			}
			return false;
		};
		const name = (element: Element) =>
			`${element.tagName.toLowerCase()}${[...element.classList].map((c) => `.${c}`).join('')}`;
		let left = { at: Number.POSITIVE_INFINITY, element: main as Element };
		let right = { at: Number.NEGATIVE_INFINITY, element: main as Element };
		// A box counts where something is drawn: text or a picture, a field, a background or a border.
		// A column's padding is not drawn, and is the margin this measures.
		const draws = (element: Element) => {
			if (element.children.length === 0 || element instanceof SVGSVGElement) return true;
			if (/^(IMG|CANVAS|VIDEO|IFRAME|INPUT|SELECT|TEXTAREA|BUTTON)$/.test(element.tagName)) return true;
			const style = getComputedStyle(element);
			return (
				style.backgroundColor !== 'rgba(0, 0, 0, 0)' ||
				style.backgroundImage !== 'none' ||
				style.boxShadow !== 'none' ||
				['Top', 'Right', 'Bottom', 'Left'].some(
					(side) => style.getPropertyValue(`border-${side.toLowerCase()}-width`) !== '0px',
				)
			);
		};
		for (const element of main.querySelectorAll('*')) {
			const box = element.getBoundingClientRect();
			// Screen-reader text is a 1 px box; nothing to see.
			if (box.width <= 1 || box.height <= 1) continue;
			if (!element.checkVisibility({ visibilityProperty: true }) || clipped(element) || !draws(element))
				continue;
			if (box.left < left.at) left = { at: box.left, element };
			if (box.right > right.at) right = { at: box.right, element };
		}
		return {
			left: left.at,
			right: width - right.at,
			leftmost: name(left.element),
			rightmost: name(right.element),
		};
	});
}

async function firstLink(page: Page, listPath: string, prefix: string): Promise<string> {
	await open(page, listPath);
	const href = await page.locator(`main a[href^="${prefix}"]`).first().getAttribute('href');
	expect(href).toMatch(new RegExp(`^${prefix}\\d+`));
	return (href as string).split('?')[0];
}

test.describe('side margins at 1280 px @desktop-layout', () => {
	test.beforeEach(async ({ page, baseURL }) => {
		await page.route('**/tiles/**', (route) => route.fulfill({ contentType: 'image/png', body: BLANK_TILE }));
		await logIn(page.request, baseURL as string, DEMO_LOGIN);
	});

	for (const [name, pathOf] of [
		['the planner', async () => '/routes/create/'],
		[
			'the planner editing a route',
			async (page) =>
				(await firstLink(page, '/routes/my_routes/', '/routes/view/')).replace('/view/', '/edit/'),
		],
		['the stats page', async () => '/workout/stats/'],
		['the lifetime stats page', async () => '/workouts/dashboard/lifetime/'],
		['the goals page', async () => '/goals/'],
	] as [string, (page: Page) => Promise<string>][]) {
		test(`${name} keeps the same side margins as the member's other pages`, async ({ page }) => {
			await open(page, await pathOf(page));
			await page.waitForLoadState('networkidle');
			// The margin of the page column every page shares, which the header's row lines up with.
			const usual = await page.locator('.site-header__inner').evaluate((row) => {
				const style = getComputedStyle(row);
				const box = row.getBoundingClientRect();
				return {
					left: box.left + Number.parseFloat(style.paddingLeft),
					right: document.documentElement.clientWidth - box.right + Number.parseFloat(style.paddingRight),
				};
			});
			expect(usual.left).toBeGreaterThanOrEqual(16);
			expect(usual.right).toBeGreaterThanOrEqual(16);
			const gaps = await sideGaps(page);
			expect(gaps.left, `left edge: ${gaps.leftmost}`).toBeGreaterThanOrEqual(usual.left - 0.5);
			expect(gaps.right, `right edge: ${gaps.rightmost}`).toBeGreaterThanOrEqual(usual.right - 0.5);
		});
	}
});
