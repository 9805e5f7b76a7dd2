import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { TileRegionsResponseSchema } from '../../../src/lib/tiles/contract.ts';
import { createTilesApp } from '../../../src/lib/tiles/server/api.ts';
import { createTownService } from '../../unit/tiles/town.ts';

let app: ReturnType<typeof createTilesApp>;

beforeAll(async () => {
	app = createTilesApp(createTownService());
});

describe('GET /tiles/{z}/{x}/{y}.png', () => {
	it('answers a PNG browsers may keep, with an ETag that revalidates to 304', async () => {
		const response = await app.request('/tiles/13/2347/3093.png');
		expect(response.status).toBe(200);
		expect(response.headers.get('content-type')).toBe('image/png');
		expect(response.headers.get('cache-control')).toMatch(/^public, max-age=\d+/);
		expect(response.headers.get('x-content-type-options')).toBe('nosniff');
		const etag = response.headers.get('etag');
		expect(etag).toMatch(/^"[\w-]+"$/);
		const body = new Uint8Array(await response.arrayBuffer());
		expect([...body.subarray(1, 4)]).toEqual([0x50, 0x4e, 0x47]);

		const again = await app.request('/tiles/13/2347/3093.png', { headers: { 'if-none-match': etag ?? '' } });
		expect(again.status).toBe(304);
		expect(again.headers.get('etag')).toBe(etag);
	});

	it('serves vector tiles as .pbf and .mvt', async () => {
		for (const extension of ['pbf', 'mvt']) {
			const response = await app.request(`/tiles/13/2347/3093.${extension}`);
			expect(response.status).toBe(200);
			expect(response.headers.get('content-type')).toBe('application/vnd.mapbox-vector-tile');
			expect((await response.arrayBuffer()).byteLength).toBeGreaterThan(50);
		}
	});

	it('draws a tile saying so, not a 404, where no region reaches', async () => {
		const inside = await app.request('/tiles/13/2347/3093.png');
		const outside = await app.request('/tiles/13/100/100.png');
		expect(outside.status).toBe(200);
		expect(outside.headers.get('content-type')).toBe('image/png');
		expect(outside.headers.get('etag')).not.toBe(inside.headers.get('etag'));
	});

	it.each([
		['/tiles/19/0/0.png', 'zoom above 18'],
		['/tiles/2/4/0.png', 'x out of range'],
		['/tiles/2/0/4.png', 'y out of range'],
		['/tiles/a/0/0.png', 'not a number'],
		['/tiles/1/0/0.jpg', 'unknown format'],
		['/tiles/1/0/0/0.png', 'extra segment'],
	])('refuses %s (%s) with 400', async (path) => {
		const response = await app.request(path);
		expect(response.status).toBe(400);
		expect(await response.json()).toMatchObject({ error: 'bad_request' });
	});

	it('answers 404 for every tile when the map uses another tile service', async () => {
		const other = createTilesApp(null);
		expect((await other.request('/tiles/1/0/0.png')).status).toBe(404);
		expect((await other.request('/tiles/regions.json')).status).toBe(404);
	});
});

describe('GET /tiles/regions.json', () => {
	it('lists where the base map has data, with the OpenStreetMap credit', async () => {
		const response = await app.request('/tiles/regions.json');
		expect(response.status).toBe(200);
		const body = v.parse(TileRegionsResponseSchema, await response.json());
		expect(body.attribution).toBe('© OpenStreetMap contributors');
		expect(body.regions).toHaveLength(1);
		const [west, south, east, north] = body.regions[0].bounds;
		expect(west).toBeCloseTo(-76.85, 2);
		expect(east).toBeCloseTo(-76.83, 2);
		expect(south).toBeLessThan(north);
	});
});
