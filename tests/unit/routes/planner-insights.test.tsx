// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import PlannerInsights from '../../../src/islands/routes/PlannerInsights';
import { addWaypoint, type LegOptions } from '../../../src/lib/routes/planner';
import { type PlannerFeatures, plannerFeaturesFor } from '../../../src/lib/routes/planner-insights';
import { createPlannerStore } from '../../../src/lib/routes/planner-store';

const STRAIGHT: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };
const A = { lat: 40.27, lng: -76.88 };
const B = { lat: 40.275, lng: -76.87 };
const MVP = plannerFeaturesFor({ isPremium: true });
const FREE = plannerFeaturesFor({ isPremium: false });

let heightRequests: number;

beforeEach(() => {
	heightRequests = 0;
	// The height service with no tile here: every point answers without a height.
	vi.stubGlobal('fetch', async (_input: RequestInfo | URL, init?: RequestInit) => {
		heightRequests++;
		const { shape } = JSON.parse(String(init?.body)) as { shape: unknown[] };
		return Response.json({ height: shape.map(() => null) });
	});
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

async function drawn(features: PlannerFeatures = MVP) {
	const store = createPlannerStore({ warn: () => {} });
	await store.edit((s) => addWaypoint(s, A, STRAIGHT));
	await store.edit((s) => addWaypoint(s, B, STRAIGHT));
	render(<PlannerInsights store={store} map={null} unit="km" features={features} />);
	return store;
}

describe('planner insights', () => {
	test('a straight line counts as unknown surface and way, and the missing heights are said plainly', async () => {
		await drawn();
		const surface = screen.getByRole('table', { name: 'Surface' });
		expect(within(surface).getByRole('row', { name: /Unknown/ }).textContent).toMatch(/Unknown.*km100\.0%/);
		expect(screen.getByRole('img', { name: 'Surface: Unknown 100%' })).toBeTruthy();
		expect(
			await screen.findByText('No heights are known along this route.', {}, { timeout: 3000 }),
		).toBeTruthy();
		expect(heightRequests).toBe(1);
		expect(screen.getByRole('link', { name: 'How is climb measured?' }).getAttribute('href')).toBe(
			'/routes/climb_information/',
		);
	});

	test('a member without MVP sees neither the loop form nor the breakdown, and is told where to get them', async () => {
		expect(MVP).toEqual({ roundTrip: true, surfaceBreakdown: true });
		expect(plannerFeaturesFor(null)).toEqual(FREE);
		await drawn(FREE);
		const loops = screen.getByTestId('planner-loops-locked');
		expect(loops.textContent).toContain('Round-trip suggestions are part of MVP.');
		expect(within(loops).getByRole('link', { name: 'Get MVP' }).getAttribute('href')).toBe(
			'/premium/checkout',
		);
		expect(screen.queryByRole('button', { name: 'Suggest a loop' })).toBeNull();
		const breakdown = screen.getByTestId('planner-breakdown-locked');
		expect(breakdown.textContent).toContain('The surface breakdown is part of MVP.');
		expect(within(breakdown).getByRole('link', { name: 'Get MVP' }).getAttribute('href')).toBe(
			'/premium/checkout',
		);
		expect(screen.queryByRole('table', { name: 'Surface' })).toBeNull();
		expect(screen.queryByRole('img', { name: /^Surface: / })).toBeNull();
		// The rest of the planner's insights stay everyone's.
		expect(screen.getByTestId('planner-notes')).toBeTruthy();
		expect(
			await screen.findByText('No heights are known along this route.', {}, { timeout: 3000 }),
		).toBeTruthy();
	});

	test('a note is checked, added at a point, and undone like any edit', async () => {
		const store = await drawn();
		const notes = screen.getByTestId('planner-notes');
		const text = within(notes).getByLabelText('Add a note');
		fireEvent.change(text, { target: { value: 'tab\there' } });
		fireEvent.click(within(notes).getByRole('button', { name: 'Add note' }));
		expect(within(notes).getByRole('alert').textContent).toBe(
			'The note holds a character that is not allowed.',
		);
		expect(store.$history.get().present.notes).toBeUndefined();

		fireEvent.change(text, { target: { value: 'Bench in the shade' } });
		fireEvent.change(within(notes).getByLabelText('At'), { target: { value: '1' } });
		fireEvent.click(within(notes).getByRole('button', { name: 'Add note' }));
		expect(store.$history.get().present.notes).toEqual([{ ...B, text: 'Bench in the shade' }]);
		// The panels show the route a moment after the store has it.
		expect((await within(notes).findAllByRole('listitem')).map((item) => item.textContent)).toEqual([
			'Bench in the shade ✕',
		]);
		expect(within(notes).queryByRole('alert')).toBeNull();

		await act(() => store.undo());
		await waitFor(() => expect(within(notes).queryAllByRole('listitem')).toHaveLength(0));
	});
});
