import L from 'leaflet';
import type { Bounds, TileRegionsResponse } from '../../lib/tiles/contract';
import './street-detail-note.scss';

/** From this zoom a member expects streets; outside every loaded region the map says why there are none. */
export const STREET_DETAIL_MIN_ZOOM = 11;
export const STREET_DETAIL_NOTE =
	'Street detail is not loaded for this area: the map shows land, water, borders and places.';

let regionsRequest: Promise<Bounds[]> | null = null;

/** Where the built-in base map has street detail, asked once per page. */
function loadedRegions(): Promise<Bounds[]> {
	regionsRequest ??= Promise.resolve()
		.then(() => fetch('/tiles/regions.json'))
		.then((response) => (response.ok ? (response.json() as Promise<TileRegionsResponse>) : null))
		.then((body) => body?.regions.map((region) => region.bounds) ?? [])
		.catch(() => {
			// Asked again by the next map: a network blip must not hide the note for the whole visit.
			regionsRequest = null;
			return [];
		});
	return regionsRequest;
}

/**
 * One small note on the map, not on every tile, while the view is at street zooms and outside every
 * region the server has loaded. Returns what takes it off again.
 */
export function addStreetDetailNote(map: L.Map): () => void {
	let regions: L.LatLngBounds[] | null = null;
	const note = L.DomUtil.create('div', 'map-note');
	note.setAttribute('role', 'status');
	note.dataset.testid = 'street-detail-note';
	note.hidden = true;
	const Note = L.Control.extend({ onAdd: () => note });
	const control = new Note({ position: 'bottomleft' }).addTo(map);
	const update = () => {
		if (!regions) return;
		const view = map.getBounds();
		const outside =
			map.getZoom() >= STREET_DETAIL_MIN_ZOOM && !regions.some((region) => region.intersects(view));
		note.hidden = !outside;
		note.textContent = outside ? STREET_DETAIL_NOTE : '';
	};
	let removed = false;
	// A map taken off the page (its island unmounted) before the answer came has no view to judge.
	const onUnload = () => {
		removed = true;
	};
	map.once('unload', onUnload);
	void loadedRegions().then((bounds) => {
		if (removed) return;
		regions = bounds.map(([west, south, east, north]) => L.latLngBounds([south, west], [north, east]));
		update();
	});
	map.on('moveend', update);
	return () => {
		removed = true;
		map.off('unload', onUnload);
		map.off('moveend', update);
		control.remove();
	};
}
