import { METRES_PER_FOOT, METRES_PER_KM, METRES_PER_MILE } from '../core/units';

// Kept apart from contract.ts so the scripts of pre-rendered pages do not pull in valibot.

/** Visitors in the US see US units, everyone else metric. Distances carry 2 decimals. */
export function formatRouteDistance(metres: number, countryCode: string): string {
	return countryCode.toLowerCase() === 'us'
		? `${(metres / METRES_PER_MILE).toFixed(2)} mi`
		: `${(metres / METRES_PER_KM).toFixed(2)} km`;
}

export function formatAscent(metres: number | null, countryCode: string): string | null {
	if (metres === null || !Number.isFinite(metres)) return null;
	return countryCode.toLowerCase() === 'us'
		? `${Math.round(metres / METRES_PER_FOOT)} ft climb`
		: `${Math.round(metres)} m climb`;
}
