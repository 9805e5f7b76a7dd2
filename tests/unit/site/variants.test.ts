import { describe, expect, it } from 'vitest';
import { SITE_VARIANTS } from '~/lib/core/config';
import { getVariant, VARIANTS } from '~/lib/site/variants';

describe('site variants', () => {
	it('defines every variant the config accepts', () => {
		expect(Object.keys(VARIANTS).sort()).toEqual([...SITE_VARIANTS].sort());
	});

	it.each([
		['fitness', 'training'],
		['walk', 'walking'],
		['run', 'running'],
		['ride', 'cycling'],
		['uarun', 'running'],
	] as const)('%s is about %s', (slug, action) => {
		expect(getVariant(slug).action).toBe(action);
	});

	it('gives each variant its own name and store links that name it', () => {
		const names = new Set(SITE_VARIANTS.map((slug) => getVariant(slug).name));
		expect(names.size).toBe(SITE_VARIANTS.length);
		for (const slug of SITE_VARIANTS) {
			const variant = getVariant(slug);
			expect(variant.appStores.ios).toContain(encodeURIComponent(variant.name));
			expect(variant.appStores.android).toContain(encodeURIComponent(variant.name));
		}
	});
});
