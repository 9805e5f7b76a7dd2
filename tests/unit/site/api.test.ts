import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import type { Viewer } from '~/lib/auth/contract';
import { siteApi } from '~/lib/site/server/api';

function appWith(viewer: Viewer | null) {
	const app = new Hono<{ Variables: { viewer?: Viewer | null } }>();
	app.use(async (c, next) => {
		c.set('viewer', viewer);
		await next();
	});
	return app.route('/', siteApi);
}

describe('GET /site/bootup', () => {
	it('answers the bootup configuration without caching it', async () => {
		const response = await appWith(null).request('/site/bootup');
		expect(response.status).toBe(200);
		expect(response.headers.get('cache-control')).toBe('private, no-store');
		const body = await response.json();
		expect(body.authToken).toBeNull();
		expect(body.rollouts.every((r: { variant_name: string }) => r.variant_name === 'control')).toBe(true);
	});

	it('unlocks premium for an MVP member', async () => {
		const viewer = { id: 8, username: 'mo', displayName: 'Mo', isPremium: true };
		const body = await (await appWith(viewer).request('/site/bootup')).json();
		expect(body.appConfig.unlockPremium).toBe(true);
	});

	it('offers the privacy request link from the geo cookie when no trusted proxy is configured', async () => {
		const inUtah = await (
			await appWith(null).request('/site/bootup', { headers: { cookie: 'ms_geo=US-UT' } })
		).json();
		const spoofedHeader = await (
			await appWith(null).request('/site/bootup', {
				headers: { 'x-geo-country': 'US', 'x-geo-region': 'CA' },
			})
		).json();
		expect(inUtah.privacyRequestLink).toBe('/privacy_center/manage/');
		expect(spoofedHeader.privacyRequestLink).toBeNull();
	});
});
