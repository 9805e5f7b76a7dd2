import * as v from 'valibot';
import type { AppDeps } from '../../core/server/deps';
import { singleLineText } from '../../core/text';
import { haversineM } from '../geo';
import type { RouteWithOwner } from './access';
import { listRoutes } from './lists';

/**
 * The hotel partner's pages in its app's webview: public routes that start near the hotel the
 * app names by its coordinates (and, for the heading, its name).
 */
export const HOTEL_PAGES = '/mobile/marriott_routes';

/** Routes starting this far from the hotel are offered; none within it means we have no data there. */
export const HOTEL_SEARCH_RADIUS_M = 25_000;
const HOTEL_ROUTES_SHOWN = 30;

const Coordinate = (name: string, limit: number) =>
	v.pipe(
		v.string(),
		v.regex(/^\s*-?\d{1,3}(\.\d{1,10})?\s*$/, `${name} is a number.`),
		v.transform(Number),
		v.minValue(-limit),
		v.maxValue(limit),
	);

const HotelQuerySchema = v.object({
	lat: Coordinate('lat', 90),
	lng: Coordinate('lng', 180),
	name: v.optional(singleLineText('name', 120)),
});

export type Hotel = { lat: number; lng: number; name: string | null };

/** The hotel the app named in the address, or null when it named none or an impossible one. */
export function readHotel(url: URL): Hotel | null {
	const parsed = v.safeParse(HotelQuerySchema, {
		lat: url.searchParams.get('lat') ?? undefined,
		lng: url.searchParams.get('lng') ?? undefined,
		name: url.searchParams.get('name')?.trim() || undefined,
	});
	if (!parsed.success) return null;
	return { lat: parsed.output.lat, lng: parsed.output.lng, name: parsed.output.name ?? null };
}

/** The address of a hotel page that keeps the hotel, so the next page can lead back. */
export function hotelHref(path: string, hotel: Hotel, extra: Record<string, string> = {}): string {
	const params = new URLSearchParams({ lat: String(hotel.lat), lng: String(hotel.lng), ...extra });
	if (hotel.name) params.set('name', hotel.name);
	return `${HOTEL_PAGES}${path}?${params}`;
}

export type HotelRoute = { route: RouteWithOwner; fromHotelM: number };

/** Public routes starting near the hotel, nearest start first. */
export async function routesNearHotel(
	deps: Pick<AppDeps, 'db' | 'clock'>,
	hotel: Hotel,
): Promise<HotelRoute[]> {
	const page = await listRoutes(deps, null, {
		close_to_location: [hotel.lat, hotel.lng],
		search_radius: HOTEL_SEARCH_RADIUS_M,
		limit: 100,
		field_set: 'summary',
	});
	return page.routes
		.map((route) => ({ route, fromHotelM: haversineM(hotel.lat, hotel.lng, route.startLat, route.startLng) }))
		.sort((a, b) => a.fromHotelM - b.fromHotelM)
		.slice(0, HOTEL_ROUTES_SHOWN);
}
