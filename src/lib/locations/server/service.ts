import KDBush from 'kdbush';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { decodePath } from '../../routes/server/access';
import { listRoutes } from '../../routes/server/lists';
import {
	CITY_ROUTE_SHAPE_POINTS,
	CITY_ROUTES_PAGE_SIZE,
	type CitiesResponse,
	type CityInfo,
	type CityRoute,
	type CityRoutesResponse,
	type CitySummary,
	type CountryCode,
	cityPath,
	countryPath,
	getRegionForCountry,
	isServedCountry,
	type LocateResponse,
	POPULAR_CITY_CUTOFF,
	POPULAR_COUNTRY_CITIES,
	SERVED_COUNTRIES,
	type StateSummary,
	type StatesResponse,
	slugify,
	statePath,
} from '../contract';

/** The on-disk shape written by scripts/build-locations.mjs. */
type CountryFile = {
	code: string;
	name: string;
	lat: number;
	lng: number;
	states: [code: string, name: string][];
	cities: [
		geonameId: number,
		name: string,
		slug: string | 0,
		state: number,
		population: number,
		lat: number,
		lng: number,
	][];
};

export type City = {
	geonameId: number;
	name: string;
	slug: string;
	state: State;
	population: number;
	lat: number;
	lng: number;
};

export type State = {
	code: string;
	name: string;
	country: Country;
	/** Most populous first. */
	cities: City[];
	lat: number;
	lng: number;
};

export type Country = {
	code: CountryCode;
	name: string;
	lat: number;
	lng: number;
	states: State[];
	/** Most populous first. */
	cities: City[];
	statesByCode: Map<string, State>;
	citiesByPath: Map<string, City>;
	index: KDBush;
};

// Vite bundles each country's file as its own chunk; a country is parsed the first time it is asked for.
const files = import.meta.glob<CountryFile>('../dataset/*.json', { import: 'default' });
const loaded = new Map<string, Promise<Country>>();

export function loadCountry(code: CountryCode): Promise<Country> {
	let country = loaded.get(code);
	if (!country) {
		const load = files[`../dataset/${code}.json`];
		if (!load) throw new Error(`No location data for ${code}; run scripts/build-locations.mjs`);
		country = load().then((file) => buildCountry(code, file));
		loaded.set(code, country);
	}
	return country;
}

export function loadAllCountries(): Promise<Country[]> {
	return Promise.all(SERVED_COUNTRIES.map(loadCountry));
}

function buildCountry(code: CountryCode, file: CountryFile): Country {
	const country: Country = {
		code,
		name: file.name,
		lat: file.lat,
		lng: file.lng,
		states: [],
		cities: [],
		statesByCode: new Map(),
		citiesByPath: new Map(),
		index: new KDBush(file.cities.length || 1),
	};
	for (const [stateCode, name] of file.states) {
		const state: State = { code: stateCode, name, country, cities: [], lat: 0, lng: 0 };
		country.states.push(state);
		country.statesByCode.set(stateCode, state);
	}
	for (const [geonameId, name, slug, stateIndex, population, lat, lng] of file.cities) {
		const state = country.states[stateIndex];
		const city: City = { geonameId, name, slug: slug || slugify(name), state, population, lat, lng };
		country.cities.push(city);
		state.cities.push(city);
		country.citiesByPath.set(`${state.code}/${city.slug}`, city);
		country.index.add(lng, lat);
	}
	if (file.cities.length === 0) country.index.add(0, 0);
	country.index.finish();
	for (const state of country.states) {
		// Where a state's map centres: its people's centre of gravity, which lands on the cities.
		let weight = 0;
		for (const city of state.cities) {
			const w = Math.max(city.population, 1);
			state.lat += city.lat * w;
			state.lng += city.lng * w;
			weight += w;
		}
		state.lat = weight ? state.lat / weight : country.lat;
		state.lng = weight ? state.lng / weight : country.lng;
	}
	country.states.sort((a, b) => a.name.localeCompare(b.name, 'en'));
	return country;
}

// ---------------------------------------------------------------------------------------------
// Shaping

export function summariseCity(city: City): CitySummary {
	const { state } = city;
	return {
		name: city.name,
		slug: city.slug,
		path: cityPath(state.country.code, state.code, city.slug),
		geoname_id: city.geonameId,
		population: city.population,
		lat: city.lat,
		lng: city.lng,
		state_name: state.name,
		state_short_name: state.code,
		country_code: state.country.code,
	};
}

export function summariseState(state: State): StateSummary {
	return {
		name: state.name,
		short_name: state.code,
		country_code: state.country.code,
		path: statePath(state.country.code, state.code),
		city_count: state.cities.length,
	};
}

// ---------------------------------------------------------------------------------------------
// Reads

async function requireCountry(code: string): Promise<Country> {
	const lower = code.toLowerCase();
	if (!isServedCountry(lower)) throw new AppError('not_found', `We have no city pages for country ${code}`);
	return loadCountry(lower);
}

async function requireState(countryCode: string, stateCode: string): Promise<State> {
	const country = await requireCountry(countryCode);
	const state = country.statesByCode.get(stateCode.toLowerCase());
	if (!state) throw new AppError('not_found', `${country.name} has no state ${stateCode}`);
	return state;
}

/** GET /internal/regions/states: the states of a country and its most populous cities. */
export async function listStates(countryCode: string): Promise<StatesResponse> {
	const country = await requireCountry(countryCode);
	return {
		country_code: country.code,
		country_name: country.name,
		region: getRegionForCountry(country.code),
		states: country.states.map(summariseState),
		popularCities: country.cities.slice(0, POPULAR_COUNTRY_CITIES).map(summariseCity),
	};
}

/** GET /internal/regions/cities: a state's cities, most populous first; the first few are "popular". */
export async function listCities(countryCode: string, stateCode: string): Promise<CitiesResponse> {
	const state = await requireState(countryCode, stateCode);
	return {
		country_code: state.country.code,
		stateName: state.name,
		stateShortName: state.code,
		popularCityCutOff: Math.min(POPULAR_CITY_CUTOFF, state.cities.length),
		cities: state.cities.map(summariseCity),
		total_count: state.cities.length,
	};
}

export async function findState(countryCode: string, stateCode: string): Promise<State | null> {
	if (!isServedCountry(countryCode)) return null;
	const country = await loadCountry(countryCode);
	return country.statesByCode.get(stateCode) ?? null;
}

export async function findCity(
	countryCode: string,
	stateCode: string,
	citySlug: string,
): Promise<City | null> {
	if (!isServedCountry(countryCode)) return null;
	const country = await loadCountry(countryCode);
	return country.citiesByPath.get(`${stateCode}/${citySlug}`) ?? null;
}

/** GET /internal/regions/city: everything a city page needs besides its routes. */
export async function getCityInfo(citySlug: string): Promise<CityInfo> {
	const [countryCode, stateCode, slug] = citySlug.split('/');
	const city = await findCity(countryCode, stateCode, slug);
	if (!city) throw new AppError('not_found', `No city at ${citySlug}`);
	return describeCity(city);
}

export function describeCity(city: City, nearbyCount = 8): CityInfo {
	const summary = summariseCity(city);
	const nearby = city.state.cities
		.filter((other) => other !== city)
		.map((other) => ({ other, d: distanceM(city.lat, city.lng, other.lat, other.lng) }))
		.sort((a, b) => a.d - b.d)
		.slice(0, nearbyCount)
		.map(({ other }) => summariseCity(other));
	return {
		...summary,
		country_name: city.state.country.name,
		city_slug: `${city.state.country.code}/${city.state.code}/${city.slug}`,
		region: getRegionForCountry(city.state.country.code),
		nearby,
	};
}

export async function findCityById(geonameId: number): Promise<City | null> {
	for (const country of await loadAllCountries()) {
		// Cities are few per country compared with a lookup per request; a scan is a few ms at most.
		const city = country.cities.find((c) => c.geonameId === geonameId);
		if (city) return city;
	}
	return null;
}

/** The served city nearest a point, within maxM metres. */
export async function findNearestCity(lat: number, lng: number, maxM = 50_000): Promise<City | null> {
	let best: City | null = null;
	let bestD = maxM;
	const degLat = maxM / 111_320;
	const degLng = Math.min(180, maxM / (111_320 * Math.max(Math.cos((lat * Math.PI) / 180), 0.01)));
	for (const country of await loadAllCountries()) {
		for (const id of country.index.range(lng - degLng, lat - degLat, lng + degLng, lat + degLat)) {
			const city = country.cities[id];
			if (!city) continue;
			const d = distanceM(lat, lng, city.lat, city.lng);
			if (d <= bestD) {
				bestD = d;
				best = city;
			}
		}
	}
	return best;
}

/**
 * Turns a search_for_city suggestion into the page for it: the nearest served city (preferring one
 * of the same name), the state whose name it carries, or the country.
 */
export async function locatePlace(
	lat: number,
	lng: number,
	kind: 'city' | 'state' | 'country',
	name = '',
): Promise<LocateResponse> {
	const wanted = slugify(name);
	const nearest = await findNearestCity(lat, lng, kind === 'city' ? 30_000 : 600_000);
	if (kind === 'country') {
		const countries = await loadAllCountries();
		const country = countries.find((c) => slugify(c.name) === wanted) ?? nearest?.state.country ?? null;
		if (!country) throw new AppError('not_found', 'We have no city pages for that country');
		return { kind, name: country.name, path: countryPath(country.code) };
	}
	if (kind === 'state') {
		const countries = nearest ? [nearest.state.country] : await loadAllCountries();
		for (const country of countries) {
			const state = country.states.find((s) => slugify(s.name) === wanted);
			if (state) return { kind, name: state.name, path: statePath(country.code, state.code) };
		}
		if (!nearest) throw new AppError('not_found', 'We have no city pages for that state');
		return {
			kind,
			name: nearest.state.name,
			path: statePath(nearest.state.country.code, nearest.state.code),
		};
	}
	if (!nearest) throw new AppError('not_found', 'We have no city page near that place');
	let city = nearest;
	if (wanted && slugify(nearest.name) !== wanted) {
		const sameName = await findNearestNamed(lat, lng, wanted);
		if (sameName) city = sameName;
	}
	return { kind, name: city.name, path: cityPath(city.state.country.code, city.state.code, city.slug) };
}

async function findNearestNamed(lat: number, lng: number, slug: string): Promise<City | null> {
	let best: City | null = null;
	let bestD = 30_000;
	for (const country of await loadAllCountries()) {
		for (const state of country.states) {
			for (const city of state.cities) {
				if (city.slug !== slug && slugify(city.name) !== slug) continue;
				const d = distanceM(lat, lng, city.lat, city.lng);
				if (d < bestD) {
					bestD = d;
					best = city;
				}
			}
		}
	}
	return best;
}

// ---------------------------------------------------------------------------------------------
// Routes near a city, through the routes service (public routes only)

/** How far from the centre a city's routes may start: bigger cities spread further. */
export function cityRadiusM(population: number): number {
	if (population >= 1_000_000) return 40_000;
	if (population >= 250_000) return 25_000;
	if (population >= 50_000) return 15_000;
	return 10_000;
}

export async function listCityRoutes(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	geonameId: number,
	page: { limit?: number; offset?: number } = {},
): Promise<CityRoutesResponse> {
	const city = await findCityById(geonameId);
	if (!city) throw new AppError('not_found', `No city with id ${geonameId}`);
	return listRoutesNearCity(deps, city, page);
}

export async function listRoutesNearCity(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	city: City,
	page: { limit?: number; offset?: number } = {},
): Promise<CityRoutesResponse> {
	const limit = page.limit ?? CITY_ROUTES_PAGE_SIZE;
	const offset = page.offset ?? 0;
	const radius = cityRadiusM(city.population);
	// A visitor's view: public routes only, whoever asks.
	const result = await listRoutes(deps, null, {
		close_to_location: [city.lat, city.lng],
		search_radius: radius,
		limit,
		offset,
		// The line itself, for the map of the city; summaries leave it out.
		field_set: 'detailed',
	} as Parameters<typeof listRoutes>[2]);
	const base = `/api/internal/regions/city/routes/${city.geonameId}/`;
	const href = (at: number) => `${base}?limit=${limit}&offset=${at}`;
	const links: CityRoutesResponse['_links'] = { self: [{ href: href(offset) }] };
	if (offset + limit < result.totalCount) links.next = [{ href: href(offset + limit) }];
	if (offset > 0) links.prev = [{ href: href(Math.max(0, offset - limit)) }];
	return {
		geoname_id: city.geonameId,
		total_count: result.totalCount,
		limit,
		offset,
		radius_m: radius,
		routes: result.routes.map(
			(route): CityRoute => ({
				id: route.id,
				name: route.name,
				distance_m: route.distanceM,
				ascent_m: route.ascentM,
				activity_type_id: route.activityTypeId,
				start: { lat: route.startLat, lng: route.startLng },
				owner: route.ownerDisplayName || route.ownerUsername,
				created: formatApiDateTime(route.createdAt),
				path: `/routes/view/${route.id}`,
				shape: thinLine(decodePath(route), CITY_ROUTE_SHAPE_POINTS),
			}),
		),
		_links: links,
	};
}

/** Every n-th point, keeping both ends; enough for a thumbnail of the line. */
export function thinLine(points: [number, number][], max: number): [number, number][] {
	const round = ([lat, lng]: [number, number]): [number, number] => [
		Math.round(lat * 1e5) / 1e5,
		Math.round(lng * 1e5) / 1e5,
	];
	if (points.length <= max) return points.map(round);
	const step = (points.length - 1) / (max - 1);
	return Array.from({ length: max }, (_, i) => round(points[Math.round(i * step)]));
}

function distanceM(lat1: number, lng1: number, lat2: number, lng2: number): number {
	const rad = Math.PI / 180;
	const dLat = (lat2 - lat1) * rad;
	const dLng = (lng2 - lng1) * rad;
	const a = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLng / 2) ** 2;
	return 2 * 6_371_000 * Math.asin(Math.min(1, Math.sqrt(a)));
}
