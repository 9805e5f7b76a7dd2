import { atom } from 'nanostores';
import type {
	CitiesResponse,
	CityInfo,
	CityRoutesResponse,
	LocateResponse,
	LocationSuggestion,
} from './contract';

export type AsyncStatus = 'idle' | 'loading' | 'success' | 'error';

/** The city page's state while its routes load. */
export const $cityInfo = atom<CityInfo | null>(null);
export const $stateCities = atom<CitiesResponse | null>(null);
export const $cityRoutes = atom<CityRoutesResponse | null>(null);
export const $cityRoutesStatus = atom<AsyncStatus>('idle');
export const $selectedRouteId = atom<number | null>(null);

async function getJson<T>(url: string, signal?: AbortSignal): Promise<T> {
	const response = await fetch(url, { headers: { accept: 'application/json' }, signal });
	if (!response.ok) throw new Error(`${response.status} ${response.statusText}`);
	return (await response.json()) as T;
}

/**
 * Loading a city's routes: reset route data, deselect the route, fetch city info by slug, the cities of its
 * state, then the routes of the city. Resolves with the routes, or rejects and leaves status error.
 */
export async function loadCityRoutes(citySlug: string, signal?: AbortSignal): Promise<CityRoutesResponse> {
	$cityRoutes.set(null);
	$selectedRouteId.set(null);
	$cityRoutesStatus.set('loading');
	try {
		const info = await getJson<CityInfo>(
			`/api/internal/regions/city/?city_slug=${encodeURIComponent(citySlug)}`,
			signal,
		);
		$cityInfo.set(info);
		const cities = await getJson<CitiesResponse>(
			`/api/internal/regions/cities/?country_code=${info.country_code}&state_code=${encodeURIComponent(info.state_short_name)}`,
			signal,
		);
		$stateCities.set(cities);
		const routes = await getJson<CityRoutesResponse>(
			`/api/internal/regions/city/routes/${info.geoname_id}/`,
			signal,
		);
		$cityRoutes.set(routes);
		$cityRoutesStatus.set('success');
		return routes;
	} catch (error) {
		$cityRoutesStatus.set('error');
		throw error;
	}
}

export function selectRoute(id: number | null): void {
	$selectedRouteId.set(id);
}

/** GET /api/_api/search_for_city/: the routing engine's place search. */
export function searchForCity(term: string, signal?: AbortSignal): Promise<LocationSuggestion[]> {
	return getJson<LocationSuggestion[]>(`/api/_api/search_for_city/?term=${encodeURIComponent(term)}`, signal);
}

/** The page of ours a suggestion leads to. */
export function locateSuggestion(suggestion: LocationSuggestion): Promise<LocateResponse> {
	const kind = suggestion.isCountry ? 'country' : suggestion.isState ? 'state' : 'city';
	const params = new URLSearchParams({ location: suggestion.value, kind, name: suggestion.locality });
	return getJson<LocateResponse>(`/api/internal/regions/locate/?${params}`);
}
