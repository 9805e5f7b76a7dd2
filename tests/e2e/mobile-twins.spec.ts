import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { logIn } from './helpers';

/**
 * Every app-webview twin the product promises answers 200 to a signed-in member, with no site header
 * or footer: the app draws its own chrome around these pages.
 */
const hotel = 'lat=40.2637&lng=-76.8839&name=Riverfront%20Hotel';
const MOBILE_PATHS = [
	'/mobile/workout/stats',
	'/mobile/account/delete',
	'/mobile/privacy_center/manage',
	'/mobile/privacy_center/help',
	'/mobile/privacy_center/ineligible',
	'/mobile/privacy_center/consents/decline',
	'/mobile/privacy_center/consents/edit',
	'/mobile/challenges/yvty2025',
	`/mobile/marriott_routes?${hotel}`,
	'/mobile/marriott_routes/details',
	'/mobile/marriott_routes/location_error',
	`/mobile/marriott_routes/not_found?${hotel}`,
];

test.describe('app-webview twins @desktop-layout', () => {
	test('each /mobile/ page answers 200 without header or footer', async ({ page, baseURL }) => {
		await logIn(page.request, baseURL as string, DEMO_LOGIN);
		const list = await page.request.get(`/mobile/marriott_routes?${hotel}`);
		const detailsHref = /href="(\/mobile\/marriott_routes\/details\?[^"]+)"/
			.exec(await list.text())?.[1]
			?.replaceAll('&amp;', '&');
		expect(detailsHref, 'the hotel list links a route').toBeTruthy();
		for (const path of MOBILE_PATHS) {
			const address = path === '/mobile/marriott_routes/details' ? (detailsHref as string) : path;
			const response = await page.request.get(address, { maxRedirects: 0 });
			expect(response.status(), address).toBe(200);
			const html = await response.text();
			expect(html, address).toContain('<body class="mobile"');
			// Content may have headings in <header>; the site chrome is what must be absent.
			expect(html, address).not.toMatch(/class="site-(header|footer)"|data-promo\b/);
		}
	});
});
