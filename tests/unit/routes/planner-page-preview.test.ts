import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { MapTileLayer } from '../../../src/lib/core/map-types';
import { plannerPreviewFor } from '../../../src/lib/routes/server/planner-page';

const config = {
	mapLayers: [{ type: 'OSM', url: '/tiles/{z}/{x}/{y}{r}.png', attribution: '', maxZoom: 18 }],
} as {
	mapLayers: MapTileLayer[];
};

describe("a planner page's first paint", () => {
	it('is allowed by the page’s script policy, by the hash of the very script', () => {
		const hashes: string[] = [];
		const script = plannerPreviewFor(config, [], {
			cookie: null,
			csp: { insertScriptHash: (hash) => hashes.push(hash) },
		});
		expect(script).toContain('"remembered":true');
		expect(hashes).toEqual([
			`sha256-${createHash('sha256')
				.update(script as string)
				.digest('base64')}`,
		]);
	});

	it('frames an opened route, and keeps to the default view for a visitor who said no to preferences', () => {
		const script = plannerPreviewFor(
			config,
			[],
			{ cookie: 'ms_cookie_choices=preferences-off', csp: undefined },
			[
				{ lat: 40.27, lng: -76.88 },
				{ lat: 40.26, lng: -76.89 },
			],
		);
		expect(script).toContain('"remembered":false');
		expect(script).toContain('"frame":{"south":40.26,"west":-76.89,"north":40.27,"east":-76.88,"padding":32');
	});

	it('is left out for members on the vector map, who would not use raster tiles', () => {
		const hashes: string[] = [];
		const script = plannerPreviewFor(
			config,
			[{ rollout_name: 'alternate_maps_type', variant_name: 'enabled' }],
			{
				cookie: null,
				csp: { insertScriptHash: (hash) => hashes.push(hash) },
			},
		);
		expect(script).toBeNull();
		expect(hashes).toEqual([]);
	});
});
