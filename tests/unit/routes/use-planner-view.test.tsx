// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { act, type ReactNode } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { usePlannerView } from '../../../src/islands/routes/use-planner-view';
import { addWaypoint, type LegOptions } from '../../../src/lib/routes/planner';
import {
	createPlannerStore,
	type PlannerStore,
	type RouteFetch,
} from '../../../src/lib/routes/planner-store';
import { encodePolyline } from '../../../src/lib/routing/polyline';

const STRAIGHT: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };
const ROADS: LegOptions = { ...STRAIGHT, followRoads: true };
const A = { lat: 40.27, lng: -76.88 };
const B = { lat: 40.271, lng: -76.879 };

function Summary({ store }: { store: PlannerStore }) {
	const { history, legs } = usePlannerView(store);
	return (
		<p data-testid="summary">
			{history.present.waypoints.length} points, {legs.length} gaps
		</p>
	);
}

/** The microtasks queued by a change, and theirs: what runs before the browser may paint. */
async function microtasks(): Promise<void> {
	for (let i = 0; i < 10; i++) await Promise.resolve();
}

const summary = () => screen.getByTestId('summary').textContent;

const setActEnvironment = (on: boolean) => {
	(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = on;
};

/** Mounted and its first effects run (inside act); what follows is rendered as a browser renders it. */
async function mount(ui: ReactNode): Promise<void> {
	setActEnvironment(true);
	await act(async () => {
		render(ui);
	});
	setActEnvironment(false);
}

describe("the planner's panels", () => {
	// Updates here are rendered as a browser renders them, not inside act(), which would flush every one.
	afterEach(() => {
		setActEnvironment(true);
		cleanup();
	});

	test("show the member's own edit before the browser can paint, each panel in the same render", async () => {
		const store = createPlannerStore({ warn: () => {} });
		await mount(
			<>
				<Summary store={store} />
				<Summary store={store} />
			</>,
		);
		store.edit((s) => addWaypoint(s, A, STRAIGHT));
		store.edit((s) => addWaypoint(s, B, STRAIGHT));
		await microtasks();
		expect(screen.getAllByTestId('summary').map((p) => p.textContent)).toEqual([
			'2 points, 1 gaps',
			'2 points, 1 gaps',
		]);
		store.undo();
		await microtasks();
		expect(screen.getAllByTestId('summary').map((p) => p.textContent)).toEqual([
			'1 points, 0 gaps',
			'1 points, 0 gaps',
		]);
	});

	test('show a gap completed by its routing answer after the line, not before the next paint', async () => {
		let reply: (response: Response) => void = () => {};
		const fetch: RouteFetch = () => new Promise<Response>((resolve) => (reply = resolve));
		const store = createPlannerStore({ fetch, warn: () => {}, panelHoldMs: 60_000 });
		await mount(<Summary store={store} />);
		store.edit((s) => addWaypoint(s, A, ROADS));
		await microtasks();
		expect(summary()).toBe('1 points, 0 gaps');
		const done = store.edit((s) => addWaypoint(s, B, ROADS));
		await microtasks();
		// Waiting for the answer: the map has the straight gap, the panels do not yet.
		expect(store.$legs.get()).toHaveLength(1);
		expect(summary()).toBe('1 points, 0 gaps');
		const shape = encodePolyline(
			[
				[A.lat, A.lng],
				[40.2705, -76.8795],
				[B.lat, B.lng],
			],
			6,
		);
		reply(
			new Response(JSON.stringify({ trip: { units: 'kilometers', legs: [{ shape, maneuvers: [] }] } }), {
				headers: { 'content-type': 'application/json' },
			}),
		);
		await done;
		await microtasks();
		expect(store.$legs.get()[0].status).toBe('routed');
		// Rendered as a transition, once the browser has had its turn.
		expect(summary()).toBe('1 points, 0 gaps');
		await new Promise((resolve) => setTimeout(resolve, 50));
		expect(summary()).toBe('2 points, 1 gaps');
	});
});
