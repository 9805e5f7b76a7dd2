import { type SearchHome, searchPlaces } from '../../routing/geocode';

export type SearchPlace = { label: string; near: string };

/**
 * The place a typed route search name means (the form without script): the best offline match,
 * as the city widget's first suggestion would be. A suggestion's own label ("Harrisburg, PA, US")
 * is read as a name with qualifiers, so a shared search submitted again finds the same place.
 */
export function resolveSearchPlace(text: string, home: SearchHome | null = null): SearchPlace | null {
	const typed = text.trim();
	if (typed.length < 3) return null;
	const best = searchPlaces(typed, [], 1, true, home)[0]?.place;
	if (best) return { label: best.name, near: `${round6(best.lat)},${round6(best.lon)}` };
	const [name, ...qualifiers] = typed.split(',').map((part) => part.trim().toUpperCase());
	if (qualifiers.length === 0 || name.length < 3) return null;
	const candidates = searchPlaces(name, [], 20, true, home).map((result) => result.place);
	const place =
		candidates.find((candidate) => qualifiers.includes(candidate.admin.toUpperCase())) ?? candidates[0];
	return place ? { label: typed, near: `${round6(place.lat)},${round6(place.lon)}` } : null;
}

function round6(value: number): number {
	return Math.round(value * 1e6) / 1e6;
}
