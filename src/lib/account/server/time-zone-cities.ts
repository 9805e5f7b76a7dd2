import { timeZoneAt } from '../../core/server/time-zone-at';
import { getCountryName, type SearchHome, searchPlaces, US_STATES } from '../../routing/geocode';
import type { CityTimeZone } from '../contract';

/**
 * Cities whose names match what a member typed into the zone picker, each with the zone it lies in:
 * people know the town they live in, not which IANA zone holds it ("Harrisburg" is
 * America/New_York). The world city list has no zones, so each city's coordinates give it one.
 * Cities with the same label and zone (two Shilohs in one state) are offered once.
 */
export function findCityTimeZones(term: string, limit: number, home: SearchHome | null): CityTimeZone[] {
	const found: CityTimeZone[] = [];
	const seen = new Set<string>();
	// Countries and states match too; they can span zones, so only cities are asked for theirs.
	for (const { place } of searchPlaces(term, [], limit * 2, true, home)) {
		if (place.type !== 'city') continue;
		const zone = timeZoneAt(place.lat, place.lon);
		if (!zone) continue;
		const state = place.country === 'US' ? US_STATES[place.admin] : undefined;
		const label = state ? `${place.name}, ${state}, US` : `${place.name}, ${getCountryName(place.country)}`;
		const key = `${label}|${zone}`;
		if (seen.has(key)) continue;
		seen.add(key);
		found.push({ label, time_zone: zone });
		if (found.length === limit) break;
	}
	return found;
}
