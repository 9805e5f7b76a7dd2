import { describe, expect, test } from 'vitest';
import { ConfigError, readConfig } from '../../../src/lib/core/config';

const layers = (value: unknown) => ({ MAP_TILE_LAYERS: JSON.stringify(value) });

describe('MAP_TILE_LAYERS', () => {
	test('defaults to the one local OSM layer of TILE_URL and TILE_ATTRIBUTION', () => {
		expect(readConfig({}).mapLayers).toEqual([
			{
				type: 'OSM',
				url: '/tiles/{z}/{x}/{y}{r}.png',
				attribution: '© OpenStreetMap contributors',
				maxZoom: 18,
			},
		]);
		expect(
			readConfig({ TILE_URL: 'https://tiles.example/{z}/{x}/{y}.png', TILE_ATTRIBUTION: 'Example' })
				.mapLayers,
		).toEqual([
			{ type: 'OSM', url: 'https://tiles.example/{z}/{x}/{y}.png', attribution: 'Example', maxZoom: 19 },
		]);
	});

	test('keeps the configured map types in order, the first being the default', () => {
		const config = readConfig(
			layers([
				{
					type: 'terrain',
					url: 'https://{s}.topo.example/{z}/{x}/{y}.png',
					attribution: ' Topo © Example ',
					maxZoom: 17,
				},
				{ type: 'OSM', url: '/tiles/{z}/{x}/{y}.png' },
				{ type: 'USA_TOPO', url: '/usa/{z}/{y}/{x}' },
			]),
		);
		expect(config.mapLayers).toEqual([
			{
				type: 'terrain',
				url: 'https://{s}.topo.example/{z}/{x}/{y}.png',
				attribution: 'Topo © Example',
				maxZoom: 17,
			},
			{
				type: 'OSM',
				url: '/tiles/{z}/{x}/{y}.png',
				attribution: '© OpenStreetMap contributors',
				maxZoom: 18,
			},
			{ type: 'USA_TOPO', url: '/usa/{z}/{y}/{x}', attribution: '', maxZoom: 19 },
		]);
		// The single-layer settings other maps use are left as they were.
		expect(config.tiles).toEqual({
			url: '/tiles/{z}/{x}/{y}{r}.png',
			attribution: '© OpenStreetMap contributors',
		});
	});

	test.each([
		['not JSON', 'tiles please', /MAP_TILE_LAYERS must be JSON/],
		['an object', '{"type":"OSM"}', /must be a JSON array/],
		['an empty list', '[]', /at least one layer/],
		[
			'an unknown map type',
			JSON.stringify([{ type: 'moon', url: '/m/{z}/{x}/{y}' }]),
			/type must be one of roadmap/,
		],
		[
			'a type twice',
			JSON.stringify([
				{ type: 'OSM', url: '/a/{z}/{x}/{y}' },
				{ type: 'OSM', url: '/b/{z}/{x}/{y}' },
			]),
			/lists a map type twice/,
		],
		[
			'plain http',
			JSON.stringify([{ type: 'OSM', url: 'http://tiles.example/{z}/{x}/{y}' }]),
			/https:\/\/ or \//,
		],
		[
			'a protocol-relative host',
			JSON.stringify([{ type: 'OSM', url: '//evil.example/{z}/{x}/{y}' }]),
			/https:\/\/ or \//,
		],
		[
			'a javascript: URL',
			JSON.stringify([{ type: 'OSM', url: 'javascript:alert(1)//{z}/{x}/{y}' }]),
			/https:\/\/ or \//,
		],
		[
			'markup in the URL',
			JSON.stringify([{ type: 'OSM', url: '/t/{z}/{x}/{y}"><script>' }]),
			/https:\/\/ or \//,
		],
		['a missing {y}', JSON.stringify([{ type: 'OSM', url: '/t/{z}/{x}.png' }]), /\{z\}, \{x\} and \{y\}/],
		[
			'an unknown field',
			JSON.stringify([{ type: 'OSM', url: '/t/{z}/{x}/{y}', subdomains: 'abc' }]),
			/subdomains/,
		],
		[
			'a zoom of 30',
			JSON.stringify([{ type: 'OSM', url: '/t/{z}/{x}/{y}', maxZoom: 30 }]),
			/MAP_TILE_LAYERS\.0\.maxZoom/,
		],
	])('refuses %s, naming the setting', (_, value, message) => {
		expect(() => readConfig({ MAP_TILE_LAYERS: value })).toThrow(ConfigError);
		expect(() => readConfig({ MAP_TILE_LAYERS: value })).toThrow(message);
	});
});

describe('ROLLOUTS', () => {
	test('sets shares and members of named rollouts', () => {
		const config = readConfig({
			ROLLOUTS: JSON.stringify({ alternate_maps_type: { percent: 10, members: ['demo', 7] } }),
		});
		expect(config.rollouts).toEqual({ alternate_maps_type: { percent: 10, members: ['demo', 7] } });
		expect(readConfig({}).rollouts).toEqual({});
	});

	test.each([
		['not JSON', '{'],
		['an unknown rollout', JSON.stringify({ dark_mode: { percent: 5 } })],
		['a share above 100', JSON.stringify({ ads: { percent: 101 } })],
		['an unknown field', JSON.stringify({ ads: { everyone: true } })],
		['an empty member', JSON.stringify({ ads: { members: [' '] } })],
	])('refuses %s', (_, value) => {
		expect(() => readConfig({ ROLLOUTS: value })).toThrow(ConfigError);
	});
});
