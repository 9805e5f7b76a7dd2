// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import WorkoutLog from '../../../src/islands/workouts/WorkoutLog';
import { $session } from '../../../src/lib/auth/store';
import { $activityTypes, saveWorkout } from '../../../src/lib/workouts/store';

const json = (status: number, body: unknown) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const RUN = {
	id: 16,
	name: 'Run',
	has_children: false,
	group: 'run',
	_links: {
		self: [{ href: '/v7.1/activity_type/16/', id: '16' }],
		root: [{ href: '/v7.1/activity_type/16/', id: '16' }],
	},
};

let requests: { url: URL; method: string; body: unknown }[];
let answer: (url: URL, method: string) => Response | Promise<Response>;

beforeEach(() => {
	requests = [];
	window.localStorage.clear();
	$activityTypes.set({ status: 'idle', types: [] });
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user: { id: 7 } as never });
	vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
		const request = input instanceof Request ? input : null;
		const url = new URL(request ? request.url : String(input), 'http://localhost');
		const method = request?.method ?? init?.method ?? 'GET';
		const text = request ? await request.text() : typeof init?.body === 'string' ? init.body : '';
		requests.push({ url, method, body: text ? JSON.parse(text) : null });
		return answer(url, method);
	});
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
	vi.useRealTimers();
});

const props = {
	unit: 'km' as const,
	timeZone: 'UTC',
	today: '2026-05-01',
	nowTime: '09:00',
	defaultPrivacy: 1,
};

describe('WorkoutLog', () => {
	test('estimates calories once the activity and duration are known, until the member types their own', async () => {
		answer = (url) =>
			url.pathname.includes('activity_type')
				? json(200, { _embedded: { activity_types: [RUN] } })
				: json(200, { calories: 412.4 });
		render(<WorkoutLog {...props} />);
		const select = screen.getByLabelText('Activity type') as HTMLSelectElement;
		await vi.waitFor(() => expect(select.disabled).toBe(false));
		expect((screen.getByLabelText('Who can see it') as HTMLSelectElement).value).toBe('1');
		fireEvent.change(select, { target: { value: '16' } });
		fireEvent.change(screen.getByLabelText('Minutes'), { target: { value: '40' } });
		fireEvent.change(screen.getByLabelText('Minutes'), { target: { value: '45' } });
		await vi.waitFor(() =>
			expect((screen.getByLabelText('Calories (kcal)') as HTMLInputElement).value).toBe('412'),
		);
		const estimates = requests.filter((request) => request.url.pathname.includes('calculate/calories'));
		// Debounced: one request, for the last duration typed.
		expect(estimates).toHaveLength(1);
		expect(estimates[0].url.searchParams.get('duration')).toBe('2700');
		expect(estimates[0].url.searchParams.get('activity_type')).toBe('16');

		fireEvent.change(screen.getByLabelText('Calories (kcal)'), { target: { value: '500' } });
		fireEvent.change(screen.getByLabelText('Minutes'), { target: { value: '50' } });
		await new Promise((resolve) => setTimeout(resolve, 700));
		expect((screen.getByLabelText('Calories (kcal)') as HTMLInputElement).value).toBe('500');
		expect(screen.getByTestId('calories-hint').textContent).toBe('Your own figure.');
	});

	test('a refused save shows why and keeps everything typed', async () => {
		answer = (url, method) => {
			if (url.pathname.includes('activity_type')) return json(200, { _embedded: { activity_types: [RUN] } });
			if (method === 'POST')
				return json(400, {
					error: 'validation_error',
					message: 'Some fields are not right.',
					fields: [{ field: 'name', message: 'The name holds a character we cannot store.' }],
				});
			return json(200, { calories: 300 });
		};
		render(<WorkoutLog {...props} />);
		const select = screen.getByLabelText('Activity type') as HTMLSelectElement;
		await vi.waitFor(() => expect(select.disabled).toBe(false));
		fireEvent.change(select, { target: { value: '16' } });
		fireEvent.change(screen.getByLabelText('Hours'), { target: { value: '1' } });
		fireEvent.change(screen.getByLabelText('Name'), { target: { value: 'Evening run' } });
		fireEvent.change(screen.getByLabelText('Distance (km)'), { target: { value: '10.5' } });
		fireEvent.click(screen.getByRole('button', { name: 'Save workout' }));
		const alert = await screen.findByTestId('workout-save-error');
		expect(alert.textContent).toContain('The name holds a character we cannot store.');
		expect((screen.getByLabelText('Name') as HTMLInputElement).value).toBe('Evening run');
		const post = requests.find((request) => request.method === 'POST');
		expect(post?.body).toMatchObject({
			name: 'Evening run',
			activity_type: 16,
			privacy: 1,
			start_datetime: '2026-05-01T09:00:00+00:00',
			start_locale_timezone: 'UTC',
			aggregates: { elapsed_time_total: 3600, active_time_total: 3600, distance_total: 10500 },
		});
	});
});

describe('saveWorkout', () => {
	const body = {
		name: 'Run',
		start_datetime: '2026-05-01T07:00:00+00:00',
		start_locale_timezone: 'UTC',
		activity_type: 16,
		privacy: 0,
		notes: '',
		aggregates: { elapsed_time_total: 60 },
	};

	test('a refusal with diagnostics is a validation error naming each field', async () => {
		answer = () =>
			json(400, {
				error: 'validation_error',
				message: 'Invalid request',
				_diagnostics: { validation_failures: [{ start_datetime: ['start_datetime is not a real date.'] }] },
			});
		expect(await saveWorkout(body)).toEqual({
			ok: false,
			code: 'validation_error',
			message: 'Invalid request',
			fields: ['start_datetime: start_datetime is not a real date.'],
		});
	});

	test('another failure is an unknown error; no connection says the workout is not saved yet', async () => {
		answer = () => json(500, { error: 'internal', message: 'Something went wrong on our side' });
		expect(await saveWorkout(body)).toMatchObject({ ok: false, code: 'unknown_error' });
		answer = () => {
			throw new TypeError('Failed to fetch');
		};
		expect(await saveWorkout(body)).toMatchObject({ ok: false, code: 'network_error' });
	});

	test('a saved workout gives its id', async () => {
		answer = () => json(201, { id: 31 });
		expect(await saveWorkout(body)).toEqual({ ok: true, id: 31 });
	});
});
