import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
	boundsIntersect,
	lonLatToTile,
	tileBounds,
	tileRange,
	tileToLonLat,
} from '../../../src/lib/tiles/tile-math.ts';

describe('tile math', () => {
	it('puts known places in their tiles', () => {
		expect(lonLatToTile(0, 0, 0)).toEqual({ x: 0.5, y: 0.5 });
		expect(lonLatToTile(-180, 85.0511287798066, 3)).toEqual({ x: 0, y: expect.closeTo(0, 9) });
		// Downtown Harrisburg at zoom 14 (the tile any slippy map shows there).
		const tile = lonLatToTile(-76.8844, 40.2637, 14);
		expect([Math.floor(tile.x), Math.floor(tile.y)]).toEqual([4692, 6186]);
	});

	it('gives the whole world as the bounds of tile 0/0/0 and halves it at zoom 1', () => {
		const [west, south, east, north] = tileBounds(0, 0, 0);
		expect([west, east]).toEqual([-180, 180]);
		expect(north).toBeCloseTo(85.0511, 4);
		expect(south).toBeCloseTo(-85.0511, 4);
		expect(tileBounds(1, 1, 0)).toEqual([0, 0, 180, expect.closeTo(85.0511, 4)]);
	});

	it('turns a tile position back into the same point', () => {
		fc.assert(
			fc.property(
				fc.double({ min: -179.9, max: 179.9, noNaN: true }),
				fc.double({ min: -85, max: 85, noNaN: true }),
				fc.integer({ min: 0, max: 18 }),
				(lon, lat, z) => {
					const { x, y } = lonLatToTile(lon, lat, z);
					const back = tileToLonLat(x, y, z);
					expect(back.lon).toBeCloseTo(lon, 6);
					expect(back.lat).toBeCloseTo(lat, 6);
				},
			),
		);
	});

	it('lists the tiles covering bounds, clamped to the world', () => {
		expect(tileRange([-180, -85, 180, 85], 2)).toEqual({ minX: 0, maxX: 3, minY: 0, maxY: 3 });
		const range = tileRange([1.41, 42.43, 1.77, 42.69], 12);
		expect(range.maxX - range.minX).toBe(4);
		expect(boundsIntersect([0, 0, 1, 1], [1, 1, 2, 2])).toBe(true);
		expect(boundsIntersect([0, 0, 1, 1], [1.1, 0, 2, 1])).toBe(false);
	});
});
