import type { RouteBreakdown } from './contract.ts';
import type { Piece, Region } from './region.ts';
import { getWayType, SURFACES } from './tags.ts';

/** Metres and share of a route per surface and per kind of way, from the tags of the ways it follows. */
export function measureBreakdown(region: Region, legs: Piece[][]): RouteBreakdown {
	const surface = new Map<string, number>();
	const wayType = new Map<string, number>();
	let total = 0;
	for (const pieces of legs) {
		for (const piece of pieces) {
			const length = Math.abs(piece.to - piece.from);
			if (length === 0) continue;
			total += length;
			const surfaceName = SURFACES[region.graph.segSurface[piece.segment]] ?? 'unknown';
			surface.set(surfaceName, (surface.get(surfaceName) ?? 0) + length);
			const type = getWayType(region.graph.segClass[piece.segment]);
			wayType.set(type, (wayType.get(type) ?? 0) + length);
		}
	}
	const list = (lengths: Map<string, number>) =>
		[...lengths]
			.sort((a, b) => b[1] - a[1])
			.map(([type, metres]) => ({
				type,
				length: Math.round(metres),
				percent: total > 0 ? Math.round((metres / total) * 1000) / 10 : 0,
			}));
	return { surface: list(surface), way_type: list(wayType) };
}
