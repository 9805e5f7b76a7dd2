// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import WorkoutImport from '../../../src/islands/workouts/WorkoutImport';
import { $session } from '../../../src/lib/auth/store';
import { UPLOAD_RETRY_DELAYS_MS } from '../../../src/lib/workouts/store';

type ProgressEvent = { lengthComputable: boolean; loaded: number; total: number };

/** A stand-in for the browser's XMLHttpRequest that the test answers by hand, as tus-js-client drives it. */
class FakeRequest {
	static sent: FakeRequest[] = [];
	method = '';
	url = '';
	headers: Record<string, string> = {};
	status = 0;
	responseText = '';
	withCredentials = false;
	body: Blob | null = null;
	onload: (() => void) | null = null;
	onerror: ((error: unknown) => void) | null = null;
	upload: { onprogress: ((event: ProgressEvent) => void) | null } = { onprogress: null };
	private answered: Record<string, string> = {};
	open(method: string, url: string) {
		this.method = method;
		this.url = url;
	}
	setRequestHeader(name: string, value: string) {
		this.headers[name.toLowerCase()] = value;
	}
	getResponseHeader(name: string) {
		return this.answered[name.toLowerCase()] ?? null;
	}
	send(body: Blob | null) {
		this.body = body ?? null;
		FakeRequest.sent.push(this);
	}
	abort() {}
	progress(loaded: number) {
		this.upload.onprogress?.({ lengthComputable: true, loaded, total: this.body?.size ?? 0 });
	}
	answer(status: number, headers: Record<string, string> = {}, body = '') {
		this.status = status;
		this.responseText = body;
		this.answered = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
		this.onload?.();
	}
	fail() {
		this.onerror?.(new Error('the connection dropped'));
	}
}

/** What GET on each upload's address answers, by upload id. */
const views = new Map<string, unknown>();
let uploads = 0;

beforeEach(() => {
	FakeRequest.sent = [];
	views.clear();
	window.localStorage.clear();
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user: { id: 7 } as never });
	vi.stubGlobal('XMLHttpRequest', FakeRequest);
	vi.stubGlobal('fetch', async (input: string | URL | Request) => {
		const url = String(input instanceof Request ? input.url : input);
		if (url.includes('/auth/refresh-token'))
			return Response.json({ access_token: 'fresh', expires_in: 600, user: { id: 7 } });
		const id = url.match(/workout_uploads\/([0-9a-f]+)/)?.[1] ?? '';
		return views.has(id)
			? Response.json(views.get(id))
			: Response.json({ error: 'not_found' }, { status: 404 });
	});
});
afterEach(() => {
	cleanup();
	vi.useRealTimers();
	vi.unstubAllGlobals();
});

/** A 100-byte workout file. */
const file = (name: string) => new File(['<gpx>'.padEnd(100, ' ')], name);
const metadataOf = (request: FakeRequest) =>
	Object.fromEntries(
		(request.headers['upload-metadata'] ?? '').split(',').map((pair) => {
			const [key, value] = pair.split(' ');
			return [key, atob(value ?? '')];
		}),
	);
const sentAt = async (index: number) => {
	await vi.waitFor(() => expect(FakeRequest.sent.length).toBeGreaterThan(index));
	return FakeRequest.sent[index];
};

/** Answers an upload's creation and hands back its address and id. */
function created(request: FakeRequest): string {
	const id = (++uploads).toString(16).padStart(32, '0');
	request.answer(201, { Location: `/api/workout_uploads/${id}`, 'Tus-Resumable': '1.0.0' });
	return id;
}
/** Answers the PATCH that carries the last bytes, with how the import went. */
function finished(request: FakeRequest, id: string, view: Record<string, unknown>) {
	views.set(id, { id, size: 100, offset: 100, ...view });
	request.answer(204, { 'Upload-Offset': '100', 'Tus-Resumable': '1.0.0' });
}

describe('WorkoutImport', () => {
	test('chosen files upload two at a time with their progress, then say how each went', async () => {
		render(<WorkoutImport />);
		fireEvent.change(screen.getByLabelText('Choose files'), {
			target: { files: [file('a.gpx'), file('b.tcx.gz'), file('c.fit'), file('photo.jpg')] },
		});
		expect(screen.getByRole('alert').textContent).toContain('photo.jpg');
		const first = await sentAt(0);
		const second = await sentAt(1);
		expect(first.method).toBe('POST');
		expect(first.url).toBe('/api/workout_uploads/');
		expect(first.headers.authorization).toBe('Bearer tok');
		expect(first.headers['upload-length']).toBe('100');
		expect(metadataOf(first).filename).toBe('a.gpx');
		expect(metadataOf(first).idempotency_key).toMatch(/^[0-9a-f]{32}$/);
		expect(metadataOf(second).filename).toBe('b.tcx.gz');

		const items = () => screen.getAllByTestId('upload-item');
		expect(items()[2].dataset.status).toBe('queued');
		const firstId = created(first);
		const firstBytes = await sentAt(2);
		expect(firstBytes.method).toBe('PATCH');
		expect(firstBytes.url).toBe(`/api/workout_uploads/${firstId}`);
		expect(firstBytes.headers['upload-offset']).toBe('0');
		expect(firstBytes.headers['content-type']).toBe('application/offset+octet-stream');
		act(() => firstBytes.progress(40));
		expect(within(items()[0]).getByText('40%')).toBeTruthy();
		expect(
			(within(items()[0]).getByTestId('upload-progress') as HTMLProgressElement).getAttribute('value'),
		).toBe('40');

		act(() => finished(firstBytes, firstId, { status: 'imported', workout: { id: 12, name: 'Lunch run' } }));
		const third = await sentAt(3);
		expect(metadataOf(third).filename).toBe('c.fit');
		await vi.waitFor(() =>
			expect(within(items()[0]).getByRole('link', { name: 'Lunch run' }).getAttribute('href')).toBe(
				'/workout/12',
			),
		);

		const secondId = created(second);
		const secondBytes = await sentAt(4);
		act(() => finished(secondBytes, secondId, { status: 'duplicate', workout: { id: 4, name: 'Ride' } }));
		await vi.waitFor(() => expect(items()[1].dataset.status).toBe('duplicate'));
		expect(items()[1].textContent).toContain('Already imported');
		expect(within(items()[1]).getByRole('link').getAttribute('href')).toBe('/workout/4');

		const thirdId = created(third);
		const thirdBytes = await sentAt(5);
		act(() =>
			finished(thirdBytes, thirdId, {
				status: 'refused',
				refusal: { status: 422, error: 'file_no_workout', message: 'This file has no track points' },
			}),
		);
		await vi.waitFor(() => expect(items()[2].dataset.status).toBe('failed'));
		expect(items()[2].textContent).toContain('This file has no track points');
		expect(screen.getByRole('status').textContent).toBe('3 of 3 files done');
	});

	test('after a drop the upload asks how far it got and sends only the rest, by itself', async () => {
		render(<WorkoutImport />);
		fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file('long.fit')] } });
		const id = created(await sentAt(0));
		const bytes = await sentAt(1);
		act(() => bytes.progress(60));
		act(() => bytes.fail());
		const asked = await sentAt(2);
		expect(asked.method).toBe('HEAD');
		expect(asked.url).toBe(`/api/workout_uploads/${id}`);
		// The server kept 40 of the 60 bytes sent before the drop.
		asked.answer(200, { 'Upload-Offset': '40', 'Upload-Length': '100', 'Tus-Resumable': '1.0.0' });
		const rest = await sentAt(3);
		expect(rest.method).toBe('PATCH');
		expect(rest.headers['upload-offset']).toBe('40');
		expect(rest.body?.size).toBe(60);
		const item = () => screen.getByTestId('upload-item');
		act(() => rest.progress(30));
		expect(within(item()).getByText('70%')).toBeTruthy();
		act(() => finished(rest, id, { status: 'imported', workout: { id: 9, name: 'Long ride' } }));
		await vi.waitFor(() => expect(item().dataset.status).toBe('imported'));
	});

	test('a link down for good ends in "Try again", which resumes the same upload', async () => {
		vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
		render(<WorkoutImport />);
		fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file('c.fit')] } });
		await vi.advanceTimersByTimeAsync(0);
		const id = created(FakeRequest.sent[0]);
		await vi.advanceTimersByTimeAsync(0);
		FakeRequest.sent[1].fail();
		// Every try fails until the retry delays run out.
		for (let tries = 0; tries < UPLOAD_RETRY_DELAYS_MS.length; tries++) {
			await vi.advanceTimersByTimeAsync(UPLOAD_RETRY_DELAYS_MS[tries] + 1);
			FakeRequest.sent.at(-1)?.fail();
		}
		await vi.advanceTimersByTimeAsync(0);
		vi.useRealTimers();
		const item = () => screen.getByTestId('upload-item');
		await vi.waitFor(() => expect(item().dataset.status).toBe('network'));
		const before = FakeRequest.sent.length;
		fireEvent.click(within(item()).getByRole('button', { name: 'Try again' }));
		const resumed = await sentAt(before);
		expect(resumed.method).toBe('HEAD');
		expect(resumed.url).toBe(`/api/workout_uploads/${id}`);
		resumed.answer(200, { 'Upload-Offset': '100', 'Upload-Length': '100', 'Tus-Resumable': '1.0.0' });
		views.set(id, { id, status: 'imported', workout: { id: 5, name: 'Walk' } });
		await vi.waitFor(() => expect(item().dataset.status).toBe('imported'));
	});

	test('dropped files upload too', async () => {
		render(<WorkoutImport />);
		const zone = screen.getByTestId('upload-drop');
		fireEvent.dragOver(zone, { dataTransfer: { files: [] } });
		expect(zone.dataset.dragging).toBe('true');
		fireEvent.drop(zone, { dataTransfer: { files: [file('ride.fit')] } });
		expect(metadataOf(await sentAt(0)).filename).toBe('ride.fit');
	});

	test('an expired session is refreshed once and the file sent again', async () => {
		render(<WorkoutImport />);
		fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file('a.gpx')] } });
		(await sentAt(0)).answer(401, {}, JSON.stringify({ error: 'unauthenticated' }));
		const again = await sentAt(1);
		expect(again.method).toBe('POST');
		expect(again.headers.authorization).toBe('Bearer fresh');
		const id = created(again);
		finished(await sentAt(2), id, { status: 'imported', workout: { id: 3, name: 'Walk' } });
		await vi.waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('imported'));
	});

	test('a refusal of the server is shown as it words it', async () => {
		render(<WorkoutImport />);
		fireEvent.change(screen.getByLabelText('Choose files'), { target: { files: [file('huge.fit')] } });
		(await sentAt(0)).answer(
			413,
			{},
			JSON.stringify({ error: 'file_too_large', message: 'The file is larger than 32 MB.' }),
		);
		await vi.waitFor(() => expect(screen.getByTestId('upload-item').dataset.status).toBe('failed'));
		expect(screen.getByTestId('upload-item').textContent).toContain('The file is larger than 32 MB.');
		expect(FakeRequest.sent).toHaveLength(1);
	});
});
