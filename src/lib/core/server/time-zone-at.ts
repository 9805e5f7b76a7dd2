import tzLookup from '@photostructure/tz-lookup';
import { isListedTimeZone } from '../time-zones';

/** The zone at a place, when it is one members can choose (not an ocean's Etc/GMT+n); else null. */
export function timeZoneAt(lat: number, lon: number): string | null {
	try {
		const zone = tzLookup(lat, lon);
		return isListedTimeZone(zone) ? zone : null;
	} catch {
		return null;
	}
}
