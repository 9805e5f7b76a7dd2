import polyline from '@mapbox/polyline';
import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import {
	buildRouteSearchParams,
	decodePreviewLine,
	EMPTY_ROUTE_SEARCH,
	firstWord,
	formatNotesString,
	maxDistanceAtLeast,
	paginationButtons,
	parseNotesString,
	parseRouteSearchParams,
	RouteListQuerySchema,
	type RouteSearchFilters,
	type RouteSummaryJson,
	readSearchText,
	routeListItem,
	routeListItemFromJson,
	routeSearchForm,
	routeSearchQuery,
} from '../../../src/lib/routes/contract';
import { boundingBox, haversineM, summariseElevation } from '../../../src/lib/routes/geo';
import { canList, canView } from '../../../src/lib/routes/policy';
import type { RouteWithOwner } from '../../../src/lib/routes/server/access';
import { representRoute, routePreviewLine } from '../../../src/lib/routes/server/represent';

describe('notes string', () => {
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
		expect(paginationButtons(40, 20, 2)).toEqual([1, 2]);
		expect(paginationButtons(0, 20, 1)).toEqual([]);
	});

	test("a maximum from the 'at least' value up (3218688 m) sets no upper bound", () => {
		expect(maxDistanceAtLeast('mi')).toBe(2000);
		expect(maxDistanceAtLeast('km')).toBe(3219);
		expect(buildRouteSearchParams({ unit: 'mi', distanceMaximum: 2000 }).has('maximum_distance')).toBe(false);
		expect(buildRouteSearchParams({ unit: 'mi', distanceMaximum: 1999 }).get('maximum_distance')).toBe(
			'3217070.66',
		);
		expect(buildRouteSearchParams({ unit: 'km', distanceMaximum: 3219 }).has('maximum_distance')).toBe(false);
		expect(buildRouteSearchParams({ unit: 'km', distanceMaximum: 3218 }).get('maximum_distance')).toBe(
			'3218000',
		);
	});
});

describe('route search URL', () => {
	const full: RouteSearchFilters = {
		place: 'Harrisburg, PA, US',
		near: '40.2737,-76.88442',
		radius: 25,
		min: 1.5,
		max: 12,
		activity: 11,
		name: 'Capitol loop',
		order: '-total_ascent',
		page: 3,
	};

	test('reads every field, and writes back what it read', () => {
		const query = routeSearchQuery(full);
		expect(query.toString()).toBe(
			'place=Harrisburg%2C+PA%2C+US&near=40.2737%2C-76.88442&radius=25&min=1.5&max=12&activity=11&name=Capitol+loop&order=-total_ascent&page=3',
		);
		expect(parseRouteSearchParams(query)).toEqual(full);
	});

	test('leaves the defaults out of a shared URL', () => {
		expect(routeSearchQuery(EMPTY_ROUTE_SEARCH).toString()).toBe('');
		expect(routeSearchQuery({ ...EMPTY_ROUTE_SEARCH, order: 'distance' }).toString()).toBe('order=distance');
		expect(parseRouteSearchParams(new URLSearchParams())).toEqual(EMPTY_ROUTE_SEARCH);
	});

	test('falls back to the default of any value out of range or malformed', () => {
		const parsed = parseRouteSearchParams(
			new URLSearchParams({
				place: `  ${'x'.repeat(120)} `,
				near: '95,10',
				radius: '7',
				min: '-1',
				max: 'lots',
				activity: '1.5',
				order: 'name',
				page: '0',
			}),
		);
		expect(parsed).toEqual({ ...EMPTY_ROUTE_SEARCH, place: 'x'.repeat(100) });
		expect(parseRouteSearchParams(new URLSearchParams('max=60000&page=5000&near=1,2')).max).toBeNull();
		expect(parseRouteSearchParams(new URLSearchParams('page=5000')).page).toBe(1);
		expect(parseRouteSearchParams(new URLSearchParams('page=2.7')).page).toBe(2);
		expect(parseRouteSearchParams(new URLSearchParams('near= 1.5 , -2 ')).near).toBe('1.5,-2');
	});

	test('search text from a URL never holds what the API refuses: NUL, controls, half a character', () => {
		const emoji = '\u{1F3C3}';
		const cut = parseRouteSearchParams(
			new URLSearchParams({ name: `${'x'.repeat(99)}${emoji}`, place: 'York' }),
		);
		expect(cut.name).toBe('x'.repeat(99));
		expect(parseRouteSearchParams(new URLSearchParams('name=a%00b&place=York%01')).name).toBe('');
		expect(parseRouteSearchParams(new URLSearchParams('place=York%01')).place).toBe('');
		for (const query of [`q=${'y'.repeat(99)}${encodeURIComponent(emoji)}`, 'q=a%00b', 'q=%09tab']) {
			const text = readSearchText(new URLSearchParams(query), 'q');
			expect(v.safeParse(RouteListQuerySchema, { text_search: text }).success, query).toBe(true);
		}
		expect(readSearchText(new URLSearchParams('q=+Capitol+loop+'), 'q')).toBe('Capitol loop');
	});

	test('every URL the parser accepts makes a query the API accepts', () => {
		const form = routeSearchForm({ ...full, min: 50_000, max: 50_000, page: 1000 }, 'mi', full.near);
		const params = Object.fromEntries(buildRouteSearchParams(form));
		expect(v.safeParse(RouteListQuerySchema, params).success).toBe(true);
		expect(params.offset).toBe('19980');
		expect(params.close_to_location).toBe(full.near);
	});
});

describe('route list rows', () => {
	test('read the same from a database row and from its API summary', () => {
		const row = {
			id: 7,
			name: 'River loop',
			distanceM: 5123.456,
			ascentM: 42,
			city: 'Harrisburg',
			privacy: 3,
			ownerId: 1,
			ownerDisplayName: '',
			ownerUsername: 'ana.runner',
			activityTypeId: 16,
			startLat: 40.26,
			startLng: -76.88,
			path: polyline.encode(
				[
					[40.26, -76.88],
					[40.27, -76.87],
					[40.3, -76.9],
				],
				6,
			),
			createdAt: new Date('2026-01-02T03:04:05Z'),
			updatedAt: new Date('2026-01-02T03:04:05Z'),
		} as unknown as RouteWithOwner;
		const fromRow = routeListItem({ ...row, previewLine: routePreviewLine(row) });
		expect(fromRow).toEqual({
			id: 7,
			name: 'River loop',
			distanceM: 5123.456,
			ascentM: 42,
			city: 'Harrisburg',
			ownerName: 'ana.runner',
			privacy: 3,
			activityTypeId: 16,
			start: [40.26, -76.88],
			previewLine: expect.any(String),
		});
		expect(decodePreviewLine(fromRow.previewLine)).toEqual([
			[40.26, -76.88],
			[40.27, -76.87],
			[40.3, -76.9],
		]);
		const json = representRoute(row, null) as unknown as RouteSummaryJson;
		expect(routeListItemFromJson(json)).toEqual({ ...fromRow, distanceM: 5123.46 });
	});
});

describe('geo', () => {
	test('haversine with our earth radius', () => {
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
			expect(canView(owner, route(privacy), { isFriend: false, blocked: false })).toBe(true);
		expect(canView(other, route(0), { isFriend: true, blocked: false })).toBe(false);
		expect(canView(other, route(1), { isFriend: true, blocked: false })).toBe(true);
		expect(canView(other, route(1), { isFriend: false, blocked: false })).toBe(false);
		expect(canView(null, route(1), { isFriend: true, blocked: false })).toBe(false);
		expect(canView(null, route(3), { isFriend: false, blocked: false })).toBe(true);
		expect(canView(null, route(6), { isFriend: false, blocked: false })).toBe(false);
		expect(canView(null, route(6), { isFriend: false, blocked: false, token: 'a'.repeat(43) })).toBe(true);
		expect(canView(null, route(6), { isFriend: false, blocked: false, token: 'a'.repeat(42) })).toBe(false);
		expect(canView(null, route(0), { isFriend: false, blocked: false, token: 'a'.repeat(43) })).toBe(false);
		expect(canView(null, route(2), { isFriend: false, blocked: false })).toBe(false);
	});
	test('lists never show link-only routes of others', () => {
		expect(canList({ id: 2 }, route(6), { isFriend: true, blocked: false })).toBe(false);
		expect(canList({ id: 1 }, route(6), { isFriend: false, blocked: false })).toBe(true);
		expect(canList(null, route(3), { isFriend: false, blocked: false })).toBe(true);
	});
	test('a block hides every route, link-only ones too, from a signed-in member either way; the owner still sees their own', () => {
		const blocked = { isFriend: false, blocked: true };
		for (const privacy of [1, 3, 6]) {
			expect(canView({ id: 2 }, route(privacy), { ...blocked, token: 'a'.repeat(43) })).toBe(false);
			expect(canList({ id: 2 }, route(privacy), blocked)).toBe(false);
			expect(canView({ id: 1 }, route(privacy), blocked)).toBe(true);
		}
		// Signed out nobody is known, so a block cannot apply.
		expect(canView(null, route(3), blocked)).toBe(true);
	});
});
