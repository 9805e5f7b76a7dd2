import { describe, expect, it } from 'vitest';
import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { measureDistance } from '../../../src/lib/routing/geo.ts';
import { readOsmXmlText } from '../../../src/lib/routing/osm/read.ts';
import { buildRegion } from '../../../src/lib/routing/region.ts';
import { A, B, buildWorldEngine } from './world.ts';

type Point = { lat: number; lon: number };

/** Builds an engine from nodes and ways written by hand: ways are [node ids, tags]. */
async function buildEngine(nodes: Record<number, Point>, ways: [number[], Record<string, string>][]) {
	const xml = `<?xml version="1.0" encoding="UTF-8"?><osm version="0.6">
${Object.entries(nodes)
	.map(([id, p]) => `<node id="${id}" lat="${p.lat}" lon="${p.lon}"/>`)
	.join('\n')}
${ways
	.map(
		([refs, tags], i) =>
			`<way id="${100 + i}">${refs.map((ref) => `<nd ref="${ref}"/>`).join('')}${Object.entries(tags)
				.map(([k, v]) => `<tag k="${k}" v="${v}"/>`)
				.join('')}</way>`,
	)
	.join('\n')}
</osm>`;
	const osm = await readOsmXmlText(xml);
	return new RoutingEngine({ regions: [buildRegion('hand-written', osm)], maxSnapDistance: 400 });
}

function between(a: Point, b: Point): Point {
	return { lat: (a.lat + b.lat) / 2, lon: (a.lon + b.lon) / 2 };
}

describe('routing engine corrections', () => {
	// A main street west–east, and a parking aisle that leaves it at J and comes back to J: a loop whose two
	// ends are one junction.
	const W = { lat: 45.0, lon: 7.0 };
	const J = { lat: 45.0, lon: 7.002 };
	const E = { lat: 45.0, lon: 7.004 };
	const P1 = { lat: 45.0005, lon: 7.002 };
	const P2 = { lat: 45.0005, lon: 7.0026 };
	const P3 = { lat: 45.0001, lon: 7.0026 };
	const loopWorld = () =>
		buildEngine({ 1: W, 2: J, 3: E, 4: P1, 5: P2, 6: P3 }, [
			[[1, 2, 3], { highway: 'residential', name: 'Main Street' }],
			[[2, 4, 5, 6, 2], { highway: 'service', service: 'parking_aisle' }],
		]);

	it('leaves a loop the short way round when the route starts on it', async () => {
		const engine = await loopWorld();
		// Start a quarter of the way up the loop's first side, 14 m from J: the short way is back to J.
		const start = { lat: 45.00012, lon: 7.00201 };
		for (const costing of ['pedestrian', 'auto'] as const) {
			const route = engine.route({ locations: [start, W], costing });
			const expected =
				measureDistance(start.lat, start.lon, J.lat, J.lon) + measureDistance(J.lat, J.lon, W.lat, W.lon);
			expect(route.trip.summary.length * 1000).toBeLessThan(expected + 5);
		}
	});

	it('reaches a loop the short way round when the route ends on it', async () => {
		const engine = await loopWorld();
		// On the loop's last side, 12 m before it closes at J.
		const end = { lat: 45.00002, lon: 7.00212 };
		const route = engine.route({ locations: [W, end], costing: 'pedestrian' });
		const expected =
			measureDistance(W.lat, W.lon, J.lat, J.lon) + measureDistance(J.lat, J.lon, end.lat, end.lon);
		expect(route.trip.summary.length * 1000).toBeLessThan(expected + 5);
	});

	it('still uses a destination-only way to reach a place on it', async () => {
		const engine = await buildWorldEngine({ highway: 'residential', access: 'destination' });
		const midway = between(A, B);
		for (const costing of ['pedestrian', 'bicycle', 'auto'] as const) {
			const route = engine.route({ locations: [A, midway], costing });
			// Straight along the direct way: about 118 m, against 589 m or more round the detour.
			expect(route.trip.summary.length).toBeLessThan(0.15);
		}
	});

	it('reports true travel time on a destination-only way, not the search penalty', async () => {
		const open = await buildWorldEngine({ highway: 'residential' });
		const restricted = await buildWorldEngine({ highway: 'residential', access: 'destination' });
		const midway = between(A, B);
		const a = open.route({ locations: [A, midway], costing: 'auto' }).trip.summary.time;
		const b = restricted.route({ locations: [A, midway], costing: 'auto' }).trip.summary.time;
		expect(b).toBeCloseTo(a, 3);
	});

	// A street network of five junctions, and beside it a parking aisle joined to nothing.
	const N = {
		1: { lat: 45.0, lon: 7.0 },
		2: { lat: 45.0, lon: 7.002 },
		3: { lat: 45.0, lon: 7.004 },
		4: { lat: 45.002, lon: 7.002 },
		5: { lat: 44.998, lon: 7.002 },
		// the lot, 60–100 m north of the street's east half
		6: { lat: 45.0008, lon: 7.0032 },
		7: { lat: 45.0008, lon: 7.0036 },
		8: { lat: 45.0005, lon: 7.0036 },
	};
	const cutOffWorld = () =>
		buildEngine(N, [
			[[1, 2, 3], { highway: 'residential', name: 'Front Street' }],
			[[5, 2, 4], { highway: 'residential', name: 'Cross Street' }],
			[[6, 7, 8], { highway: 'service', service: 'parking_aisle' }],
		]);

	it('snaps a point beside a cut-off parking lot to the nearest road that connects, and says how far', async () => {
		const engine = await cutOffWorld();
		// 5 m from the lot's aisle, about 78 m from Front Street.
		const inLot = { lat: 45.00075, lon: 7.0034 };
		for (const costing of ['pedestrian', 'bicycle', 'auto'] as const) {
			const route = engine.route({ locations: [N[1], inLot], costing });
			const moved = route.trip.locations[1];
			expect(moved.snap_distance).toBeGreaterThan(70);
			expect(moved.snap_distance).toBeLessThan(95);
			expect(moved.correlated_lat).toBeCloseTo(45.0, 4);
			expect(route.trip.locations[0].snap_distance).toBeLessThan(1);
		}
	});

	it('keeps a point on the connected network where it is', async () => {
		const engine = await cutOffWorld();
		const onStreet = { lat: 45.00002, lon: 7.001 };
		const route = engine.route({ locations: [onStreet, N[4]], costing: 'pedestrian' });
		expect(route.trip.locations[0].snap_distance).toBeLessThan(3);
	});
});

describe('turn restrictions', () => {
	// Main Street runs west–east through a crossroads X; North Street leaves X northwards; a back lane joins
	// the west end to North Street's far end, three times as long as turning at X.
	const W = { lat: 45.0, lon: 7.0 };
	const X = { lat: 45.0, lon: 7.002 };
	const E = { lat: 45.0, lon: 7.004 };
	const N = { lat: 45.0015, lon: 7.002 };
	const NW = { lat: 45.003, lon: 7.0 };
	function buildCrossroads(restriction: Record<string, string>) {
		const tag = (k: string, v: string) => `<tag k="${k}" v="${v}"/>`;
		return readOsmXmlText(`<?xml version="1.0" encoding="UTF-8"?><osm version="0.6">
<node id="1" lat="${W.lat}" lon="${W.lon}"/><node id="2" lat="${X.lat}" lon="${X.lon}"/>
<node id="3" lat="${E.lat}" lon="${E.lon}"/><node id="4" lat="${N.lat}" lon="${N.lon}"/>
<node id="5" lat="${NW.lat}" lon="${NW.lon}"/>
<way id="11"><nd ref="1"/><nd ref="2"/>${tag('highway', 'residential')}${tag('name', 'Main Street')}</way>
<way id="12"><nd ref="2"/><nd ref="3"/>${tag('highway', 'residential')}${tag('name', 'Main Street')}</way>
<way id="13"><nd ref="2"/><nd ref="4"/>${tag('highway', 'residential')}${tag('name', 'North Street')}</way>
<way id="14"><nd ref="1"/><nd ref="5"/><nd ref="4"/>${tag('highway', 'residential')}${tag('name', 'Back Lane')}</way>
<relation id="90"><member type="way" ref="11" role="from"/><member type="node" ref="2" role="via"/>
<member type="way" ref="${restriction.to ?? '13'}" role="to"/>${Object.entries(restriction)
			.filter(([k]) => k !== 'to')
			.map(([k, v]) => tag(k, v))
			.join('')}</relation>
</osm>`).then((osm) => new RoutingEngine({ regions: [buildRegion('crossroads', osm)], maxSnapDistance: 50 }));
	}
	const turnsLeft = (engine: RoutingEngine, costing: 'pedestrian' | 'bicycle' | 'auto') =>
		engine.route({ locations: [W, N], costing }).trip.summary.length < 0.4;

	it('keeps cars and bicycles from a banned left turn, and lets walkers turn', async () => {
		const engine = await buildCrossroads({ type: 'restriction', restriction: 'no_left_turn' });
		expect(turnsLeft(engine, 'auto')).toBe(false);
		expect(turnsLeft(engine, 'bicycle')).toBe(false);
		expect(turnsLeft(engine, 'pedestrian')).toBe(true);
		// Coming the other way the turn is not restricted.
		expect(engine.route({ locations: [N, W], costing: 'auto' }).trip.summary.length).toBeLessThan(0.4);
	});

	it('lets bicycles through a restriction that excepts them', async () => {
		const engine = await buildCrossroads({
			type: 'restriction',
			restriction: 'no_left_turn',
			except: 'bicycle',
		});
		expect(turnsLeft(engine, 'auto')).toBe(false);
		expect(turnsLeft(engine, 'bicycle')).toBe(true);
	});

	it('reads only_straight_on as a ban on every other turn', async () => {
		const engine = await buildCrossroads({ type: 'restriction', restriction: 'only_straight_on', to: '12' });
		expect(turnsLeft(engine, 'auto')).toBe(false);
		expect(engine.route({ locations: [W, E], costing: 'auto' }).trip.summary.length).toBeLessThan(0.4);
	});

	it('binds only cars with restriction:motorcar', async () => {
		const engine = await buildCrossroads({ type: 'restriction', 'restriction:motorcar': 'no_left_turn' });
		expect(turnsLeft(engine, 'auto')).toBe(false);
		expect(turnsLeft(engine, 'bicycle')).toBe(true);
	});
});

describe('turn restrictions in a real extract', () => {
	it('reads the restriction relations of the Harrisburg PBF into banned turns', async () => {
		const { readOsmFile } = await import('../../../src/lib/routing/osm/read.ts');
		const { buildRoadGraph } = await import('../../../src/lib/routing/graph.ts');
		const osm = await readOsmFile(
			new URL('../../../data-regions/harrisburg.osm.pbf', import.meta.url).pathname,
		);
		expect(osm.restrictions.length).toBeGreaterThan(0);
		expect(osm.restrictions.every((r) => r.from > 0 && r.via > 0 && r.to > 0 && r.modes > 0)).toBe(true);
		expect(buildRoadGraph(osm).turnFrom.length).toBeGreaterThanOrEqual(osm.restrictions.length);
	});
});

describe('surface and way-type breakdown', () => {
	it('splits a route into paved road, unpaved track and steps by metres and percent', async () => {
		const P = [
			{ lat: 45.0, lon: 7.0 },
			{ lat: 45.0, lon: 7.002 },
			{ lat: 45.0, lon: 7.003 },
			{ lat: 45.0, lon: 7.0032 },
		];
		const engine = await buildEngine(Object.fromEntries(P.map((p, i) => [i + 1, p])), [
			[[1, 2], { highway: 'residential', name: 'Paved Road' }],
			[[2, 3], { highway: 'track', surface: 'gravel' }],
			[[3, 4], { highway: 'steps' }],
		]);
		const { breakdown, summary } = engine.route({ locations: [P[0], P[3]], costing: 'pedestrian' }).trip;
		const total = summary.length * 1000;
		const metres = (list: { type: string; length: number }[] | undefined, type: string) =>
			list?.find((entry) => entry.type === type)?.length ?? 0;
		expect(metres(breakdown?.surface, 'paved')).toBeCloseTo(157 + 16, -1);
		expect(metres(breakdown?.surface, 'unpaved')).toBeCloseTo(79, -1);
		expect(metres(breakdown?.way_type, 'road')).toBeCloseTo(157, -1);
		expect(metres(breakdown?.way_type, 'track')).toBeCloseTo(79, -1);
		expect(metres(breakdown?.way_type, 'steps')).toBeCloseTo(16, -1);
		const percents = breakdown?.surface.reduce((sum, entry) => sum + entry.percent, 0) ?? 0;
		expect(percents).toBeCloseTo(100, 0);
		expect(breakdown?.surface.reduce((sum, e) => sum + e.length, 0)).toBeCloseTo(total, -1);
	});
});
