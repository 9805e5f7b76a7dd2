import { describe, expect, it, test } from 'vitest';
import { formatAscent, formatRouteDistance } from '../../../src/lib/locations/format';
import { boxesOverlap, drawCityMap, fitRadiusM } from '../../../src/lib/locations/map';
import { toJsonLd } from '../../../src/lib/locations/seo';
import { thinLine } from '../../../src/lib/locations/server/service';

test('the city map puts the city in the middle, north up, and leaves out towns beyond its edge', () => {
	const map = drawCityMap({
		center: { lat: 40.27, lng: -76.88 },
		radiusM: 10_000,
		places: [
			{ name: 'Harrisburg', lat: 40.27, lng: -76.88, population: 49_000, main: true },
			{ name: 'North', lat: 40.32, lng: -76.88, population: 2_000 },
			{ name: 'Far away', lat: 41.5, lng: -76.88, population: 2_000 },
		],
		routes: [
			{
				name: 'Loop',
				shape: [
					[40.27, -76.88],
					[40.28, -76.87],
				],
			},
		],
	});
	expect(map.places.map((p) => p.name)).toEqual(['Harrisburg', 'North']);
	expect(map.places[0]).toMatchObject({ x: 320, y: 200, main: true });
	expect(map.places[1].y).toBeLessThan(200);
	expect(map.places[1].x).toBe(320);
	// 10 km is 200 px (half the height), so 5 km north is 100 px up, give or take the rounding of a degree.
	expect(Math.abs(map.places[1].y - (200 - (5.56 * 200) / 10))).toBeLessThan(1);
	expect(map.routes[0].d).toMatch(/^M320 200L\d+(\.\d)? \d+(\.\d)?$/);
	expect(map.scale).toEqual({ label: '5 km', px: 100 });
});

test('thinLine keeps both ends and at most the asked number of points', () => {
	const line = Array.from({ length: 1000 }, (_, i) => [40 + i / 1000, -76] as [number, number]);
	const thin = thinLine(line, 48);
	expect(thin).toHaveLength(48);
	expect(thin[0]).toEqual([40, -76]);
	expect(thin[47]).toEqual([40.999, -76]);
	expect(thinLine(line.slice(0, 3), 48)).toHaveLength(3);
});

test('structured data cannot close its script element', () => {
	const text = toJsonLd({ name: '</script><script>alert(1)</script>' });
	expect(text).not.toContain('</script');
	expect(JSON.parse(text).name).toBe('</script><script>alert(1)</script>');
});

test.each([
	[5000, 'us', '3.11 mi'],
	[5000, 'de', '5.00 km'],
])('%i m in %s reads %s', (metres, country, text) => {
	expect(formatRouteDistance(metres, country)).toBe(text);
});

test('climb in feet for the US, metres elsewhere, nothing when unknown', () => {
	expect(formatAscent(100, 'us')).toBe('328 ft climb');
	expect(formatAscent(100, 'ca')).toBe('100 m climb');
	expect(formatAscent(null, 'us')).toBeNull();
});

test('the map reaches just past the furthest route point, within 2 km and the city radius', () => {
	const center = { lat: 40.27, lng: -76.88 };
	// 0.03° north is about 3.34 km.
	expect(
		fitRadiusM(
			center,
			[
				{
					name: 'a',
					shape: [
						[40.27, -76.88],
						[40.3, -76.88],
					],
				},
			],
			10_000,
		),
	).toBeCloseTo(3336 * 1.15, -1);
	expect(
		fitRadiusM(
			center,
			[
				{
					name: 'b',
					shape: [
						[40.271, -76.88],
						[40.272, -76.88],
					],
				},
			],
			10_000,
		),
	).toBe(2000);
	expect(
		fitRadiusM(
			center,
			[
				{
					name: 'c',
					shape: [
						[41.27, -76.88],
						[40.27, -76.88],
					],
				},
			],
			10_000,
		),
	).toBe(10_000);
	expect(fitRadiusM(center, [], 10_000)).toBe(10_000);
});

describe('city map labels', () => {
	// Harrisburg with a ring of neighbours a few hundred metres apart: far too close for every name.
	const crowded = drawCityMap({
		center: { lat: 40.27, lng: -76.88 },
		radiusM: 10_000,
		places: [
			{ name: 'Harrisburg', lat: 40.27, lng: -76.88, population: 49_000, main: true },
			...Array.from({ length: 12 }, (_, i) => ({
				name: `Neighbourtown ${i + 1}`,
				lat: 40.27 + 0.004 * Math.sin(i),
				lng: -76.88 + 0.006 * Math.cos(i),
				population: 20_000 - i * 1000,
			})),
			{ name: 'Far Away', lat: 40.3, lng: -76.95, population: 500 },
		],
		routes: [],
	});
	const labelled = crowded.places.flatMap((place) =>
		place.label ? [{ name: place.name, box: place.label.box }] : [],
	);

	it('never draws one name over another', () => {
		for (const [i, a] of labelled.entries()) {
			for (const b of labelled.slice(i + 1)) {
				expect(boxesOverlap(a.box, b.box), `${a.name} and ${b.name}`).toBe(false);
			}
		}
	});

	it('always names the city, keeps every dot, and names places with room to spare', () => {
		expect(crowded.places).toHaveLength(14);
		expect(crowded.places.find((place) => place.main)?.label).not.toBeNull();
		expect(labelled.map((place) => place.name)).toContain('Far Away');
		expect(labelled.length).toBeLessThan(crowded.places.length);
	});
});
