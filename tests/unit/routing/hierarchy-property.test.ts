import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { HierarchyQuery } from '../../../src/lib/routing/ch.ts';
import { PlainQuery } from '../../../src/lib/routing/dijkstra.ts';
import { getSegmentCost, getSegmentTime } from '../../../src/lib/routing/graph.ts';
import {
	AUTO_AVOIDING_HIGHWAYS,
	HIGHWAY_AVOID_FACTOR,
	type Region,
} from '../../../src/lib/routing/region.ts';
import { MODES } from '../../../src/lib/routing/tags.ts';
import { loadTestRegion } from './region-cache.ts';

let andorra: Region;

beforeAll(async () => {
	andorra = await loadTestRegion('andorra.osm.pbf');
});

describe('contraction hierarchies against plain Dijkstra', () => {
	MODES.forEach((mode, m) => {
		it(`finds the same cost as plain Dijkstra on 1,000 seeded pairs (${mode})`, () => {
			const graph = andorra.graph;
			const fast = new HierarchyQuery(andorra.hierarchies[m], graph);
			const plain = new PlainQuery(graph);
			let connected = 0;
			const node = fc.integer({ min: 0, max: graph.junctionCount - 1 });
			fc.assert(
				fc.property(node, node, (a, b) => {
					const expected = plain.findPath(m, [{ node: a, cost: 0 }], [{ node: b, cost: 0 }]);
					const actual = fast.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }]);
					expect(actual?.cost ?? null).toBe(expected?.cost ?? null);
					if (!actual || !expected) return;
					connected++;
					// The unpacked path is a real walk from a to b whose segment costs add up to the cost (a segment
					// costs its time, or more where the mode is discouraged or may only reach a place on it).
					let at = a;
					let cost = 0;
					let length = 0;
					actual.segments.forEach((segment, i) => {
						const direction = actual.directions[i];
						expect(direction === 0 ? graph.segFrom[segment] : graph.segTo[segment]).toBe(at);
						at = direction === 0 ? graph.segTo[segment] : graph.segFrom[segment];
						expect(getSegmentTime(graph, m, segment, direction)).toBeGreaterThan(0);
						cost += getSegmentCost(graph, m, segment, direction);
						length += graph.segLength[segment];
					});
					expect(at).toBe(b);
					expect(cost).toBe(actual.cost);
					let plainLength = 0;
					for (const segment of expected.segments) plainLength += graph.segLength[segment];
					// Equal-cost alternatives may differ in length; the same segments must give the same length.
					if (expected.segments.join() === actual.segments.join()) expect(length).toBe(plainLength);
				}),
				{ seed: 42 + m, numRuns: 1000 },
			);
			// Most pairs must be connected, or the test would prove little.
			expect(connected).toBeGreaterThan(400);
		});
	});

	it('finds the same cost as plain Dijkstra for cars avoiding highways on 1,000 seeded pairs (Harrisburg)', async () => {
		// Andorra has no motorways or trunks; Harrisburg has both.
		const harrisburg = await loadTestRegion('harrisburg.osm.pbf');
		const graph = harrisburg.graph;
		const auto = MODES.indexOf('auto');
		const fast = new HierarchyQuery(harrisburg.hierarchies[AUTO_AVOIDING_HIGHWAYS], graph);
		const plain = new PlainQuery(graph);
		const node = fc.integer({ min: 0, max: graph.junctionCount - 1 });
		let differs = 0;
		fc.assert(
			fc.property(node, node, (a, b) => {
				const expected = plain.findPath(
					auto,
					[{ node: a, cost: 0 }],
					[{ node: b, cost: 0 }],
					HIGHWAY_AVOID_FACTOR,
				);
				const actual = fast.findPath([{ node: a, cost: 0 }], [{ node: b, cost: 0 }]);
				expect(actual?.cost ?? null).toBe(expected?.cost ?? null);
				const normal = plain.findPath(auto, [{ node: a, cost: 0 }], [{ node: b, cost: 0 }]);
				if (normal && actual && normal.cost !== actual.cost) differs++;
			}),
			{ seed: 45, numRuns: 1000 },
		);
		// Avoiding Harrisburg's interstates must change some answers.
		expect(differs).toBeGreaterThan(10);
	});
});
