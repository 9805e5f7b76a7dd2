// @vitest-environment happy-dom
import L from 'leaflet';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { PlannerLayers } from '../../../src/islands/routes/planner-layers';
import {
	addWaypoint,
	EMPTY_PLANNER,
	type LegOptions,
	moveWaypoint,
	type PlannerState,
	planLegs,
	removeWaypoint,
} from '../../../src/lib/routes/planner';

const straight: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };

function route(count: number): PlannerState {
	let state = EMPTY_PLANNER;
	for (let i = 0; i < count; i++)
		state = addWaypoint(state, { lat: 40.26 + i * 0.001, lng: -76.88 }, straight);
	return state;
}

let element: HTMLDivElement;
let map: L.Map;
let moves: { index: number; lat: number }[];
let inserts: { index: number; lat: number }[];
let layers: PlannerLayers;

beforeEach(() => {
	element = document.createElement('div');
	document.body.append(element);
	map = L.map(element).setView([40.27, -76.88], 14);
	moves = [];
	inserts = [];
	layers = new PlannerLayers(
		map,
		(index, point) => moves.push({ index, lat: point.lat }),
		(index, point) => inserts.push({ index, lat: point.lat }),
	);
});

afterEach(() => {
	map.remove();
	element.remove();
});

const pins = () => [...element.querySelectorAll<HTMLElement>('.planner-pin')];
const lines = () => [...element.querySelectorAll('path.planner-leg')];

describe('the planner route on the map', () => {
	it('draws a numbered pin per waypoint and a line per gap', () => {
		const state = route(4);
		layers.update(planLegs(state, new Map()), state.waypoints);
		expect(pins().map((pin) => pin.textContent)).toEqual(['1', '2', '3', '4']);
		expect(lines()).toHaveLength(3);
	});

	it('keeps the pins and lines an edit did not touch, so long routes stay quick to edit', () => {
		const before = route(50);
		layers.update(planLegs(before, new Map()), before.waypoints);
		const pinsBefore = pins();
		const linesBefore = lines();
		const after = moveWaypoint(before, 20, { lat: 40.3, lng: -76.9 });
		layers.update(planLegs(after, new Map()), after.waypoints);
		const pinsAfter = pins();
		const linesAfter = lines();
		expect(pinsAfter.filter((pin) => pinsBefore.includes(pin))).toHaveLength(50);
		// The two gaps meeting at the moved point are drawn anew; the other 47 are the same elements.
		expect(linesAfter.filter((line) => linesBefore.includes(line))).toHaveLength(47);
		expect(linesAfter).toHaveLength(49);
	});

	it('renumbers the pins after a removed point and reports a drag by the pin’s current place', () => {
		const before = route(5);
		layers.update(planLegs(before, new Map()), before.waypoints);
		const after = removeWaypoint(before, 1);
		layers.update(planLegs(after, new Map()), after.waypoints);
		expect(pins().map((pin) => pin.textContent)).toEqual(['1', '2', '3', '4']);
		expect(element.querySelectorAll('[title="Point 5"]')).toHaveLength(0);
		const marker = Object.values((map as unknown as { _layers: Record<string, L.Layer> })._layers).find(
			(layer): layer is L.Marker =>
				layer instanceof L.Marker && layer.getLatLng().lat === after.waypoints[2].lat,
		);
		marker?.fire('dragend');
		expect(moves).toEqual([{ index: 2, lat: after.waypoints[2].lat }]);
	});

	it('adds a point where a dragged line is let go, after the gap it was pressed on', () => {
		const state = route(4);
		layers.update(planLegs(state, new Map()), state.waypoints);
		const third = lines()[2];
		// As a browser sends them: each pointer event followed by its mouse event.
		const press = (type: 'down' | 'move' | 'up', x: number, y: number) => {
			const target = type === 'down' ? third : element;
			for (const kind of [`pointer${type}`, `mouse${type}`])
				target.dispatchEvent(new MouseEvent(kind, { bubbles: true, clientX: x, clientY: y, button: 0 }));
		};
		press('down', 100, 100);
		press('move', 140, 120);
		press('up', 140, 120);
		expect(inserts).toHaveLength(1);
		expect(inserts[0].index).toBe(3);
	});

	it('after edits that keep the number of points, the lines and pins stay in step with the route', () => {
		const first = route(4);
		const cache: Parameters<typeof planLegs>[3] = new WeakMap();
		const draw = (state: PlannerState) =>
			layers.update(planLegs(state, new Map(), new Set(), cache), state.waypoints);
		draw(first);
		const moved = moveWaypoint(first, 1, { lat: 40.2605, lng: -76.87 });
		draw(moved);
		// Moved back, as an undo does: the first drawing's gaps are drawn again.
		draw(first);
		draw(moved);
		expect(lines()).toHaveLength(3);
		expect(pins().map((pin) => pin.textContent)).toEqual(['1', '2', '3', '4']);
		const second = Object.values((map as unknown as { _layers: Record<string, L.Layer> })._layers).find(
			(layer): layer is L.Marker => layer instanceof L.Marker && layer.getLatLng().lat === 40.2605,
		);
		expect(second?.getLatLng().lng).toBe(-76.87);
		second?.fire('dragend');
		expect(moves).toEqual([{ index: 1, lat: 40.2605 }]);
		// The line of the third gap, wherever it sits among the drawn paths: a drag on it adds point 4.
		const third = Object.values((map as unknown as { _layers: Record<string, L.Layer> })._layers)
			.filter((layer): layer is L.Polyline => layer instanceof L.Polyline)
			.find((line) => (line.getLatLngs()[0] as L.LatLng).lat === moved.waypoints[2].lat)
			?.getElement() as Element;
		for (const [kind, target, x, y] of [
			['pointerdown', third, 100, 100],
			['mousedown', third, 100, 100],
			['pointermove', element, 140, 120],
			['mousemove', element, 140, 120],
			['pointerup', element, 140, 120],
			['mouseup', element, 140, 120],
		] as const)
			target.dispatchEvent(new MouseEvent(kind, { bubbles: true, clientX: x, clientY: y, button: 0 }));
		expect(inserts.map((insert) => insert.index)).toEqual([3]);
	});

	it('takes everything off the map when removed', () => {
		const state = route(3);
		layers.update(planLegs(state, new Map()), state.waypoints);
		layers.remove();
		expect(pins()).toHaveLength(0);
		expect(lines()).toHaveLength(0);
	});
});
