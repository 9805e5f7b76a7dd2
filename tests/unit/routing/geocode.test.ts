import { describe, expect, it } from 'vitest';
import { searchPlaces } from '../../../src/lib/routing/geocode.ts';
import { readSearchHome } from '../../../src/lib/routing/server/search-home.ts';

function firstLabels(query: string, home: Parameters<typeof searchPlaces>[4]) {
	return searchPlaces(query, [], 5, true, home).map(
		({ place }) => `${place.name}, ${place.admin || place.country}`,
	);
}

describe('place suggestions rank by where the searcher is, then by population', () => {
	it('offers Harrisburg, PA first to a member in Pennsylvania', () => {
		expect(firstLabels('Harr', { country: 'US', region: 'PA' })[0]).toBe('Harrisburg, PA');
	});

	it('puts US places before a larger UK town for a US member', () => {
		const labels = firstLabels('Harr', { country: 'US', region: null });
		expect(labels.indexOf('Harrisburg, PA')).toBeGreaterThanOrEqual(0);
		expect(labels.indexOf('Harrogate, ENG')).toBe(-1);
		// Among US places, the larger comes first.
		expect(labels.slice(0, 2)).toEqual(['Harrisonburg, VA', 'Harrisburg, PA']);
	});

	it('offers Harrogate first to a member in Great Britain', () => {
		expect(firstLabels('Harr', { country: 'GB', region: null })[0]).toBe('Harrogate, ENG');
	});

	it('still prefers a whole-name match over a nearby prefix match', () => {
		// "Pennsylvania" the state matches whole; Pennsylvania Furnace, PA only by prefix.
		expect(firstLabels('Pennsylvania', { country: 'GB', region: null })[0]).toBe('Pennsylvania, PA');
	});

	it('reads the visitor geo cookie, and assumes the United States without one', () => {
		expect(readSearchHome('a=b; ms_geo=GB-ENG')).toEqual({ country: 'GB', region: 'ENG' });
		expect(readSearchHome(undefined)).toEqual({ country: 'US', region: null });
	});
});
