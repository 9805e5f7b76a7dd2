// @vitest-environment happy-dom
import L from 'leaflet';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
	addBaseLayer,
	BUILT_IN_VECTOR_TILES,
	browserHasWebGL,
	chooseBaseLayer,
} from '../../../src/islands/routes/map-layers';
import type { MapTileLayer } from '../../../src/lib/core/map-types';
import { buildBootup } from '../../../src/lib/site/bootup';
import { CONTROL, type Rollout } from '../../../src/lib/site/rollouts';
import { resetBootup } from '../../../src/lib/site/store';

const builtIn: MapTileLayer = {
	type: 'OSM',
	url: '/tiles/{z}/{x}/{y}{r}.png',
	attribution: '© OpenStreetMap contributors',
	maxZoom: 18,
};
const inRollout: Rollout[] = [{ rollout_name: 'alternate_maps_type', variant_name: 'enabled' }];
const inControl: Rollout[] = [{ rollout_name: 'alternate_maps_type', variant_name: CONTROL }];
const webgl = () => true;
const noWebgl = () => false;

describe('choosing the base map engine', () => {
	it('draws vector tiles with MapLibre for a member in the alternate maps rollout', () => {
		expect(chooseBaseLayer(builtIn, inRollout, webgl)).toEqual({
			engine: 'vector',
			tiles: BUILT_IN_VECTOR_TILES,
		});
		expect(chooseBaseLayer({ ...builtIn, url: '/tiles/{z}/{x}/{y}.png' }, inRollout, webgl).engine).toBe(
			'vector',
		);
	});

	it('keeps raster tiles for everyone else, and when the rollout is not known', () => {
		expect(chooseBaseLayer(builtIn, inControl, webgl)).toEqual({ engine: 'raster', reason: 'control' });
		expect(chooseBaseLayer(builtIn, [], webgl)).toEqual({ engine: 'raster', reason: 'control' });
	});

	it('keeps raster tiles when the browser has no WebGL', () => {
		expect(chooseBaseLayer(builtIn, inRollout, noWebgl)).toEqual({ engine: 'raster', reason: 'no-webgl' });
	});

	it('keeps raster tiles for map types the server has no vector tiles of', () => {
		for (const url of ['https://tiles.example/{z}/{x}/{y}.png', '/tiles/terrain/{z}/{x}/{y}.png']) {
			expect(chooseBaseLayer({ ...builtIn, url }, inRollout, webgl)).toEqual({
				engine: 'raster',
				reason: 'no-vector-tiles',
			});
		}
	});
});

describe('adding the base layer to a Leaflet map', () => {
	afterEach(() => {
		vi.unstubAllGlobals();
		vi.restoreAllMocks();
		resetBootup();
	});

	function answerBootup(rolloutMembers: string[]) {
		const bootup = buildBootup({
			config: {
				publicUrl: 'http://localhost',
				siteVariant: 'fitness',
				supportEmail: 's@x.test',
				tiles: { url: '', attribution: '' },
				rollouts: { alternate_maps_type: { members: rolloutMembers } },
			},
			viewer: { id: 9, username: 'dana', isPremium: false },
			geo: null,
			version: '1',
		});
		vi.stubGlobal(
			'fetch',
			vi.fn(async () => new Response(JSON.stringify(bootup), { status: 200 })),
		);
	}

	async function baseLayersOf(map: L.Map) {
		await vi.waitFor(() => {
			let count = 0;
			map.eachLayer(() => {
				count++;
			});
			expect(count).toBeGreaterThan(0);
		});
		const found: L.Layer[] = [];
		map.eachLayer((layer) => {
			found.push(layer);
		});
		return found;
	}

	it('falls back to raster tiles, with a warning, for a member in the rollout whose browser has no WebGL', async () => {
		expect(browserHasWebGL()).toBe(false);
		answerBootup(['dana']);
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const map = L.map(document.createElement('div')).setView([40.26, -76.88], 14);
		const remove = addBaseLayer(map, builtIn);
		const layers = await baseLayersOf(map);
		expect(layers).toHaveLength(1);
		expect(layers[0]).toBeInstanceOf(L.TileLayer);
		expect((layers[0] as L.TileLayer & { _url: string })._url).toBe(builtIn.url);
		expect(warn).toHaveBeenCalledWith(expect.stringContaining('no WebGL'));
		remove();
		expect(map.hasLayer(layers[0])).toBe(false);
		map.remove();
	});

	it('adds raster tiles without a word for a member outside the rollout', async () => {
		answerBootup([]);
		const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
		const map = L.map(document.createElement('div')).setView([40.26, -76.88], 14);
		addBaseLayer(map, builtIn);
		const layers = await baseLayersOf(map);
		expect(layers[0]).toBeInstanceOf(L.TileLayer);
		expect(warn).not.toHaveBeenCalled();
		map.remove();
	});

	it('adds raster tiles at once, without asking the bootup, when the page handed over the rollouts', () => {
		const fetch = vi.fn();
		vi.stubGlobal('fetch', fetch);
		const map = L.map(document.createElement('div')).setView([40.26, -76.88], 14);
		addBaseLayer(map, builtIn, [{ rollout_name: 'alternate_maps_type', variant_name: CONTROL }]);
		const layers: L.Layer[] = [];
		map.eachLayer((layer) => {
			layers.push(layer);
		});
		expect(layers).toHaveLength(1);
		expect(layers[0]).toBeInstanceOf(L.TileLayer);
		// The only request is the street detail note's question of where regions are loaded.
		expect(
			fetch.mock.calls.map(([url]) => String(url)).filter((url) => url !== '/tiles/regions.json'),
		).toEqual([]);
		map.remove();
	});
});
