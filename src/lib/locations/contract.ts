import * as v from 'valibot';
import { wholeNumberText } from '../core/integers';
import { singleLineText } from '../core/text';

/**
 * The countries we serve city pages for (`/{countryCode}`). Each has clean first-level states in
 * the offline datasets; scripts/build-locations.mjs writes one data file per code.
 */
export const SERVED_COUNTRIES = ['us', 'ca', 'au', 'de', 'mx', 'ad'] as const;
export type CountryCode = (typeof SERVED_COUNTRIES)[number];

export function isServedCountry(code: string): code is CountryCode {
	return (SERVED_COUNTRIES as readonly string[]).includes(code);
}

/** Where a visitor with no known location starts. */
export const DEFAULT_COUNTRY = 'US';
export const DEFAULT_LOCATION_TEXT = 'United States';
/** Near the geographic centre of the contiguous United States (Lebanon, Kansas). */
export const DEFAULT_MAP_CENTER = { lat: 39.8283, lng: -98.5795, zoom: 4 } as const;

/** City search starts at this many characters, after this pause in typing. */
export const CITY_SEARCH_MIN_CHARS = 3;
export const CITY_SEARCH_DEBOUNCE_MS = 300;

/** How many of a state's most populous cities count as popular (the rest are listed A–Z). */
export const POPULAR_CITY_CUTOFF = 12;
/** How many of a country's cities its find-your-city page features. */
export const POPULAR_COUNTRY_CITIES = 24;
export const CITY_ROUTES_PAGE_SIZE = 20;
export const CITY_ROUTES_MAX_PAGE_SIZE = 50;
export const CITY_ROUTES_MAX_OFFSET = 10_000;

// ---------------------------------------------------------------------------------------------
// Country to data region

export type DataRegion = 'US' | 'EU1' | 'EU2';

const EU1 = new Set(['DE', 'FR', 'ES', 'IT', 'CN', 'HK', 'KR', 'PL', 'RO', 'RU', 'AT', 'CH', 'CY']);
/** The rest of Europe, plus the named countries beyond it. */
const EU2 = new Set([
	...['AD', 'AL', 'BA', 'BE', 'BG', 'BY', 'CZ', 'DK', 'EE', 'FI', 'FO', 'GB', 'GG', 'GI', 'GR', 'HR', 'HU'],
	...['IE', 'IM', 'IS', 'JE', 'LI', 'LT', 'LU', 'LV', 'MC', 'MD', 'ME', 'MK', 'MT', 'NL', 'NO', 'PT', 'RS'],
	...['SE', 'SI', 'SK', 'SM', 'UA', 'VA', 'XK'],
	...['CA', 'AU', 'BR', 'JP', 'MX', 'SG'],
]);

/** Which data region serves a country; anything unknown, blank or malformed is served from the US. */
export function getRegionForCountry(countryCode: string | null | undefined): DataRegion {
	const code = (countryCode ?? '').trim().toUpperCase();
	if (EU1.has(code)) return 'EU1';
	if (EU2.has(code)) return 'EU2';
	return 'US';
}

// ---------------------------------------------------------------------------------------------
// Slugs and paths

/** Lower-case ASCII words joined by hyphens; the same rule as scripts/build-locations.mjs. */
export function slugify(text: string): string {
	return text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/ß/g, 'ss')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
}

export function countryPath(country: string): string {
	return `/${country}/`;
}
export function statePath(country: string, state: string): string {
	return `/${country}/${state}/`;
}
export function cityPath(country: string, state: string, citySlug: string): string {
	return `/${country}/${state}/${citySlug}/`;
}

// ---------------------------------------------------------------------------------------------
// Shapes of a location

export type StateSummary = {
	name: string;
	/** The state's short code, lower case as in its URL (`pa`). */
	short_name: string;
	country_code: string;
	path: string;
	city_count: number;
};

export type CitySummary = {
	name: string;
	slug: string;
	path: string;
	geoname_id: number;
	population: number;
	lat: number;
	lng: number;
	state_name: string;
	state_short_name: string;
	country_code: string;
};

export type StatesResponse = {
	country_code: string;
	country_name: string;
	region: DataRegion;
	states: StateSummary[];
	popularCities: CitySummary[];
};

export type CitiesResponse = {
	country_code: string;
	stateName: string;
	stateShortName: string;
	/** The first `popularCityCutOff` cities are the popular ones (most populous first). */
	popularCityCutOff: number;
	cities: CitySummary[];
	total_count: number;
};

export type CityInfo = CitySummary & {
	country_name: string;
	city_slug: string;
	region: DataRegion;
	/** Other cities of the same state, nearest first. */
	nearby: CitySummary[];
};

/** What a city page and the route-list refresh show per route. */
export type CityRoute = {
	id: number;
	name: string;
	distance_m: number;
	ascent_m: number | null;
	activity_type_id: number;
	start: { lat: number; lng: number };
	owner: string;
	created: string;
	path: string;
	/** The line, thinned to at most CITY_ROUTE_SHAPE_POINTS [lat, lng] pairs, for maps of the city. */
	shape: [number, number][];
};

export const CITY_ROUTE_SHAPE_POINTS = 48;

export type CityRoutesResponse = {
	geoname_id: number;
	total_count: number;
	limit: number;
	offset: number;
	radius_m: number;
	routes: CityRoute[];
	_links: { self: { href: string }[]; next?: { href: string }[]; prev?: { href: string }[] };
};

/** A location suggestion, as GET /api/_api/search_for_city/ answers it. */
export type LocationSuggestion = {
	value: string;
	label: string;
	locality: string;
	isCity: boolean;
	isCountry: boolean;
	isRegion: boolean;
	isState: boolean;
};

// ---------------------------------------------------------------------------------------------
// Request schemas

const CountryCodeSchema = v.pipe(
	v.string(),
	v.trim(),
	v.toLowerCase(),
	v.picklist(SERVED_COUNTRIES, `country_code must be one of ${SERVED_COUNTRIES.join(', ')}.`),
);
const StateCodeSchema = v.pipe(
	v.string(),
	v.trim(),
	v.toLowerCase(),
	v.regex(/^[a-z0-9-]{1,6}$/, 'state_code is a short state code such as pa.'),
);
export const StatesQuerySchema = v.object({ country_code: v.optional(CountryCodeSchema, 'us') });
export const CitiesQuerySchema = v.object({
	country_code: v.optional(CountryCodeSchema, 'us'),
	state_code: StateCodeSchema,
});
/** `us/pa/harrisburg`: country, state and city slug, as in the city page's path. */
export const CityQuerySchema = v.object({
	city_slug: v.pipe(
		v.string(),
		v.trim(),
		v.toLowerCase(),
		v.transform((text) => text.replace(/^\/+|\/+$/g, '')),
		v.regex(
			/^[a-z]{2}\/[a-z0-9-]{1,6}\/[a-z0-9-]{1,120}$/,
			'city_slug is country/state/city, as us/pa/harrisburg.',
		),
	),
});
export const CityRoutesParamSchema = v.object({ id: wholeNumberText(1, 999_999_999, 'id') });
export const CityRoutesQuerySchema = v.object({
	limit: v.optional(wholeNumberText(1, CITY_ROUTES_MAX_PAGE_SIZE, 'limit')),
	offset: v.optional(wholeNumberText(0, CITY_ROUTES_MAX_OFFSET, 'offset')),
});
export const LocateQuerySchema = v.object({
	location: v.pipe(
		v.string(),
		v.regex(/^\s*-?\d{1,3}(\.\d+)?\s*,\s*-?\d{1,3}(\.\d+)?\s*$/, 'location is "lat,lng".'),
		v.transform((text) => text.split(',').map(Number) as [number, number]),
		v.check(([lat, lng]) => Math.abs(lat) <= 90 && Math.abs(lng) <= 180, 'location is outside the world.'),
	),
	kind: v.optional(v.picklist(['city', 'state', 'country']), 'city'),
	name: v.optional(singleLineText('name', 200)),
});
export type LocateResponse = { kind: 'city' | 'state' | 'country'; name: string; path: string };
