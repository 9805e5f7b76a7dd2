/** Business constants. Everything is stored in SI units and converted at the edge. */
export const METRES_PER_MILE = 1609.344;
/** Route search converts with the rounded mile the original product used. */
export const METRES_PER_MILE_ROUTE_SEARCH = 1609.34;
export const METRES_PER_KM = 1000;
export const EARTH_RADIUS_M = 6_371_000;
export const POUNDS_PER_KG = 2.20462;
export const METRES_PER_FOOT = 0.3048;
export const METRES_PER_YARD = 0.9144;
export const MILES_PER_KM = 0.621371192;
export const JOULES_PER_CALORIE = 4.184;
export const SECONDS_PER_DAY = 86_400;
export const SECONDS_PER_MONTH = 2_678_400;
export const SECONDS_PER_YEAR = 31_536_000;

export type MeasurementSystem = 'metric' | 'imperial';

/**
 * US units for the United States — a US country or a US locale such as en-US (the first
 * of an Accept-Language list) — and metric everywhere else.
 */
export function measurementSystemForPlace(place: {
	country?: string | null;
	locale?: string | null;
}): MeasurementSystem {
	if (place.country) return place.country.toUpperCase() === 'US' ? 'imperial' : 'metric';
	const first = (place.locale ?? '').split(',')[0]?.split(';')[0]?.trim() ?? '';
	return /^en-us$/i.test(first) || /-US$/i.test(first) ? 'imperial' : 'metric';
}
