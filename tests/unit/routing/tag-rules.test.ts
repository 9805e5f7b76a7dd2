import { describe, expect, it } from 'vitest';
import { RoutingError } from '../../../src/lib/routing/engine.ts';
import { getWayAccess, type Mode } from '../../../src/lib/routing/tags.ts';
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
