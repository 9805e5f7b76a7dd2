import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { RoutingEngine, RoutingError } from '../../../src/lib/routing/engine.ts';
import { measureStep } from '../../../src/lib/routing/geo.ts';
import { findNodeIndex } from '../../../src/lib/routing/osm/model.ts';
import { readOsmFile, readOsmXmlText } from '../../../src/lib/routing/osm/read.ts';
import { decodePolyline } from '../../../src/lib/routing/polyline.ts';
import { buildRegion } from '../../../src/lib/routing/region.ts';
import { getWayAccess, type Mode } from '../../../src/lib/routing/tags.ts';
import { loadTestRegion, REGIONS_DIR } from './region-cache.ts';
import { A, B, buildWorldEngine, E } from './world.ts';

type Way = 'direct' | 'detour';
interface Case {
	rule: string;
	tags: Record<string, string>;
	/** Which way each mode takes from A to B, and from B to A. */
	aToB: Record<Mode, Way>;
	bToA?: Record<Mode, Way>;
}

const all = (way: Way): Record<Mode, Way> => ({ pedestrian: way, bicycle: way, auto: way });

const CASES: Case[] = [
	{
		rule: 'residential is open to everyone',
		tags: { highway: 'residential' },
		aToB: all('direct'),
		bToA: all('direct'),
	},
	{
		rule: 'oneway binds bicycles and cars, not walkers',
		tags: { highway: 'residential', oneway: 'yes' },
		aToB: all('direct'),
		bToA: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'oneway=-1 runs against the drawing direction',
		tags: { highway: 'residential', oneway: '-1' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
		bToA: all('direct'),
	},
	{
		rule: 'oneway:bicycle=no lets bicycles ride both ways',
		tags: { highway: 'residential', oneway: 'yes', 'oneway:bicycle': 'no' },
		aToB: all('direct'),
		bToA: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'roundabouts are oneway',
		tags: { highway: 'tertiary', junction: 'roundabout' },
		aToB: all('direct'),
		bToA: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'access=no with foot=yes is for walkers only',
		tags: { highway: 'service', access: 'no', foot: 'yes' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'access=private closes the way',
		tags: { highway: 'residential', access: 'private' },
		aToB: all('detour'),
	},
	{
		rule: 'steps are for walkers, not bicycles',
		tags: { highway: 'steps' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'footways take bicycles only when signed',
		tags: { highway: 'footway' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'footway with bicycle=yes takes bicycles',
		tags: { highway: 'footway', bicycle: 'yes' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'motorways are for cars only',
		tags: { highway: 'motorway' },
		aToB: { pedestrian: 'detour', bicycle: 'detour', auto: 'direct' },
	},
	{
		rule: 'cycleways carry bicycles and walkers',
		tags: { highway: 'cycleway' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'tracks are not for cars',
		tags: { highway: 'track' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'motor_vehicle=no keeps cars out',
		tags: { highway: 'residential', motor_vehicle: 'no' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'bicycle=no keeps bicycles out',
		tags: { highway: 'residential', bicycle: 'no' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'direct' },
	},
	{
		rule: 'area=yes is a square, not a way',
		tags: { highway: 'pedestrian', area: 'yes' },
		aToB: all('detour'),
	},
	{ rule: 'ways under construction are closed', tags: { highway: 'construction' }, aToB: all('detour') },
	{
		rule: 'construction=* beside a real highway class leaves the way open',
		tags: { highway: 'primary', construction: 'secondary', access: 'yes' },
		aToB: all('direct'),
		bToA: all('direct'),
	},
	{
		rule: 'access=destination is not a short cut for through traffic',
		tags: { highway: 'residential', access: 'destination' },
		aToB: all('detour'),
		bToA: all('detour'),
	},
	{
		rule: 'motor_vehicle=customers keeps cars out of the short cut, not walkers or bicycles',
		tags: { highway: 'service', motor_vehicle: 'customers' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'motorcar=destination keeps cars from passing through, not walkers or bicycles',
		tags: { highway: 'residential', motorcar: 'destination' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'motor_vehicle=destination keeps cars from passing through',
		tags: { highway: 'residential', motor_vehicle: 'destination' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
		bToA: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'vehicle=destination keeps cars and bicycles from passing through, not walkers',
		tags: { highway: 'residential', vehicle: 'destination' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'construction=minor beside highway=residential leaves the way open to everyone',
		tags: { highway: 'residential', construction: 'minor' },
		aToB: all('direct'),
		bToA: all('direct'),
	},
	{
		rule: 'a demanding mountain hiking path is walked, not ridden',
		tags: { highway: 'path', sac_scale: 'demanding_mountain_hiking' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'an alpine hiking path is not ridden even when bicycles are allowed',
		tags: { highway: 'path', sac_scale: 'alpine_hiking', bicycle: 'yes' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'a mountain hiking path (below demanding) is still ridden',
		tags: { highway: 'path', sac_scale: 'mountain_hiking' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'a track of mtb:scale 3 is not ridden',
		tags: { highway: 'track', 'mtb:scale': '3' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'a track of mtb:scale 4- is not ridden',
		tags: { highway: 'track', 'mtb:scale': '4-' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'detour' },
	},
	{
		rule: 'a track of mtb:scale 2+ is still ridden',
		tags: { highway: 'track', 'mtb:scale': '2+' },
		aToB: { pedestrian: 'direct', bicycle: 'direct', auto: 'detour' },
	},
	{
		rule: 'a trunk without a cycle lane is not for bicycles',
		tags: { highway: 'trunk' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'direct' },
	},
	{
		rule: 'a trunk with cycleway=lane is open to bicycles',
		tags: { highway: 'trunk', cycleway: 'lane' },
		aToB: all('direct'),
	},
	{
		rule: 'a trunk with cycleway:right=track is open to bicycles',
		tags: { highway: 'trunk', 'cycleway:right': 'track' },
		aToB: all('direct'),
	},
	{
		rule: 'a trunk with cycleway:both=shared_lane is open to bicycles',
		tags: { highway: 'trunk', 'cycleway:both': 'shared_lane' },
		aToB: all('direct'),
	},
	{
		rule: 'a trunk with cycleway=no stays closed to bicycles',
		tags: { highway: 'trunk', cycleway: 'no' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'direct' },
	},
	{
		rule: 'a trunk with sidewalk=no is not for walking',
		tags: { highway: 'trunk', sidewalk: 'no' },
		aToB: { pedestrian: 'detour', bicycle: 'detour', auto: 'direct' },
	},
	{
		rule: 'a trunk with sidewalk=none is not for walking',
		tags: { highway: 'trunk', sidewalk: 'none' },
		aToB: { pedestrian: 'detour', bicycle: 'detour', auto: 'direct' },
	},
	{
		rule: 'a trunk with sidewalk=no but foot=designated is walked',
		tags: { highway: 'trunk', sidewalk: 'no', foot: 'designated' },
		aToB: { pedestrian: 'direct', bicycle: 'detour', auto: 'direct' },
	},
];

// Direct way A–B is about 236 m; the detour through C about 706 m.
function classify(length: number): Way {
	return length < 0.3 ? 'direct' : 'detour';
}

describe('tag rules on a hand-written graph', () => {
	for (const testCase of CASES) {
		it(testCase.rule, async () => {
			const engine = await buildWorldEngine(testCase.tags);
			for (const mode of ['pedestrian', 'bicycle', 'auto'] as const) {
				const there = engine.route({ locations: [A, B], costing: mode });
				expect([mode, classify(there.trip.summary.length)]).toEqual([mode, testCase.aToB[mode]]);
				if (testCase.bToA) {
					const back = engine.route({ locations: [B, A], costing: mode });
					expect([mode, classify(back.trip.summary.length)]).toEqual([mode, testCase.bToA[mode]]);
				}
			}
		});
	}

	it('avoids motorways when asked, and uses them otherwise', async () => {
		const engine = await buildWorldEngine({ highway: 'motorway' });
		const normal = engine.route({ locations: [A, B], costing: 'auto' });
		expect(classify(normal.trip.summary.length)).toBe('direct');
		const avoiding = engine.route({
			locations: [A, B],
			costing: 'auto',
			costing_options: { auto: { use_highways: 0 } },
		});
		expect(classify(avoiding.trip.summary.length)).toBe('detour');
		expect(avoiding.trip.legs[0].maneuvers[0].instruction).toContain('Detour Street');
	});

	it('answers 442 between disconnected pieces', async () => {
		const engine = await buildWorldEngine({ highway: 'residential' });
		let caught: unknown;
		try {
			engine.route({ locations: [A, E], costing: 'pedestrian' });
		} catch (error) {
			caught = error;
		}
		expect(caught).toBeInstanceOf(RoutingError);
		expect((caught as RoutingError).code).toBe(442);
	});

	it('answers 171 for a point far from any usable road', async () => {
		const engine = await buildWorldEngine({ highway: 'residential' });
		expect(() =>
			engine.route({ locations: [A, { lat: 45.0, lon: 7.0 + 0.0035 + 0.01 }], costing: 'auto' }),
		).toThrow(/No suitable edges/);
	});

	it('reads maxspeed in km/h and mph', () => {
		const metric = getWayAccess({ highway: 'primary', maxspeed: '30' }, 'auto');
		const imperial = getWayAccess({ highway: 'primary', maxspeed: '30 mph' }, 'auto');
		expect(metric?.forward).toBeCloseTo(27);
		expect(imperial?.forward).toBeCloseTo(30 * 1.609344 * 0.9);
	});
});

// A main road A–B (about 236 m) with a footway A–D–B a little longer (about 260 m) beside it.
const D = { lat: 45.0005, lon: 7.0015 };
async function buildBesideFootway(roadTags: Record<string, string>): Promise<RoutingEngine> {
	const tag = (k: string, v: string) => `<tag k="${k}" v="${v}"/>`;
	const node = (id: number, p: { lat: number; lon: number }) =>
		`<node id="${id}" lat="${p.lat}" lon="${p.lon}"/>`;
	const xml = `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${node(1, A)}${node(2, B)}${node(4, D)}
<way id="10"><nd ref="1"/><nd ref="2"/>${Object.entries(roadTags)
		.map(([k, v]) => tag(k, v))
		.join('')}${tag('name', 'Main Road')}</way>
<way id="11"><nd ref="1"/><nd ref="4"/><nd ref="2"/>${tag('highway', 'footway')}${tag('name', 'Roadside Footway')}</way>
</osm>`;
	const osm = await readOsmXmlText(xml);
	return new RoutingEngine({ regions: [buildRegion('beside-footway', osm)], maxSnapDistance: 50 });
}

function walkedOn(engine: RoutingEngine): string[] {
	const trip = engine.route({ locations: [A, B], costing: 'pedestrian' }).trip;
	return trip.legs[0].maneuvers.flatMap((m) => m.street_names ?? []);
}

describe('walkers beside main roads', () => {
	for (const highway of ['trunk', 'primary']) {
		it(`takes the footway beside a ${highway} without a sidewalk, though it is a little longer`, async () => {
			const engine = await buildBesideFootway({ highway });
			expect(walkedOn(engine)).toContain('Roadside Footway');
			expect(walkedOn(engine)).not.toContain('Main Road');
		});

		it(`walks a ${highway} that has a sidewalk`, async () => {
			const engine = await buildBesideFootway({ highway, sidewalk: 'both' });
			expect(walkedOn(engine)).toEqual(['Main Road']);
		});
	}

	it('walks a primary signed foot=designated', async () => {
		const engine = await buildBesideFootway({ highway: 'primary', foot: 'designated' });
		expect(walkedOn(engine)).toEqual(['Main Road']);
	});

	it('drives the main road all the same', async () => {
		const engine = await buildBesideFootway({ highway: 'primary' });
		const trip = engine.route({ locations: [A, B], costing: 'auto' }).trip;
		expect(trip.legs[0].maneuvers.flatMap((m) => m.street_names ?? [])).toEqual(['Main Road']);
	});
});

describe('trails too hard to ride on the Andorra extract', () => {
	const HARD_SAC = new Set([
		'demanding_mountain_hiking',
		'alpine_hiking',
		'demanding_alpine_hiking',
		'difficult_alpine_hiking',
	]);
	// Both ends of a 0.54 km alpine hiking path north of Ordino (way 122383894), and of a 2.5 km
	// "Mountainbike Downhill" of mtb:scale 3 above Andorra la Vella (way 29249700); bicycles used to take both.
	const ALPINE = [
		{ lat: 42.580707, lon: 1.513448 },
		{ lat: 42.582648, lon: 1.517177 },
	];
	const DOWNHILL = [
		{ lat: 42.545888, lon: 1.508158 },
		{ lat: 42.540665, lon: 1.494011 },
	];
	let engine: RoutingEngine;
	/** Consecutive shape points of ways too hard to ride, as "lat,lon|lat,lon" in micro-degrees. */
	const hardSteps = new Set<string>();

	beforeAll(async () => {
		engine = new RoutingEngine({ regions: [await loadTestRegion('andorra.osm.pbf')], maxSnapDistance: 500 });
		const osm = await readOsmFile(join(REGIONS_DIR, 'andorra.osm.pbf'));
		for (const way of osm.ways) {
			const mtb = /^(\d+)/.exec(way.tags['mtb:scale'] ?? '');
			if (!HARD_SAC.has(way.tags.sac_scale ?? '') && !(mtb && Number(mtb[1]) >= 3)) continue;
			const points = way.refs
				.map((ref) => findNodeIndex(osm, ref))
				.filter((i) => i >= 0)
				.map((i) => `${Math.round(osm.nodeLat[i] / 10)},${Math.round(osm.nodeLon[i] / 10)}`);
			for (let i = 1; i < points.length; i++) {
				hardSteps.add(`${points[i - 1]}|${points[i]}`);
				hardSteps.add(`${points[i]}|${points[i - 1]}`);
			}
		}
	});

	/** Metres of the route on ways too hard to ride, and its length in km. */
	function measureHard(
		locations: { lat: number; lon: number }[],
		costing: 'bicycle' | 'pedestrian',
	): { hard: number; length: number } {
		const trip = engine.route({ locations, costing }).trip;
		const shape = decodePolyline(trip.legs[0].shape);
		const key = ([lat, lon]: [number, number]) => `${Math.round(lat * 1e6)},${Math.round(lon * 1e6)}`;
		let hard = 0;
		for (let i = 1; i < shape.length; i++) {
			if (hardSteps.has(`${key(shape[i - 1])}|${key(shape[i])}`)) {
				hard += measureStep(shape[i - 1][0], shape[i - 1][1], shape[i][0], shape[i][1]);
			}
		}
		return { hard, length: trip.summary.length };
	}

	it('rides round an alpine hiking path by road instead of along it', () => {
		const ride = measureHard(ALPINE, 'bicycle');
		expect(ride.hard).toBe(0);
		expect(ride.length).toBeGreaterThan(5);
	});

	it('rides round an mtb:scale 3 downhill by road instead of along it', () => {
		const ride = measureHard(DOWNHILL, 'bicycle');
		expect(ride.hard).toBe(0);
		expect(ride.length).toBeGreaterThan(5);
	});

	it('still walks the alpine path', () => {
		expect(measureHard(ALPINE, 'pedestrian').hard).toBeGreaterThan(500);
	});
});
