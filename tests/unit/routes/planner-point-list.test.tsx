// @vitest-environment happy-dom
import { cleanup, render, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import {
	OVERSCAN_ROWS,
	PlannerPointList,
	rowWindow,
	WINDOW_FROM_POINTS,
} from '../../../src/islands/routes/PlannerPointList';
import { EMPTY_PLANNER, type LegOptions, planLegs, restoreState } from '../../../src/lib/routes/planner';
import { createPlannerStore } from '../../../src/lib/routes/planner-store';

const STRAIGHT: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };

afterEach(cleanup);

function route(count: number) {
	const state =
		restoreState({
			waypoints: Array.from({ length: count }, (_, i) => ({ lat: 40.26 + i * 1e-4, lng: -76.88 })),
			legs: Array.from({ length: Math.max(0, count - 1) }, () => STRAIGHT),
		}) ?? EMPTY_PLANNER;
	const store = createPlannerStore({ warn: () => {} });
	void store.reset(state);
	return { store, state, legs: planLegs(state, new Map()) };
}

describe('rowWindow', () => {
	const view = { count: 1000, scrollTop: 0, viewHeight: 400, rowHeight: 50, focused: null };

	test('draws the rows in view and a margin each side', () => {
		expect(rowWindow(view)).toEqual({ first: 0, last: 8 + OVERSCAN_ROWS });
		expect(rowWindow({ ...view, scrollTop: 25_000 })).toEqual({
			first: 500 - OVERSCAN_ROWS,
			last: 508 + OVERSCAN_ROWS,
		});
		expect(rowWindow({ ...view, scrollTop: 49_600 })).toEqual({ first: 992 - OVERSCAN_ROWS, last: 1000 });
	});

	test('keeps the focused row and its neighbours drawn wherever the list is scrolled', () => {
		const far = rowWindow({ ...view, scrollTop: 25_000, focused: 3 });
		expect(far.first).toBe(0);
		expect(far.last).toBe(508 + OVERSCAN_ROWS);
		// Focus on the last row drawn: the next rows are drawn before the list scrolls to them.
		expect(rowWindow({ ...view, focused: 15 }).last).toBe(16 + OVERSCAN_ROWS);
	});

	test('draws a first screenful before the list is measured', () => {
		const first = rowWindow({ ...view, rowHeight: 0, viewHeight: 0 });
		expect(first.first).toBe(0);
		expect(first.last).toBeGreaterThan(10);
		expect(first.last).toBeLessThan(100);
	});
});

describe('PlannerPointList', () => {
	test('a short route lists every point, numbered by the list itself', () => {
		const { store, state, legs } = route(WINDOW_FROM_POINTS);
		render(
			<PlannerPointList
				store={store}
				waypoints={state.waypoints}
				legs={legs}
				streets={new Map()}
				unit="km"
				labelledBy="points"
			/>,
		);
		const items = within(screen.getByTestId('planner-points')).getAllByRole('listitem');
		expect(items).toHaveLength(WINDOW_FROM_POINTS);
		expect(items[0].getAttribute('aria-posinset')).toBeNull();
		expect(screen.getByRole('button', { name: `Remove point ${WINDOW_FROM_POINTS}` })).toBeTruthy();
	});

	test('a long route draws only some rows, each saying its place in the whole list', () => {
		const { store, state, legs } = route(1000);
		render(
			<PlannerPointList
				store={store}
				waypoints={state.waypoints}
				legs={legs}
				streets={new Map()}
				unit="km"
				labelledBy="points"
			/>,
		);
		const list = screen.getByTestId('planner-points');
		const items = within(list).getAllByRole('listitem');
		expect(items.length).toBeGreaterThan(0);
		expect(items.length).toBeLessThan(100);
		expect(items[0].getAttribute('aria-posinset')).toBe('1');
		expect(items[0].getAttribute('aria-setsize')).toBe('1000');
		expect(list.getAttribute('start')).toBe('1');
		expect(screen.queryByRole('button', { name: 'Remove point 1000' })).toBeNull();
		expect(within(items[1]).getByTestId('planner-gap').textContent).toMatch(/^To point 3: straight line/);
	});
});
