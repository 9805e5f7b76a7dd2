import { describe, expect, test } from 'vitest';
import { cumulativeDistances } from '../../../src/lib/routes/geo';
import {
	createProjection,
	distanceMarkers,
	elevationProfilePath,
	formatDistance,
	formatHeight,
	unitFor,
} from '../../../src/lib/routes/render';

/** A line due north from the equator: 1 degree of latitude is 111,194.93 m at our earth radius. */
const north = (km: number, points = 50): [number, number][] =>
	Array.from({ length: points + 1 }, (_, i) => [(km / 111.19493) * (i / points), 0]);

describe('units on route pages', () => {
	test('members get their setting, visitors US units only in a US locale', () => {
		expect(unitFor('imperial', 'de-DE')).toBe('mi');
		expect(unitFor('metric', 'en-US')).toBe('km');
		expect(unitFor(null, 'en-US,en;q=0.9')).toBe('mi');
		expect(unitFor(null, 'es-US')).toBe('mi');
		expect(unitFor(null, 'en-GB,en;q=0.9')).toBe('km');
		expect(unitFor(null, null)).toBe('km');
	});
	test('two decimals of distance, whole heights', () => {
		expect(formatDistance(1609.344, 'mi')).toBe('1.00 mi');
		expect(formatDistance(12345, 'km')).toBe('12.35 km');
		expect(formatHeight(100, 'mi')).toBe('328 ft');
		expect(formatHeight(99.6, 'km')).toBe('100 m');
		expect(formatHeight(null, 'km')).toBe('—');
	});
});

describe('distance markers (spacing)', () => {
	test('every km on a 5 km route, at the right place', () => {
		const path = north(5);
		const markers = distanceMarkers(path, cumulativeDistances(path), 'km');
		expect(markers.map((m) => m.label)).toEqual(['1', '2', '3', '4']);
		expect(markers[1].lat).toBeCloseTo(2 / 111.19493, 6);
	});
	test('every 2 units above 13, every 5 from 20', () => {
		const fifteen = north(15);
		expect(distanceMarkers(fifteen, cumulativeDistances(fifteen), 'km').map((m) => m.label)).toEqual([
			'2',
			'4',
			'6',
			'8',
			'10',
			'12',
			'14',
		]);
		const thirtyMiles = north(30 * 1.609344);
		expect(distanceMarkers(thirtyMiles, cumulativeDistances(thirtyMiles), 'mi').map((m) => m.label)).toEqual([
			'5',
			'10',
			'15',
			'20',
			'25',
		]);
	});
});

describe('drawing', () => {
	test('the projection fits the line inside the box, north up', () => {
		const project = createProjection(north(5), 800, 400, 20);
		const [, startY] = project(0, 0);
		const [, endY] = project(5 / 111.19493, 0);
		expect(startY).toBeCloseTo(380, 0);
		expect(endY).toBeCloseTo(20, 0);
	});
	test('the elevation profile spans the width, or is absent without heights', () => {
		const profile = elevationProfilePath([0, 500, 1000], [100, null, 150], 200, 100);
		expect(profile?.min).toBe(100);
		expect(profile?.max).toBe(150);
		expect(profile?.line.startsWith('M0,98')).toBe(true);
		expect(profile?.line.endsWith('200,2')).toBe(true);
		expect(elevationProfilePath([0, 1], null, 200, 100)).toBeNull();
		expect(elevationProfilePath([0, 1], [null, 5], 200, 100)).toBeNull();
	});
});
