import { atom } from 'nanostores';
import type { LatLng } from './planner';
import type { RouteFetch } from './planner-store';

/** The place search gives up after this long. */
export const PLACE_SEARCH_TIMEOUT_MS = 10_000;

const COORDINATES = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)\s*$/;

/** "lat, lng" typed by the member, or null when the text is a place name. */
export function parseCoordinates(text: string): LatLng | null {
	const match = COORDINATES.exec(text);
	if (!match) return null;
	const lat = Number(match[1]);
	const lng = Number(match[2]);
	return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

export type PlaceSearchOptions = { fetch?: RouteFetch; timeoutMs?: number };

/**
 * The planner's "Add a point" field: "lat, lng" is taken as it is, anything else is looked up with
 * the place search (its best match). What went wrong is in `$error`, worded for the member.
 */
export function createPlaceSearch(options: PlaceSearchOptions = {}) {
	const send: RouteFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	const timeoutMs = options.timeoutMs ?? PLACE_SEARCH_TIMEOUT_MS;
	const $error = atom('');

	/** The point the text names, or null (and `$error` says why). */
	async function find(typed: string): Promise<LatLng | null> {
		$error.set('');
		const text = typed.trim();
		if (!text) {
			$error.set('Type "lat, lng" or a place name.');
			return null;
		}
		const point = parseCoordinates(text);
		if (point) return point;
		try {
			const response = await send(
				`/api/geocode/search?${new URLSearchParams({ q: text, format: 'geojson', limit: '1' })}`,
				{ signal: AbortSignal.timeout(timeoutMs), headers: { accept: 'application/json' } },
			);
			const found = response.ok
				? ((await response.json()) as { features?: { geometry: { coordinates: [number, number] } }[] })
				: null;
			const feature = found?.features?.[0];
			if (!feature) {
				$error.set(`No place called "${text}" was found.`);
				return null;
			}
			const [lng, lat] = feature.geometry.coordinates;
			return { lat, lng };
		} catch {
			$error.set('The place search did not answer. Please try again.');
			return null;
		}
	}

	return { $error, find };
}

export type PlaceSearch = ReturnType<typeof createPlaceSearch>;
