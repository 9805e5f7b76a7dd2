// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import WorkoutImport from '../../../src/islands/workouts/WorkoutImport';
import { $session } from '../../../src/lib/auth/store';

/** A stand-in for the browser's XMLHttpRequest that the test answers by hand. */
class FakeRequest {
	static sent: FakeRequest[] = [];
	headers: Record<string, string> = {};
	url = '';
	status = 0;
	response: unknown = null;
	responseType = '';
	withCredentials = false;
	body: FormData | null = null;
	private listeners: Record<string, (() => void)[]> = {};
	upload = {
		listeners: [] as ((event: { lengthComputable: boolean; loaded: number; total: number }) => void)[],
		addEventListener(
			_type: string,
			listener: (event: { lengthComputable: boolean; loaded: number; total: number }) => void,
		) {
			this.listeners.push(listener);
		},
	};
	open(_method: string, url: string) {
		this.url = url;
	}
	setRequestHeader(name: string, value: string) {
		this.headers[name] = value;
	}
	addEventListener(type: string, listener: () => void) {
		this.listeners[type] = [...(this.listeners[type] ?? []), listener];
	}
	send(body: FormData) {
		this.body = body;
		FakeRequest.sent.push(this);
	}
	progress(loaded: number, total: number) {
		for (const listener of this.upload.listeners) listener({ lengthComputable: true, loaded, total });
	}
	answer(status: number, response: unknown) {
		this.status = status;
		this.response = response;
		for (const listener of this.listeners.load ?? []) listener();
	}
	fail() {
		for (const listener of this.listeners.error ?? []) listener();
	}
}

beforeEach(() => {
	FakeRequest.sent = [];
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user: { id: 7 } as never });
	vi.stubGlobal('XMLHttpRequest', FakeRequest);
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

const sentFileName = (request: FakeRequest) => (request.body?.get('file') as File | null | undefined)?.name;
const file = (name: string) => new File(['<gpx></gpx>'], name);

describe('WorkoutImport', () => {
	test('chosen files upload two at a time with their progress, then say how each went', async () => {
		render(<WorkoutImport />);
		fireEvent.change(screen.getByLabelText('Choose files'), {
			target: { files: [file('a.gpx'), file('b.tcx.gz'), file('c.fit'), file('photo.jpg')] },
		});
		expect(screen.getByRole('alert').textContent).toContain('photo.jpg');
		await vi.waitFor(() => expect(FakeRequest.sent).toHaveLength(2));
		const [first, second] = FakeRequest.sent;
		expect(first.url).toBe('/api/v7.1/device/file_import/');
		expect(first.headers.authorization).toBe('Bearer tok');
		expect(sentFileName(first)).toBe('a.gpx');

		const items = () => screen.getAllByTestId('upload-item');
		expect(items()[2].dataset.status).toBe('queued');
		act(() => first.progress(40, 100));
		expect(within(items()[0]).getByText('40%')).toBeTruthy();
		expect(
			(within(items()[0]).getByTestId('upload-progress') as HTMLProgressElement).getAttribute('value'),
		).toBe('40');

		act(() => first.answer(201, { id: 12, name: 'Lunch run' }));
		await vi.waitFor(() => expect(FakeRequest.sent).toHaveLength(3));
		expect(within(items()[0]).getByRole('link', { name: 'Lunch run' }).getAttribute('href')).toBe(
			'/workout/12',
		);

		act(() =>
			second.answer(409, {
				error: 'duplicate_workout',
				_links: { existing: [{ href: '/v7.1/workout/4/', id: '4' }] },
			}),
		);
		await vi.waitFor(() => expect(items()[1].dataset.status).toBe('duplicate'));
		expect(items()[1].textContent).toContain('Already imported');
		expect(within(items()[1]).getByRole('link').getAttribute('href')).toBe('/workout/4');

		act(() => FakeRequest.sent[2].fail());
		await vi.waitFor(() => expect(items()[2].dataset.status).toBe('network'));
		fireEvent.click(within(items()[2]).getByRole('button', { name: 'Try again' }));
		await vi.waitFor(() => expect(FakeRequest.sent).toHaveLength(4));
		act(() =>
			FakeRequest.sent[3].answer(422, { error: 'file_no_workout', message: 'This file has no track points' }),
		);
		await vi.waitFor(() => expect(items()[2].dataset.status).toBe('failed'));
		expect(items()[2].textContent).toContain('This file has no track points');
		expect(screen.getByRole('status').textContent).toBe('3 of 3 files done');
	});

	test('dropped files upload too', async () => {
		render(<WorkoutImport />);
		const zone = screen.getByTestId('upload-drop');
		fireEvent.dragOver(zone, { dataTransfer: { files: [] } });
		expect(zone.dataset.dragging).toBe('true');
		fireEvent.drop(zone, { dataTransfer: { files: [file('ride.fit')] } });
		await vi.waitFor(() => expect(FakeRequest.sent).toHaveLength(1));
		expect(sentFileName(FakeRequest.sent[0])).toBe('ride.fit');
	});

	test('an expired session is refreshed once and the file sent again', async () => {
		vi.stubGlobal(
			'fetch',
			async () =>
				new Response(JSON.stringify({ access_token: 'fresh', expires_in: 600, user: { id: 7 } }), {
					status: 200,
					headers: { 'content-type': 'application/json' },
				}),
		);
		render(<WorkoutImport />);
		fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file('a.gpx')] } });
		await vi.waitFor(() => expect(FakeRequest.sent).toHaveLength(1));
		act(() => FakeRequest.sent[0].answer(401, { error: 'unauthenticated' }));
		await vi.waitFor(() => expect(FakeRequest.sent).toHaveLength(2));
		expect(FakeRequest.sent[1].headers.authorization).toBe('Bearer fresh');
		act(() => FakeRequest.sent[1].answer(201, { id: 3, name: 'Walk' }));
		await vi.waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('imported'));
	});
});
