import { useEffect, useRef, useState } from 'react';
import type { MapTileLayer } from '../../lib/core/map-types';
import type { RouteListItem } from '../../lib/routes/contract';
import type { ResultsMap, ResultsMapEvents } from './results-map';

export type RouteResultsMapProps = ResultsMapEvents & {
	routes: readonly RouteListItem[];
	/** The configured map types, the default first. */
	layers: readonly MapTileLayer[];
	highlighted: number | null;
};

/**
 * The search results on a map, beside the list (above it on a phone). Leaflet is imported when this
 * mounts, so it loads only with the island; the list works on its own until then, and without it.
 */
export default function RouteResultsMap({ routes, layers, highlighted, ...events }: RouteResultsMapProps) {
	const element = useRef<HTMLElement>(null);
	const [map, setMap] = useState<ResultsMap | null>(null);
	const [failed, setFailed] = useState(false);
	// The map keeps the first handlers it was given; these forward to the latest.
	const handlers = useRef(events);
	handlers.current = events;

	useEffect(() => {
		let cancelled = false;
		let created: ResultsMap | null = null;
		import('./results-map')
			.then(({ createResultsMap }) => {
				if (cancelled || !element.current) return;
				created = createResultsMap(element.current, layers, {
					onHover: (id) => handlers.current.onHover(id),
					onChoose: (id) => handlers.current.onChoose(id),
				});
				setMap(created);
			})
			.catch(() => {
				if (!cancelled) setFailed(true);
			});
		return () => {
			cancelled = true;
			created?.remove();
			setMap(null);
		};
	}, [layers]);

	const highlightedNow = useRef(highlighted);
	highlightedNow.current = highlighted;

	// New results are drawn afresh, keeping whichever is marked.
	useEffect(() => {
		map?.show(routes);
		map?.highlight(highlightedNow.current);
	}, [map, routes]);

	useEffect(() => {
		map?.highlight(highlighted);
	}, [map, highlighted]);

	if (failed) return null;
	return (
		<section
			ref={element}
			className="route-results-map"
			aria-label="Map of the routes found"
			data-testid="route-results-map"
		/>
	);
}
