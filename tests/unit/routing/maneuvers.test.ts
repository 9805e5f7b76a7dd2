import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import polyline from '@mapbox/polyline';
import * as v from 'valibot';
import { beforeAll, describe, expect, it } from 'vitest';
import { RouteResponseSchema } from '../../../src/lib/routing/contract.ts';
import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { readOsmXmlText } from '../../../src/lib/routing/osm/read.ts';
import { buildRegion } from '../../../src/lib/routing/region.ts';

const WEST = { lat: 45.0, lon: 7.0 };
const EAST = { lat: 45.0, lon: 7.004 };
const NORTH = { lat: 45.002, lon: 7.002 };
const SOUTH = { lat: 44.998, lon: 7.002 };
const PATH_END = { lat: 45.001, lon: 7.0055 };

let engine: RoutingEngine;

beforeAll(async () => {
	const xml = readFileSync(join(import.meta.dirname, '../../fixtures/routing/crossroads.osm'), 'utf8');
	engine = new RoutingEngine({
		regions: [buildRegion('crossroads', await readOsmXmlText(xml))],
		maxSnapDistance: 100,
	});
});

function getInstructions(from: typeof WEST, to: typeof WEST, costing: 'pedestrian' | 'bicycle' | 'auto') {
	const response = v.parse(RouteResponseSchema, engine.route({ locations: [from, to], costing }));
	return response.trip.legs[0].maneuvers.map((maneuver) => maneuver.instruction);
}

describe('maneuvers on a hand-written crossroads', () => {
	it('turns left and right by the turn angle, naming the streets', () => {
		expect(getInstructions(WEST, NORTH, 'auto')).toEqual([
			'Drive east on Main Street.',
			'Turn left onto Second Street.',
			'You have arrived at your destination.',
		]);
		expect(getInstructions(WEST, SOUTH, 'bicycle')).toEqual([
			'Bike east on Main Street.',
			'Turn right onto Second Street.',
			'You have arrived at your destination.',
		]);
	});

	it('keeps one maneuver along one street across a crossroads', () => {
		expect(getInstructions(WEST, EAST, 'pedestrian')).toEqual([
			'Walk east on Main Street.',
			'You have arrived at your destination.',
		]);
		expect(getInstructions(NORTH, SOUTH, 'auto')).toEqual([
			'Drive south on Second Street.',
			'You have arrived at your destination.',
		]);
	});

	it('calls an unnamed footway by its kind', () => {
		const instructions = getInstructions(WEST, PATH_END, 'pedestrian');
		expect(instructions[0]).toBe('Walk east on Main Street.');
		expect(instructions[1]).toMatch(/^(Bear|Turn) left onto the footway\.$/);
	});

	it('never routes over a way closed with access=no', () => {
		// Old Lane would be the short cut from WEST to SOUTH.
		const response = engine.route({ locations: [WEST, SOUTH], costing: 'pedestrian' });
		const points = polyline.decode(response.trip.legs[0].shape, 6);
		expect(points.some(([lat, lon]) => lon < 7.0015 && lat < 44.9995)).toBe(false);
		expect(response.trip.summary.length).toBeGreaterThan(0.35);
	});

	it('measures maneuver lengths that add up to the leg and span its shape', () => {
		const response = engine.route({ locations: [WEST, NORTH], costing: 'auto' });
		const leg = response.trip.legs[0];
		const points = polyline.decode(leg.shape, 6);
		expect(leg.maneuvers[0].begin_shape_index).toBe(0);
		expect(leg.maneuvers.at(-1)?.end_shape_index).toBe(points.length - 1);
		expect(leg.maneuvers[1].begin_shape_index).toBe(leg.maneuvers[0].end_shape_index);
		// 0.002° east at 45° N ≈ 157 m, then 0.002° north ≈ 222 m.
		expect(leg.maneuvers[0].length).toBeCloseTo(0.157, 2);
		expect(leg.maneuvers[1].length).toBeCloseTo(0.222, 2);
		expect(leg.summary.length).toBeCloseTo(0.379, 2);
	});
});

describe('maneuvers through a hand-written roundabout', () => {
	let roundabout: RoutingEngine;
	const WEST_END = { lat: 45.01, lon: 7.0052 };
	beforeAll(async () => {
		const xml = readFileSync(join(import.meta.dirname, '../../fixtures/routing/roundabout.osm'), 'utf8');
		roundabout = new RoutingEngine({ regions: [buildRegion('roundabout', await readOsmXmlText(xml))] });
	});

	it('counts the exits passed, in the direction of travel', () => {
		const cases: [{ lat: number; lon: number }, string, string][] = [
			[{ lat: 45.0052, lon: 7.01 }, '1st', 'South Road'],
			[{ lat: 45.01, lon: 7.0148 }, '2nd', 'East Road'],
			[{ lat: 45.0148, lon: 7.01 }, '3rd', 'North Road'],
		];
		for (const [to, ordinal, road] of cases) {
			const response = roundabout.route({ locations: [WEST_END, to], costing: 'auto' });
			const maneuvers = response.trip.legs[0].maneuvers;
			expect(maneuvers.map((m) => m.instruction)).toEqual([
				'Drive east on West Road.',
				`Enter the roundabout and take the ${ordinal} exit onto ${road}.`,
				`Exit the roundabout onto ${road}.`,
				'You have arrived at your destination.',
			]);
			expect(maneuvers.map((m) => m.type)).toEqual([1, 26, 27, 4]);
		}
	});
});

describe('maneuvers with stops on the way and ways without names', () => {
	let engine: RoutingEngine;
	const FRONT_WEST = { lat: 45.0, lon: 7.0 };
	const FRONT_EAST_OF_MIDDLE = { lat: 45.0, lon: 7.003 };
	const PA_230_NORTH = { lat: 45.002, lon: 7.004 };
	const STEPS_END = { lat: 44.996, lon: 7.006 };
	beforeAll(async () => {
		const xml = readFileSync(join(import.meta.dirname, '../../fixtures/routing/waypoints.osm'), 'utf8');
		engine = new RoutingEngine({ regions: [buildRegion('waypoints', await readOsmXmlText(xml))] });
	});

	function getLegInstructions(locations: (typeof FRONT_WEST)[], costing: 'pedestrian' | 'auto') {
		const response = v.parse(RouteResponseSchema, engine.route({ locations, costing }));
		return response.trip.legs.map((leg) => leg.maneuvers.map((maneuver) => maneuver.instruction));
	}

	it('arrives only at the last waypoint and goes on from a stop on the way', () => {
		expect(getLegInstructions([FRONT_WEST, FRONT_EAST_OF_MIDDLE, PA_230_NORTH], 'auto')).toEqual([
			['Drive east on Front Street.'],
			['Continue on Front Street.', 'Turn left onto PA 230.', 'You have arrived at your destination.'],
		]);
	});

	it('turns from the way the previous leg arrived on, even when the stop is a corner', () => {
		const [, second] = getLegInstructions([FRONT_WEST, { lat: 45.0, lon: 7.004 }, PA_230_NORTH], 'auto');
		expect(second).toEqual(['Turn left onto PA 230.', 'You have arrived at your destination.']);
	});

	it('names a way by its ref, else by its kind', () => {
		expect(getLegInstructions([FRONT_WEST, PA_230_NORTH], 'auto')).toEqual([
			['Drive east on Front Street.', 'Turn left onto PA 230.', 'You have arrived at your destination.'],
		]);
		expect(getLegInstructions([FRONT_WEST, STEPS_END], 'pedestrian')).toEqual([
			[
				'Walk east on Front Street.',
				'Turn right onto the footway.',
				'Turn left onto the cycleway.',
				'Turn right onto the track.',
				'Turn left onto the steps.',
				'You have arrived at your destination.',
			],
		]);
	});
});
