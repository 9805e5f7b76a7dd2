import { describe, expect, test } from 'vitest';
import {
	DEFAULT_COUNTRY,
	DEFAULT_LOCATION_TEXT,
	DEFAULT_MAP_CENTER,
	getRegionForCountry,
	SERVED_COUNTRIES,
	slugify,
} from '../../../src/lib/locations/contract';
import { cityRadiusM, findNearestCity, loadCountry } from '../../../src/lib/locations/server/service';

describe('getRegionForCountry', () => {
	test.each([
		// EU1: the named thirteen
		...['DE', 'FR', 'ES', 'IT', 'CN', 'HK', 'KR', 'PL', 'RO', 'RU', 'AT', 'CH', 'CY'].map((c) => [c, 'EU1']),
		// EU2: other European countries and the named ones beyond Europe
		...['GB', 'IE', 'NL', 'BE', 'SE', 'NO', 'PT', 'GR', 'AD', 'MC'].map((c) => [c, 'EU2']),
		...['CA', 'AU', 'BR', 'JP', 'MX', 'SG'].map((c) => [c, 'EU2']),
		// the rest of the world
		...['US', 'IN', 'ZA', 'AR', 'NZ', 'EG', 'TW'].map((c) => [c, 'US']),
		['de', 'EU1'],
		[' ca ', 'EU2'],
		['', 'US'],
		['ZZ', 'US'],
		['DEU', 'US'],
	])('%j → %s', (code, region) => {
		expect(getRegionForCountry(code)).toBe(region);
	});

	test('null and undefined are served from the US', () => {
		expect(getRegionForCountry(null)).toBe('US');
		expect(getRegionForCountry(undefined)).toBe('US');
	});
});

test('defaults: the US, "United States", a map centre in the central US', () => {
	expect(DEFAULT_COUNTRY).toBe('US');
	expect(DEFAULT_LOCATION_TEXT).toBe('United States');
	expect(DEFAULT_MAP_CENTER.lat).toBeGreaterThan(36);
	expect(DEFAULT_MAP_CENTER.lat).toBeLessThan(42);
	expect(DEFAULT_MAP_CENTER.lng).toBeGreaterThan(-102);
	expect(DEFAULT_MAP_CENTER.lng).toBeLessThan(-94);
});

test.each([
	['Harrisburg', 'harrisburg'],
	['New York City', 'new-york-city'],
	['Saint-Jérôme', 'saint-jerome'],
	['Düsseldorf', 'dusseldorf'],
	['Straße', 'strasse'],
	["Coeur d'Alene", 'coeur-d-alene'],
	['  --Ciudad   Juárez-- ', 'ciudad-juarez'],
])('slugify(%j) = %j', (name, slug) => {
	expect(slugify(name)).toBe(slug);
});

describe('the location data', () => {
	test.each(SERVED_COUNTRIES)(
		'%s: every city has a unique path within its state and a state',
		async (code) => {
			const country = await loadCountry(code);
			expect(country.states.length).toBeGreaterThan(0);
			const seen = new Set<string>();
			for (const city of country.cities) {
				const key = `${city.state.code}/${city.slug}`;
				expect(seen.has(key), key).toBe(false);
				seen.add(key);
				expect(city.slug).toMatch(/^[a-z0-9-]+$/);
			}
			expect(country.citiesByPath.size).toBe(country.cities.length);
			for (const state of country.states) expect(state.code).toMatch(/^[a-z0-9-]{1,6}$/);
		},
	);

	test('assigns cities outside the US to their state by the nearest dataset city', async () => {
		const de = await loadCountry('de');
		expect(de.citiesByPath.get('by/munich')?.name).toBe('Munich');
		const ca = await loadCountry('ca');
		expect(ca.citiesByPath.get('on/toronto')?.name).toBe('Toronto');
		const ad = await loadCountry('ad');
		expect(ad.statesByCode.get('07')?.cities.map((c) => c.name)).toContain('Andorra la Vella');
	});

	test('the more populous namesake keeps the plain slug', async () => {
		const us = await loadCountry('us');
		expect(us.citiesByPath.get('pa/harrisburg')?.population).toBeGreaterThan(40_000);
	});

	test('findNearestCity finds Harrisburg from downtown and nothing mid-ocean', async () => {
		expect((await findNearestCity(40.26, -76.88))?.name).toBe('Harrisburg');
		expect(await findNearestCity(30, -40)).toBeNull();
	});

	test.each([
		[8_000_000, 40_000],
		[500_000, 25_000],
		[50_000, 15_000],
		[1_200, 10_000],
	])('a city of %i people looks %i m out for routes', (population, radius) => {
		expect(cityRadiusM(population)).toBe(radius);
	});
});

describe("a state's city list", () => {
	test('names each Pennsylvania town once, each with its own population', async () => {
		const { listCities } = await import('../../../src/lib/locations/server/service');
		const { cities } = await listCities('us', 'pa');
		// A namesake that carries the same census figure, give or take a person, is one town listed twice.
		const twice = cities.filter((city, index) =>
			cities
				.slice(0, index)
				.some((other) => other.name === city.name && Math.abs(other.population - city.population) <= 2),
		);
		expect(twice.map((city) => city.name)).toEqual([]);
		expect(cities.filter((city) => city.name === 'Shiloh').map((city) => city.population)).toEqual([11_218]);
		// Towns of this size do not have the same population to the person; when two do, the figure is borrowed.
		const shared = cities.filter(
			(city, index) =>
				city.population >= 20_000 &&
				cities.some((other, at) => at !== index && other.population === city.population),
		);
		expect(shared.map((city) => `${city.name} ${city.population}`)).toEqual([]);
	});
});
