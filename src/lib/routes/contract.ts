import * as v from 'valibot';
import { halBody } from '../api/hal-links';
import { dbInteger, wholeNumberText } from '../core/integers';
import { isAcceptableText, multiLineText, singleLineText, truncateText } from '../core/text';
import { METRES_PER_KM, METRES_PER_MILE_ROUTE_SEARCH } from '../core/units';
import { decodePolyline } from '../routing/polyline';

/** Route privacy values. */
export const RoutePrivacy = { private: 0, friends: 1, public: 3, accessible: 6 } as const;
export type RoutePrivacyValue = (typeof RoutePrivacy)[keyof typeof RoutePrivacy];
export const ROUTE_PRIVACY_VALUES = [0, 1, 3, 6] as const;
export const ROUTE_PRIVACY_LABELS: Record<RoutePrivacyValue, string> = {
	0: 'Private',
	1: 'Friends',
	3: 'Public',
	6: 'Accessible with link',
};

/** Page sizes; every list is bounded by MAX_PAGE_SIZE whatever the client asks. */
export const ROUTE_SEARCH_PAGE_SIZE = 20;
export const MY_ROUTES_TEXT_SEARCH_PAGE_SIZE = 40;
export const MAX_PAGE_SIZE = 100;
export const MAX_OFFSET = 100_000;
/** The 'at least' choice of the maximum-distance filter: at or above this there is no upper bound. */
export const MAX_DISTANCE_AT_LEAST_M = 3_218_688;
/** A location search without a radius looks this far around the place. */
export const DEFAULT_SEARCH_RADIUS_M = 50_000;
export const MAX_SEARCH_RADIUS_M = 1_000_000;
export const MAX_ROUTE_POINTS = 10_000;
export const MAX_ROUTE_NAME = 100;
export const MAX_BATCH_IDS = 100;
/** Custom notes travel as markers with this icon id. */
export const CUSTOM_NOTE_ICON_ID = 2016;

/** The six sort orders of the route lists, plus the text-match order of my-routes text search. */
export const ROUTE_ORDERS = {
	'-date_created': 'Most recent',
	date_created: 'Oldest',
	'-distance': 'Longest distance',
	distance: 'Shortest distance',
	'-total_ascent': 'Highest elevation',
	total_ascent: 'Lowest elevation',
} as const;
export type RouteOrder = keyof typeof ROUTE_ORDERS | '-text_match';
export const ROUTE_ORDER_VALUES = [
	...(Object.keys(ROUTE_ORDERS) as (keyof typeof ROUTE_ORDERS)[]),
	'-text_match',
] as const;

export const FIELD_SETS = ['summary', 'detailed', 'detailed_internal'] as const;
export type FieldSet = (typeof FIELD_SETS)[number];

const Latitude = v.pipe(v.number(), v.finite(), v.minValue(-90), v.maxValue(90));
const Longitude = v.pipe(v.number(), v.finite(), v.minValue(-180), v.maxValue(180));
const Elevation = v.pipe(v.number(), v.finite(), v.minValue(-500), v.maxValue(9000));
const TravelMode = v.pipe(v.string(), v.regex(/^[A-Za-z_]{1,20}$/, 'travel_mode is a word such as WALKING.'));
const LineText = (label: string, max: number) => v.pipe(singleLineText(label, max), v.trim());

export const RoutePointInputSchema = v.strictObject({
	lat: Latitude,
	lng: Longitude,
	order: v.optional(dbInteger('order')),
	travel_mode: v.optional(TravelMode),
	ele: v.optional(v.nullable(Elevation)),
});
export type RoutePointInput = v.InferOutput<typeof RoutePointInputSchema>;
/** What the detailed_internal field set gives back per point. */
export type RoutePoint = {
	lat: number;
	lng: number;
	order: number;
	travel_mode: string;
	ele?: number | null;
};

export const RouteMarkerSchema = v.strictObject({
	lat: Latitude,
	lng: Longitude,
	text: v.pipe(multiLineText('A marker text', 500), v.trim()),
	icon_id: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(1_000_000)),
});
export type RouteMarker = v.InferOutput<typeof RouteMarkerSchema>;

const SegmentNoteSchema = v.strictObject({
	instructions: LineText('A note', 500),
	distance: v.pipe(v.number(), v.finite(), v.minValue(0)),
	point: v.strictObject({ lat: Latitude, lng: Longitude }),
	isCustomNote: v.optional(v.boolean(), false),
});

/** A segment: the planner's pieces of a route, kept for editing (detailed_internal). */
export const RouteSegmentSchema = v.strictObject({
	segmentId: v.union([singleLineText('segmentId', 64), v.pipe(v.number(), v.integer())]),
	points: v.pipe(v.array(v.strictObject({ lat: Latitude, lng: Longitude })), v.maxLength(MAX_ROUTE_POINTS)),
	distance: v.pipe(v.number(), v.finite(), v.minValue(0)),
	notes: v.optional(v.pipe(v.array(SegmentNoteSchema), v.maxLength(2000)), []),
	travelMode: TravelMode,
});
export type RouteSegment = v.InferOutput<typeof RouteSegmentSchema>;

/** A cue on the cue sheet: turn instructions from the notes string and custom notes from markers. */
export type RouteCue = {
	instructions: string;
	lat: number;
	lng: number;
	/** Metres from the start. */
	distance: number;
	isCustomNote: boolean;
};
export type TravelModeRun = { start: number; mode: string };

/** A value a client echoes back from our own answer; we never read it. */
const EchoedValue = v.optional(
	v.union([v.number(), v.pipe(v.string(), v.maxLength(100)), v.boolean(), v.null()]),
);

/**
 * What a route answer carries that is always worked out here from the points: MapMyFitness
 * clients send them back on save, so they are accepted and then ignored.
 */
export const ROUTE_ECHOED_FIELDS = {
	distance: EchoedValue,
	total_distance: EchoedValue,
	total_ascent: EchoedValue,
	total_descent: EchoedValue,
	min_elevation: EchoedValue,
	max_elevation: EchoedValue,
	starting_location: v.optional(
		v.nullable(
			v.object({
				type: v.optional(v.pipe(v.string(), v.maxLength(20))),
				coordinates: v.optional(v.pipe(v.array(v.number()), v.maxLength(3))),
			}),
		),
	),
	postal_code: EchoedValue,
	data_source: EchoedValue,
	start_point_type: EchoedValue,
	point_count: EchoedValue,
	user_display_name: EchoedValue,
	created_datetime: EchoedValue,
	updated_datetime: EchoedValue,
};

/**
 * The references a route save takes in `_links` as MapMyFitness clients send them: privacy and
 * activity type (the same values as the plain fields) and the owner, who must be the caller.
 */
const ROUTE_REFERENCES = {
	privacy: { kind: 'privacy_option', field: 'privacy' },
	activity_types: { kind: 'activity_type', field: 'activity_type' },
	user: { kind: 'user' },
} as const;
/** The links of a route answer that the server writes; sent back, they are not read. */
const ROUTE_ECHOED_LINKS = ['self', 'thumbnail', 'alternate', 'documentation'] as const;

const RouteSaveEntries = {
	name: v.pipe(singleLineText('Name', MAX_ROUTE_NAME), v.trim(), v.minLength(1, 'Name is required.')),
	description: v.optional(v.pipe(multiLineText('Description', 2000), v.trim()), ''),
	activity_type: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000)), 16),
	privacy: v.optional(v.picklist(ROUTE_PRIVACY_VALUES), 0),
	points: v.pipe(
		v.array(RoutePointInputSchema),
		v.minLength(2, 'A route needs at least two points.'),
		v.maxLength(MAX_ROUTE_POINTS),
	),
	/** `instructions:lat:lng:distance` cues joined by `~`. */
	notes: v.optional(singleLineText('Notes', 500_000), ''),
	markers: v.optional(v.pipe(v.array(RouteMarkerSchema), v.maxLength(500)), []),
	segments: v.optional(v.pipe(v.array(RouteSegmentSchema), v.maxLength(1000)), []),
	city: v.optional(LineText('City', 100), ''),
	state: v.optional(LineText('State', 100), ''),
	country: v.optional(LineText('Country', 2), ''),
	/** The version the edit started from; a PUT may send it instead of If-Match. */
	version: v.optional(dbInteger('version', 1)),
	...ROUTE_ECHOED_FIELDS,
};

/**
 * The payload that saves a route. Strict: an `id`, `user` or `owner` in the body is refused, and
 * `_links.user` must name the caller (the handler checks), so nobody can save a route as someone
 * else. Heights are measured here from the server's elevation data; `ele` on the points is
 * kept only for a route the server has no heights for. Distance is always measured here.
 */
export const RouteSaveSchema = halBody(RouteSaveEntries, ROUTE_REFERENCES, ROUTE_ECHOED_LINKS);
export type RouteSaveInput = v.InferOutput<typeof RouteSaveSchema>;

/** PUT replaces the route, except that privacy and activity type stay as they are when left out. */
export const RouteUpdateSchema = halBody(
	{
		...RouteSaveEntries,
		activity_type: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(100_000))),
		privacy: v.optional(v.picklist(ROUTE_PRIVACY_VALUES)),
	},
	ROUTE_REFERENCES,
	ROUTE_ECHOED_LINKS,
);
export type RouteUpdateInput = v.InferOutput<typeof RouteUpdateSchema>;

const NumberString = (min: number, max: number, name: string) =>
	v.pipe(
		v.string(),
		v.regex(/^\d{1,12}(\.\d{1,9})?$/, `${name} must be a number.`),
		v.transform(Number),
		v.minValue(min),
		v.maxValue(max),
	);

export const FieldSetQuery = v.optional(v.picklist(FIELD_SETS));

/** A place as `lat,lng` text, as search_for_city gives it and close_to_location takes it. */
const LatLngText = v.pipe(
	v.string(),
	v.regex(/^\s*-?\d{1,3}(\.\d+)?\s*,\s*-?\d{1,3}(\.\d+)?\s*$/, 'close_to_location is "lat,lng".'),
	v.transform((text) => text.split(',').map(Number) as [number, number]),
	v.check(
		([lat, lng]) => Math.abs(lat) <= 90 && Math.abs(lng) <= 180,
		'close_to_location is outside the world.',
	),
);

export const RouteListQuerySchema = v.object({
	limit: v.optional(wholeNumberText(1, MAX_PAGE_SIZE, 'limit')),
	offset: v.optional(wholeNumberText(0, MAX_OFFSET, 'offset')),
	user: v.optional(wholeNumberText(1, 2_000_000_000, 'user')),
	order_by: v.optional(v.picklist(ROUTE_ORDER_VALUES)),
	text_search: v.optional(singleLineText('text_search', 200)),
	search_radius: v.optional(NumberString(1, MAX_SEARCH_RADIUS_M, 'search_radius')),
	minimum_distance: v.optional(NumberString(0, 100_000_000, 'minimum_distance')),
	maximum_distance: v.optional(NumberString(0, 100_000_000, 'maximum_distance')),
	activity_type: v.optional(wholeNumberText(1, 100_000, 'activity_type')),
	close_to_location: v.optional(LatLngText),
	field_set: FieldSetQuery,
});
export type RouteListQuery = v.InferOutput<typeof RouteListQuerySchema>;

export const RouteItemQuerySchema = v.object({
	field_set: FieldSetQuery,
	/** The link token of an accessible route. */
	token: v.optional(singleLineText('The link token', 100)),
});

export const RouteIdParamSchema = v.object({
	id: v.pipe(v.string(), v.regex(/^\d{1,9}(,\d{1,9})*,?$/, 'id is a route id or comma-joined route ids.')),
});

/**
 * A bookmark names its route as `route` or `_links.route` (as MapMyFitness clients send it), and
 * may name the caller as `_links.user`.
 */
export const BookmarkCreateSchema = halBody(
	{ route: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_000_000_000)) },
	{ route: { kind: 'route', field: 'route' }, user: { kind: 'user' } },
	['self'],
);

export const BookmarkListQuerySchema = v.object({
	limit: v.optional(wholeNumberText(1, MAX_PAGE_SIZE, 'limit')),
	offset: v.optional(wholeNumberText(0, MAX_OFFSET, 'offset')),
	user: v.optional(wholeNumberText(1, 2_000_000_000, 'user')),
});

export const PrivacyToggleQuerySchema = v.object({
	content_type_id: v.literal('1'),
	object_id: wholeNumberText(1, 2_000_000_000, 'object_id'),
	set_privacy_to: v.pipe(v.picklist(['0', '1', '3', '6']), v.transform(Number)),
});

export const RouteImportQuerySchema = v.object({
	name: v.optional(
		v.pipe(singleLineText('Name', MAX_ROUTE_NAME), v.trim(), v.minLength(1, 'Name is required.')),
	),
	privacy: v.optional(v.pipe(v.picklist(['0', '1', '3', '6']), v.transform(Number))),
	activity_type: v.optional(wholeNumberText(1, 100_000, 'activity_type')),
});

/** Parses a route's notes string. An instruction may itself contain colons; the last three fields are numbers. */
export function parseNotesString(notes: string): RouteCue[] {
	if (!notes.trim()) return [];
	const cues: RouteCue[] = [];
	for (const part of notes.split('~')) {
		if (!part.trim()) continue;
		const fields = part.split(':');
		if (fields.length < 4)
			throw new Error(`A note must be instructions:lat:lng:distance, got "${part.slice(0, 60)}"`);
		const [lat, lng, distance] = fields.slice(-3).map((text) => Number(text.trim()));
		const instructions = fields.slice(0, -3).join(':').trim();
		if (
			!Number.isFinite(lat) ||
			!Number.isFinite(lng) ||
			!Number.isFinite(distance) ||
			Math.abs(lat) > 90 ||
			Math.abs(lng) > 180 ||
			distance < 0
		)
			throw new Error(`A note has an impossible position or distance: "${part.slice(0, 60)}"`);
		cues.push({ instructions, lat, lng, distance, isCustomNote: false });
	}
	return cues;
}

export function formatNotesString(cues: readonly RouteCue[]): string {
	return cues
		.filter((cue) => !cue.isCustomNote)
		.map((cue) => `${cue.instructions.replaceAll('~', '-')}:${cue.lat}:${cue.lng}:${cue.distance}`)
		.join('~');
}

/** The route search uses only the first word of the name typed. */
export function firstWord(text: string | undefined): string {
	return (text ?? '').trim().split(/\s+/)[0] ?? '';
}

/** The route search form, in the member's unit. */
export type RouteSearchForm = {
	radius?: number | null;
	distanceMinimum?: number | null;
	distanceMaximum?: number | null;
	unit: 'mi' | 'km';
	activityType?: number | null;
	routeName?: string;
	/** 'lat,lng' from the place search. */
	location?: string | null;
	order?: keyof typeof ROUTE_ORDERS;
	offset?: number;
};

/** The 'at least' search's largest distance in the member's unit: 2000 mi or 3219 km. */
export function maxDistanceAtLeast(unit: 'mi' | 'km'): number {
	return Math.round(MAX_DISTANCE_AT_LEAST_M / (unit === 'mi' ? METRES_PER_MILE_ROUTE_SEARCH : METRES_PER_KM));
}

/** Turns the form into API query parameters: metres, with the route search's 1609.34 m mile. */
export function buildRouteSearchParams(form: RouteSearchForm): URLSearchParams {
	const perUnit = form.unit === 'mi' ? METRES_PER_MILE_ROUTE_SEARCH : METRES_PER_KM;
	const params = new URLSearchParams();
	params.set('limit', String(ROUTE_SEARCH_PAGE_SIZE));
	params.set('offset', String(form.offset ?? 0));
	params.set('order_by', form.order ?? '-date_created');
	const metres = (value: number) => String(Math.round(value * perUnit * 100) / 100);
	if (form.location) {
		params.set('close_to_location', form.location);
		if (form.radius) params.set('search_radius', metres(form.radius));
	}
	if (form.distanceMinimum) params.set('minimum_distance', metres(form.distanceMinimum));
	// From the 'at least' value up the maximum is no bound at all, so it is left out.
	if (form.distanceMaximum && form.distanceMaximum < maxDistanceAtLeast(form.unit))
		params.set('maximum_distance', metres(form.distanceMaximum));
	if (form.activityType) params.set('activity_type', String(form.activityType));
	const word = firstWord(form.routeName);
	if (word) params.set('text_search', word);
	return params;
}

/**
 * Pagination shows only past one page; it shows a window of 3 page buttons (fewer only
 * when there are fewer pages) around the current one.
 */
export function paginationButtons(totalCount: number, pageSize: number, currentPage: number): number[] {
	const pages = Math.ceil(totalCount / pageSize);
	if (pages <= 1) return [];
	const count = Math.min(3, pages);
	let first = Math.max(1, currentPage - 1);
	first = Math.min(first, pages - count + 1);
	return Array.from({ length: count }, (_, i) => first + i);
}

/** The radius choices of the route search, in the member's unit. */
export const ROUTE_SEARCH_RADII = [1, 5, 10, 25, 50] as const;
export const DEFAULT_ROUTE_SEARCH_RADIUS = 10;
/** The activity choices of the route search: our activity type ids. */
export const ROUTE_SEARCH_ACTIVITIES = [
	[16, 'Run'],
	[9, 'Walk'],
	[11, 'Bike Ride'],
	[24, 'Hike'],
] as const;
/** Deeper pages than this are refused; the API's offset bound is far above it. */
const MAX_SEARCH_PAGE = 1000;
/** Longer distances than this, in miles or km, are no search anyone means; it keeps the query valid. */
const MAX_SEARCH_DISTANCE = 50_000;

/**
 * The route search page's URL (`place`, `near`, `radius`, `min`, `max`, `activity`, `name`,
 * `order`, `page`): what the server renders from and the island writes back, so a search can be
 * shared and Back works. `place` is the name shown; `near` the `lat,lng` of a place chosen from
 * suggestions, and without it the server looks the name up.
 */
export type RouteSearchFilters = {
	place: string;
	near: string | null;
	radius: number;
	min: number | null;
	max: number | null;
	activity: number | null;
	name: string;
	order: keyof typeof ROUTE_ORDERS;
	page: number;
};

export const EMPTY_ROUTE_SEARCH: RouteSearchFilters = {
	place: '',
	near: null,
	radius: DEFAULT_ROUTE_SEARCH_RADIUS,
	min: null,
	max: null,
	activity: null,
	name: '',
	order: '-date_created',
	page: 1,
};

/** The longest text a search page takes from its URL. */
const MAX_URL_SEARCH_TEXT = 100;

/**
 * Text typed into a search box, read from a page's URL: trimmed, cut to length without splitting
 * a character, and empty when it holds what no search could match (NUL, control characters).
 */
export function readSearchText(query: URLSearchParams, name: string): string {
	const text = truncateText((query.get(name) ?? '').trim(), MAX_URL_SEARCH_TEXT).trim();
	return isAcceptableText(text, 'single-line') ? text : '';
}

/** Reads the URL leniently: a value out of range or malformed falls back to its default. */
export function parseRouteSearchParams(query: URLSearchParams): RouteSearchFilters {
	const number = (name: string, max: number) => {
		const text = query.get(name)?.trim();
		const value = Number(text);
		return text && Number.isFinite(value) && value > 0 && value <= max ? value : null;
	};
	const radius = number('radius', 1000);
	const activity = number('activity', 100_000);
	const near = query.get('near') ?? '';
	return {
		place: readSearchText(query, 'place'),
		near: v.is(LatLngText, near) ? near.replace(/\s/g, '') : null,
		radius: ROUTE_SEARCH_RADII.find((choice) => choice === radius) ?? DEFAULT_ROUTE_SEARCH_RADIUS,
		min: number('min', MAX_SEARCH_DISTANCE),
		max: number('max', MAX_SEARCH_DISTANCE),
		activity: activity !== null && Number.isInteger(activity) ? activity : null,
		name: readSearchText(query, 'name'),
		order:
			(Object.keys(ROUTE_ORDERS) as (keyof typeof ROUTE_ORDERS)[]).find(
				(key) => key === query.get('order'),
			) ?? '-date_created',
		page: Math.max(1, Math.floor(number('page', MAX_SEARCH_PAGE) ?? 1)),
	};
}

/** The shareable URL query of a search: only what differs from the defaults, page 1 left out. */
export function routeSearchQuery(filters: RouteSearchFilters): URLSearchParams {
	const params = new URLSearchParams();
	const put = (name: string, value: string | number | null, empty: string | number | null = null) => {
		if (value !== null && value !== '' && value !== empty) params.set(name, String(value));
	};
	put('place', filters.place);
	put('near', filters.near);
	put('radius', filters.radius, DEFAULT_ROUTE_SEARCH_RADIUS);
	put('min', filters.min);
	put('max', filters.max);
	put('activity', filters.activity);
	put('name', filters.name);
	put('order', filters.order, '-date_created');
	put('page', filters.page, 1);
	return params;
}

/** The form behind one page of a search; `location` is the place resolved to `lat,lng`, if any. */
export function routeSearchForm(
	filters: RouteSearchFilters,
	unit: 'mi' | 'km',
	location: string | null,
): RouteSearchForm {
	return {
		unit,
		radius: filters.radius,
		distanceMinimum: filters.min,
		distanceMaximum: filters.max,
		activityType: filters.activity,
		routeName: filters.name,
		location,
		order: filters.order,
		offset: (filters.page - 1) * ROUTE_SEARCH_PAGE_SIZE,
	};
}

/** A list item's preview line: a polyline5 of at most this many points, drawn as a thumbnail and on the results map. */
export const PREVIEW_LINE_MAX_POINTS = 40;
export const PREVIEW_LINE_PRECISION = 5;

/** The [lat, lng] points of a preview line; none when it is missing or unreadable. */
export function decodePreviewLine(text: string | null | undefined): [number, number][] {
	if (!text) return [];
	try {
		return decodePolyline(text, PREVIEW_LINE_PRECISION);
	} catch {
		return [];
	}
}

/** The name of an activity type, as the route search offers them; any other is "Other activity". */
export function activityLabel(activityTypeId: number): string {
	return ROUTE_SEARCH_ACTIVITIES.find(([id]) => id === activityTypeId)?.[1] ?? 'Other activity';
}

/** One row of a route list, whichever page shows it and whether it came from the database or the API. */
export type RouteListItem = {
	id: number;
	name: string;
	distanceM: number;
	ascentM: number | null;
	city: string;
	ownerName: string;
	privacy: RoutePrivacyValue;
	activityTypeId: number;
	/** [lat, lng] of the first point. */
	start: [number, number];
	/** The simplified line (polyline5), '' where the list does not carry it. */
	previewLine: string;
	/** Set on a bookmark list: the bookmark a Remove button deletes. */
	bookmarkId?: number;
};

/** A route row as the server's service gives it (only the fields a list shows). */
export function routeListItem(route: {
	id: number;
	name: string;
	distanceM: number;
	ascentM: number | null;
	city: string;
	privacy: number;
	activityTypeId: number;
	startLat: number;
	startLng: number;
	ownerDisplayName: string;
	ownerUsername: string;
	previewLine?: string;
}): RouteListItem {
	return {
		id: route.id,
		name: route.name,
		distanceM: route.distanceM,
		ascentM: route.ascentM,
		city: route.city,
		ownerName: route.ownerDisplayName || route.ownerUsername,
		privacy: route.privacy as RoutePrivacyValue,
		activityTypeId: route.activityTypeId,
		start: [route.startLat, route.startLng],
		previewLine: route.previewLine ?? '',
	};
}

/** A route of GET /api/v7.1/route/ in the summary field set (what a list reads of it). */
export type RouteSummaryJson = {
	id: number;
	name: string;
	distance: number;
	total_ascent: number | null;
	city: string;
	privacy: number;
	user_display_name: string;
	activity_type: number;
	/** GeoJSON: [lng, lat]. */
	starting_location: { type: 'Point'; coordinates: [number, number] };
	/** The simplified line, on route lists (polyline5, at most PREVIEW_LINE_MAX_POINTS points). */
	preview_line?: string;
};
export type RouteListJson = { _embedded: { routes: RouteSummaryJson[] }; total_count: number };

export function routeListItemFromJson(route: RouteSummaryJson): RouteListItem {
	const [lng, lat] = route.starting_location.coordinates;
	return {
		id: route.id,
		name: route.name,
		distanceM: route.distance,
		ascentM: route.total_ascent,
		city: route.city,
		ownerName: route.user_display_name,
		privacy: route.privacy as RoutePrivacyValue,
		activityTypeId: route.activity_type,
		start: [lat, lng],
		previewLine: route.preview_line ?? '',
	};
}
