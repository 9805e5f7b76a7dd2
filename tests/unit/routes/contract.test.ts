import { describe, expect, test } from 'vitest';
import {
	buildRouteSearchParams,
	firstWord,
	formatNotesString,
	paginationButtons,
	parseNotesString,
} from '../../../src/lib/routes/contract';
import { boundingBox, haversineM, summariseElevation } from '../../../src/lib/routes/geo';
import { canList, canView } from '../../../src/lib/routes/policy';

describe('notes string (SPEC §7)', () => {
	test('parses instructions:lat:lng:distance joined by ~, colons inside instructions included', () => {
		expect(parseNotesString('Go: now:1.5:-2.25:0~Left:3:4:120.5')).toEqual([
			{ instructions: 'Go: now', lat: 1.5, lng: -2.25, distance: 0, isCustomNote: false },
			{ instructions: 'Left', lat: 3, lng: 4, distance: 120.5, isCustomNote: false },
		]);
		expect(parseNotesString('')).toEqual([]);
		expect(() => parseNotesString('Left:3:4')).toThrow();
		expect(() => parseNotesString('Left:95:4:1')).toThrow();
		expect(() => parseNotesString('Left:1:4:-1')).toThrow();
	});

	test('formats back, leaving custom notes to the markers', () => {
		const text = 'A:1:2:0~B:3:4:5';
		const cues = parseNotesString(text);
		expect(
			formatNotesString([...cues, { instructions: 'mine', lat: 0, lng: 0, distance: 1, isCustomNote: true }]),
		).toBe(text);
	});
});

describe('route search form', () => {
	test('uses only the first word of the name', () => {
		expect(firstWord('  River   walk ')).toBe('River');
		expect(firstWord('')).toBe('');
		expect(buildRouteSearchParams({ unit: 'km', routeName: 'Capitol loop' }).get('text_search')).toBe(
			'Capitol',
		);
	});

	test('converts miles at 1609.34 m and km at 1000 m, pages by 20 newest first', () => {
		const miles = buildRouteSearchParams({
			unit: 'mi',
			distanceMinimum: 1,
			distanceMaximum: 2,
			radius: 5,
			location: '1,2',
		});
		expect(Object.fromEntries(miles)).toEqual({
			limit: '20',
			offset: '0',
			order_by: '-date_created',
			close_to_location: '1,2',
			search_radius: '8046.7',
			minimum_distance: '1609.34',
			maximum_distance: '3218.68',
		});
		const km = buildRouteSearchParams({
			unit: 'km',
			distanceMinimum: 5,
			activityType: 11,
			order: 'distance',
			offset: 40,
		});
		expect(km.get('minimum_distance')).toBe('5000');
		expect(km.get('activity_type')).toBe('11');
		expect(km.get('order_by')).toBe('distance');
		expect(km.get('offset')).toBe('40');
		expect(km.get('search_radius')).toBeNull();
	});

	test('pagination shows only past one page, three buttons around the current one', () => {
		expect(paginationButtons(20, 20, 1)).toEqual([]);
		expect(paginationButtons(21, 20, 1)).toEqual([1, 2]);
		expect(paginationButtons(100, 20, 1)).toEqual([1, 2, 3]);
		expect(paginationButtons(100, 20, 4)).toEqual([3, 4, 5]);
		expect(paginationButtons(100, 20, 5)).toEqual([3, 4, 5]);
	});
});

describe('geo', () => {
	test('haversine with the SPEC earth radius', () => {
		expect(haversineM(0, 0, 0, 1)).toBeCloseTo(111194.93, 1);
		expect(haversineM(40, -76, 40, -76)).toBe(0);
	});
	test('bounding box holds the circle and gives up on longitude near the poles', () => {
		const box = boundingBox(40, -76, 10_000);
		expect(haversineM(40, -76, box.maxLat, -76)).toBeCloseTo(10_000, 0);
		expect(haversineM(40, -76, 40, box.maxLng as number)).toBeGreaterThanOrEqual(9_990);
		expect(boundingBox(89.99, 0, 10_000).minLng).toBeNull();
		expect(boundingBox(0, 179.99, 10_000).minLng).toBeNull();
	});
	test('climb and descent skip unknown heights', () => {
		expect(summariseElevation([100, null, 110, 105, 120])).toEqual({
			ascentM: 25,
			descentM: 5,
			minM: 100,
			maxM: 120,
		});
		expect(summariseElevation([null, undefined])).toEqual({
			ascentM: null,
			descentM: null,
			minM: null,
			maxM: null,
		});
	});
});

describe('canView', () => {
	const route = (privacy: number) => ({ ownerId: 1, privacy, linkToken: 'a'.repeat(43) });
	test('the four levels', () => {
		const owner = { id: 1 };
		const other = { id: 2 };
		for (const privacy of [0, 1, 3, 6])
			expect(canView(owner, route(privacy), { isFriend: false })).toBe(true);
		expect(canView(other, route(0), { isFriend: true })).toBe(false);
		expect(canView(other, route(1), { isFriend: true })).toBe(true);
		expect(canView(other, route(1), { isFriend: false })).toBe(false);
		expect(canView(null, route(1), { isFriend: true })).toBe(false);
		expect(canView(null, route(3), { isFriend: false })).toBe(true);
		expect(canView(null, route(6), { isFriend: false })).toBe(false);
		expect(canView(null, route(6), { isFriend: false, token: 'a'.repeat(43) })).toBe(true);
		expect(canView(null, route(6), { isFriend: false, token: 'a'.repeat(42) })).toBe(false);
		expect(canView(null, route(0), { isFriend: false, token: 'a'.repeat(43) })).toBe(false);
		expect(canView(null, route(2), { isFriend: false })).toBe(false);
	});
	test('lists never show link-only routes of others', () => {
		expect(canList({ id: 2 }, route(6), true)).toBe(false);
		expect(canList({ id: 1 }, route(6), false)).toBe(true);
		expect(canList(null, route(3), false)).toBe(true);
	});
});
