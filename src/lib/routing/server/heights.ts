import * as v from 'valibot';
import { HeightResponseSchema, MAX_HEIGHT_POINTS } from '../contract.ts';
import type { RoutingApiOptions } from './api.ts';

/**
 * The height of each point, from the elevation data /api/routing/height answers from: null where
 * that data has no height (outside the elevation tiles); the whole answer null when the service
 * cannot answer (no regions, the routing server down) or the points are more than it measures.
 */
export type HeightLookup = (
	points: readonly { lat: number; lng: number }[],
) => Promise<(number | null)[] | null>;

/** Given what the routing API is given, so saved routes and /routing/height read the same heights. */
export function createHeightLookup(options: RoutingApiOptions): HeightLookup {
	const upstream = options.routingUrl ? options.routingUrl.replace(/\/+$/, '') : null;
	const doFetch = options.fetch ?? fetch;
	const timeoutMs = options.timeoutMs ?? 10_000;
	return async (points) => {
		if (points.length === 0 || points.length > MAX_HEIGHT_POINTS) return null;
		const shape = points.map((point) => ({ lat: point.lat, lon: point.lng }));
		try {
			let answer: unknown;
			if (upstream) {
				const response = await doFetch(`${upstream}/height`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: JSON.stringify({ shape }),
					signal: AbortSignal.timeout(timeoutMs),
				});
				if (!response.ok) return null;
				answer = await response.json();
			} else {
				const source = options.engine;
				if (!source) return null;
				const engine = await (typeof source === 'function' ? source() : source);
				answer = engine.height({ shape });
			}
			const parsed = v.safeParse(HeightResponseSchema, answer);
			const heights = parsed.success ? parsed.output.height : undefined;
			return heights && heights.length === points.length ? heights.map((h) => h ?? null) : null;
		} catch {
			return null;
		}
	};
}
