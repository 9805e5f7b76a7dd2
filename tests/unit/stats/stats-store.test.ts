// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { $session } from '../../../src/lib/auth/store';
import { $weekStartSave, saveWeekStartDay } from '../../../src/lib/stats/store';

const json = (status: number, body: unknown) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

let requests: { url: string; method: string; body: unknown }[];
let answer: (body: { week_start_day: number }) => Response | Promise<Response>;

beforeEach(() => {
	requests = [];
	$weekStartSave.set({ status: 'idle' });
	$session.set({
		accessToken: 'tok',
		expiresAt: Date.now() + 600_000,
		user: { id: 7, week_start_day: 1 } as never,
	});
	vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
		const request = input instanceof Request ? input : null;
		const url = request ? request.url : String(input);
		const method = request?.method ?? init?.method ?? 'GET';
		const text = request ? await request.text() : String(init?.body ?? '');
		const body = text ? JSON.parse(text) : null;
		requests.push({ url, method, body });
		return answer(body);
	});
});
afterEach(() => {
	vi.unstubAllGlobals();
});

describe('saving the week start day from the stats page', () => {
	test('puts the day on the member through the user API and keeps the saved member in the session', async () => {
		answer = (body) => json(200, { id: 7, week_start_day: body.week_start_day });
		const saving = saveWeekStartDay(7, 0);
		expect($weekStartSave.get()).toEqual({ status: 'saving', day: 0 });
		expect(await saving).toBe(true);
		expect(requests).toHaveLength(1);
		expect(requests[0]).toMatchObject({ method: 'PUT', body: { week_start_day: 0 } });
		expect(new URL(requests[0].url, 'http://localhost').pathname).toBe('/api/v7.1/user/7/');
		expect($weekStartSave.get()).toEqual({ status: 'saved', day: 0 });
		expect($session.get()?.user.week_start_day).toBe(0);
	});

	test('a refusal says the day was not saved, with the API’s reason, and what still follows it', async () => {
		answer = () =>
			json(400, {
				error: 'validation_failed',
				message: 'The request is not valid',
				_diagnostics: { validation_failures: [{ week_start_day: ['week_start_day is a day number'] }] },
			});
		expect(await saveWeekStartDay(7, 6)).toBe(false);
		const state = $weekStartSave.get();
		expect(state.status).toBe('failed');
		expect(state.status === 'failed' && state.message).toBe(
			'Saturday could not be saved as your week start (The request is not valid): goals and the calendar keep the day they had, and only these stats start on Saturday. Pick it again to retry.',
		);
		expect($session.get()?.user.week_start_day).toBe(1);
	});

	test('picks are saved one at a time in order, the last one stays, and one replaced before its turn is not sent', async () => {
		let release: () => void = () => {};
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		answer = async (body) => {
			if (body.week_start_day === 3) await held;
			return json(200, { id: 7, week_start_day: body.week_start_day });
		};
		const wednesday = saveWeekStartDay(7, 3);
		await vi.waitFor(() => expect(requests).toHaveLength(1));
		// Two more picks while Wednesday is on its way: Friday is replaced before its turn.
		const friday = saveWeekStartDay(7, 5);
		const sunday = saveWeekStartDay(7, 0);
		expect(requests).toHaveLength(1);
		release();
		expect(await Promise.all([wednesday, friday, sunday])).toEqual([true, false, true]);
		expect(requests.map((request) => (request.body as { week_start_day: number }).week_start_day)).toEqual([
			3, 0,
		]);
		expect($weekStartSave.get()).toEqual({ status: 'saved', day: 0 });
		expect($session.get()?.user.week_start_day).toBe(0);
	});
});
