// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import ActivityTypeSelect from '../../../src/islands/workouts/ActivityTypeSelect';
import { $session } from '../../../src/lib/auth/store';
import { listActivityTypes } from '../../../src/lib/workouts/server/activity-types';
import { $activityTypes } from '../../../src/lib/workouts/store';

const type = (id: number, name: string, parent: number | null, root: number) => ({
	id,
	name,
	has_children: false,
	group: 'other',
	_links: {
		self: [{ href: `/v7.1/activity_type/${id}/`, id: String(id) }],
		...(parent ? { parent: [{ href: `/v7.1/activity_type/${parent}/`, id: String(parent) }] } : {}),
		root: [{ href: `/v7.1/activity_type/${root}/`, id: String(root) }],
	},
});
const LIST = [type(16, 'Run', null, 16), type(25, 'Treadmill Run', 16, 16), type(24, 'Hike', null, 24)];

let answers: (() => Response | Promise<Response>)[];

beforeEach(() => {
	window.localStorage.clear();
	$activityTypes.set({ status: 'idle', types: [] });
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user: { id: 7 } as never });
	answers = [];
	vi.stubGlobal('fetch', async () => {
		const next = answers.shift();
		if (!next) throw new Error('No answer prepared');
		return next();
	});
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

const ok =
	(list = LIST) =>
	() =>
		new Response(JSON.stringify({ _embedded: { activity_types: list } }), {
			status: 200,
			headers: { 'content-type': 'application/json' },
		});
/** Every type the API serves, as it serves them. */
const FULL_LIST = listActivityTypes().map((entry) =>
	type(entry.id, entry.name, entry.parent, entry.ancestors.at(-1) ?? entry.id),
);

describe('ActivityTypeSelect', () => {
	test('shows loading, then the list with Popular first', async () => {
		let release: (response: Response) => void = () => {};
		answers.push(() => new Promise((resolve) => (release = resolve)));
		render(<ActivityTypeSelect id="t" value={null} onChange={() => {}} />);
		const select = screen.getByLabelText('Activity type') as HTMLSelectElement;
		expect(select.disabled).toBe(true);
		expect(screen.getByRole('status').textContent).toBe('Loading activity types…');

		release(ok()());
		await vi.waitFor(() => expect(select.disabled).toBe(false));
		const groups = [...select.querySelectorAll('optgroup')].map((group) => group.label);
		expect(groups).toEqual(['Popular', 'Hike', 'Run']);
		expect(
			[...select.querySelectorAll('optgroup')[0].querySelectorAll('option')].map((o) => o.textContent),
		).toEqual(['Run', 'Hike']);
	});

	test('an error says so and Retry? loads again', async () => {
		answers.push(() => new Response('{}', { status: 500 }));
		answers.push(ok());
		render(<ActivityTypeSelect id="t" value={null} onChange={() => {}} />);
		const alert = await screen.findByRole('alert');
		expect(alert.textContent).toContain('Error loading activity types.');
		fireEvent.click(within(alert).getByRole('button', { name: 'Retry?' }));
		await vi.waitFor(() =>
			expect((screen.getByLabelText('Activity type') as HTMLSelectElement).disabled).toBe(false),
		);
		expect(screen.queryByRole('alert')).toBeNull();
	});

	test('typing narrows the list and choosing reports the type', async () => {
		answers.push(ok());
		const onChange = vi.fn();
		render(<ActivityTypeSelect id="t" value={null} onChange={onChange} />);
		const select = screen.getByLabelText('Activity type') as HTMLSelectElement;
		await vi.waitFor(() => expect(select.disabled).toBe(false));
		fireEvent.change(screen.getByLabelText('Find an activity'), { target: { value: 'tread' } });
		expect([...select.querySelectorAll('optgroup option')].map((o) => o.textContent)).toEqual([
			'Treadmill Run',
		]);
		expect(screen.getByRole('status').textContent).toBe('1 activity matches');
		fireEvent.change(select, { target: { value: '25' } });
		expect(onChange).toHaveBeenCalledWith(25, 'Treadmill Run');
		fireEvent.change(screen.getByLabelText('Find an activity'), { target: { value: 'curling' } });
		expect(screen.getByRole('status').textContent).toBe('No results found');
	});
	test('the whole list: each type once under its top-level type, Popular first, and a search narrows it', async () => {
		answers.push(ok(FULL_LIST));
		const onChange = vi.fn();
		render(<ActivityTypeSelect id="t" value={null} onChange={onChange} />);
		const select = screen.getByLabelText('Activity type') as HTMLSelectElement;
		await vi.waitFor(() => expect(select.disabled).toBe(false));
		const groups = [...select.querySelectorAll('optgroup')];
		expect(groups[0].label).toBe('Popular');
		const grouped = groups.slice(1).flatMap((group) => [...group.querySelectorAll('option')]);
		expect(grouped).toHaveLength(FULL_LIST.length);
		expect(new Set(grouped.map((option) => option.value)).size).toBe(FULL_LIST.length);
		const bikeRide = groups.find((group) => group.label === 'Bike Ride');
		expect([...(bikeRide?.querySelectorAll('option') ?? [])].map((option) => option.textContent)).toContain(
			'E-bike (electrically assisted) with high electronic support',
		);

		fireEvent.change(screen.getByLabelText('Find an activity'), { target: { value: 'e-bike' } });
		const found = [...select.querySelectorAll('optgroup option')].map((option) => option.textContent);
		expect(found.length).toBeGreaterThan(3);
		expect(found.every((name) => name?.toLowerCase().includes('e-bike'))).toBe(true);
		expect(screen.getByRole('status').textContent).toBe(`${found.length} activities match`);
		fireEvent.change(select, { target: { value: '216005' } });
		expect(onChange).toHaveBeenCalledWith(216005, 'E-bike (electrically assisted) for transportation');
	});

	test('as a filter it offers All Activities and No Activities first and reports them apart from types', async () => {
		answers.push(ok());
		const onChange = vi.fn();
		const onFilter = vi.fn();
		const { rerender } = render(
			<ActivityTypeSelect
				id="f"
				value={null}
				onChange={onChange}
				filter={{ value: 'all', onChange: onFilter }}
			/>,
		);
		const select = screen.getByLabelText('Activity type') as HTMLSelectElement;
		await vi.waitFor(() => expect(select.disabled).toBe(false));
		const labels = [...select.options].map((option) => option.textContent);
		expect(labels.slice(1, 3)).toEqual(['All Activities', 'No Activities']);
		expect(labels[3]).toBe('Run');
		expect(select.value).toBe('all');
		fireEvent.change(select, { target: { value: 'none' } });
		expect(onFilter).toHaveBeenCalledWith('none');
		fireEvent.change(select, { target: { value: '24' } });
		expect(onChange).toHaveBeenCalledWith(24, 'Hike');
		expect(onFilter).toHaveBeenCalledTimes(1);
		rerender(
			<ActivityTypeSelect
				id="f"
				value={24}
				onChange={onChange}
				filter={{ value: null, onChange: onFilter }}
			/>,
		);
		expect(select.value).toBe('24');

		cleanup();
		render(<ActivityTypeSelect id="g" value={null} onChange={onChange} />);
		const plain = screen.getByLabelText('Activity type') as HTMLSelectElement;
		expect([...plain.options].map((option) => option.textContent)).not.toContain('All Activities');
	});
});
