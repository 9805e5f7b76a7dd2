import { Hono } from 'hono';
import { beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createPlaceSearch, parseCoordinates } from '../../../src/lib/routes/planner-place';
import type { RouteFetch } from '../../../src/lib/routes/planner-store';
import { createRoutingApi } from '../../../src/lib/routing/server/api';
import { loadEngine } from '../../../src/lib/routing/server/regions';
import { REGIONS_DIR, TEST_CACHE_DIR } from '../routing/region-cache';

// The place search the planner asks is the routing API's, in process, over Andorra's extract.
let api: Hono;
let asked: string[];

beforeAll(async () => {
	const engine = await loadEngine({
		regionsDir: REGIONS_DIR,
		cacheDir: TEST_CACHE_DIR,
		only: ['andorra.osm.pbf'],
	});
	api = new Hono().route('/api', createRoutingApi({ engine }));
});
beforeEach(() => {
	asked = [];
});

const inProcess: RouteFetch = async (input, init) => {
	asked.push(input);
	return api.request(input, init);
};

describe('"lat, lng" typed in the Add a point field', () => {
	test.each([
		['42.5078, 1.5211', { lat: 42.5078, lng: 1.5211 }],
		[' -33.9,18.42 ', { lat: -33.9, lng: 18.42 }],
		['40, -76', { lat: 40, lng: -76 }],
		['95, 10', null],
		['10, 190', null],
		['Andorra la Vella', null],
	])('%s is read as %o', (text, point) => {
		expect(parseCoordinates(text)).toEqual(point);
	});

	test('is taken as it is, without asking the place search', async () => {
		const places = createPlaceSearch({ fetch: inProcess });
		expect(await places.find('42.5078, 1.5211')).toEqual({ lat: 42.5078, lng: 1.5211 });
		expect(asked).toEqual([]);
		expect(places.$error.get()).toBe('');
	});
});

describe('a place name typed in the Add a point field', () => {
	test('is the place search’s best match', async () => {
		const places = createPlaceSearch({ fetch: inProcess });
		const point = await places.find('  Avinguda Meritxell ');
		const best = (
			await (await api.request('/api/geocode/search?q=Avinguda+Meritxell&format=geojson&limit=1')).json()
		).features[0].geometry.coordinates;
		expect(point).toEqual({ lat: best[1], lng: best[0] });
		expect(point?.lat).toBeCloseTo(42.5, 1);
		expect(point?.lng).toBeCloseTo(1.5, 1);
		expect(asked).toEqual(['/api/geocode/search?q=Avinguda+Meritxell&format=geojson&limit=1']);
		expect(places.$error.get()).toBe('');
	});

	test('that names nothing says so, and the next search clears it', async () => {
		const places = createPlaceSearch({ fetch: inProcess });
		expect(await places.find('Qwxzv Nowhere')).toBeNull();
		expect(places.$error.get()).toBe('No place called "Qwxzv Nowhere" was found.');
		expect(await places.find('42.5, 1.52')).toEqual({ lat: 42.5, lng: 1.52 });
		expect(places.$error.get()).toBe('');
	});

	test('empty asks the member for a place, not the search', async () => {
		const places = createPlaceSearch({ fetch: inProcess });
		expect(await places.find('   ')).toBeNull();
		expect(places.$error.get()).toBe('Type "lat, lng" or a place name.');
		expect(asked).toEqual([]);
	});

	test('when the place search cannot be reached, says it did not answer', async () => {
		// Nothing listens on port 9 here: the request fails as a dropped connection does.
		const unreachable: RouteFetch = (input, init) => fetch(new URL(input, 'http://127.0.0.1:9'), init);
		const places = createPlaceSearch({ fetch: unreachable });
		expect(await places.find('Escaldes')).toBeNull();
		expect(places.$error.get()).toBe('The place search did not answer. Please try again.');
	});
});
