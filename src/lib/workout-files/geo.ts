/** The earth radius every distance in the product uses. */
export const EARTH_RADIUS_M = 6371000;
export const MILE_M = 1609.344;
export const KM_M = 1000;
const RAD = Math.PI / 180;

/** Great-circle distance in metres (haversine on a sphere of radius 6,371,000 m). */
export function haversineM(lat1: number, lng1: number, lat2: number, lng2: number): number {
	const dLat = (lat2 - lat1) * RAD;
	const dLng = (lng2 - lng1) * RAD;
	const s1 = Math.sin(dLat / 2);
	const s2 = Math.sin(dLng / 2);
	const a = s1 * s1 + Math.cos(lat1 * RAD) * Math.cos(lat2 * RAD) * s2 * s2;
	return 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(a)));
}
