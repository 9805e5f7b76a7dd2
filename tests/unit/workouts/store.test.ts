// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { $session } from '../../../src/lib/auth/store';
import type { ActivityTypeView } from '../../../src/lib/workouts/contract';
import {
	$activityTypes,
	ACTIVITY_TYPES_CACHE_MS,
	ACTIVITY_TYPES_STORAGE_KEY,
	createUploadQueue,
	groupActivityTypes,
	isWorkoutFileName,
	loadActivityTypes,
	type UploadOutcome,
	uploadOutcomeOf,
} from '../../../src/lib/workouts/store';

const view = (id: number, name: string, parent: number | null, root: number): ActivityTypeView => ({
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
const LIST = [
	view(16, 'Run', null, 16),
	view(25, 'Treadmill Run', 16, 16),
	view(9, 'Walk', null, 9),
	view(11, 'Bike Ride', null, 11),
	view(78, 'Yoga', null, 78),
	view(100003, 'Dancing', null, 100003),
	view(100300, 'Ballet', 100003, 100003),
];

let calls: string[];
let failing: boolean;

beforeEach(() => {
	calls = [];
	failing = false;
	window.localStorage.clear();
	$activityTypes.set({ status: 'idle', types: [] });
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user: { id: 7 } as never });
	vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
		const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
		calls.push(url);
		if (failing) return new Response('{"error":"unavailable"}', { status: 500 });
		return new Response(JSON.stringify({ _embedded: { activity_types: LIST }, total_count: LIST.length }), {
			status: 200,
			headers: { 'content-type': 'application/json' },
		});
	});
});
afterEach(() => vi.unstubAllGlobals());

describe('activity types', () => {
	test('load from the API once, then from this browser for 30 days', async () => {
		const now = Date.UTC(2026, 4, 1);
		await loadActivityTypes({ now });
		expect(calls).toHaveLength(1);
		expect(calls[0]).toContain('/api/v7.1/activity_type/');
		expect($activityTypes.get().status).toBe('loaded');
		expect(JSON.parse(window.localStorage.getItem(ACTIVITY_TYPES_STORAGE_KEY) ?? '{}').savedAt).toBe(now);

		$activityTypes.set({ status: 'idle', types: [] });
		await loadActivityTypes({ now: now + ACTIVITY_TYPES_CACHE_MS - 1000 });
		expect(calls).toHaveLength(1);
		expect($activityTypes.get().types.map((type) => type.id)).toContain(25);

		$activityTypes.set({ status: 'idle', types: [] });
		await loadActivityTypes({ now: now + ACTIVITY_TYPES_CACHE_MS + 1000 });
		expect(calls).toHaveLength(2);
	});

	test('a failure is the error state, and a retry loads again', async () => {
		failing = true;
		await loadActivityTypes();
		expect($activityTypes.get()).toEqual({ status: 'error', types: [] });
		expect(window.localStorage.getItem(ACTIVITY_TYPES_STORAGE_KEY)).toBeNull();
		failing = false;
		await loadActivityTypes({ force: true });
		expect($activityTypes.get().status).toBe('loaded');
	});

	test('Popular comes first with the ids the list has, then one group per top-level type', async () => {
		await loadActivityTypes();
		const groups = groupActivityTypes($activityTypes.get().types);
		expect(groups.map((group) => group.label)).toEqual([
			'Popular',
			'Bike Ride',
			'Dancing',
			'Run',
			'Walk',
			'Yoga',
		]);
		// Hike (24) and Swim (15) are not in this list, so Popular skips them.
		expect(groups[0].options.map((option) => option.name)).toEqual(['Run', 'Walk', 'Bike Ride', 'Yoga']);
		expect(groups.find((group) => group.label === 'Run')?.options.map((o) => o.name)).toEqual([
			'Run',
			'Treadmill Run',
		]);
	});

	test('searching keeps the types whose name or group name holds the text', async () => {
		await loadActivityTypes();
		const types = $activityTypes.get().types;
		expect(groupActivityTypes(types, 'tread')).toEqual([
			{ label: 'Run', options: [expect.objectContaining({ id: 25 })] },
		]);
		expect(groupActivityTypes(types, 'DANC').flatMap((group) => group.options.map((o) => o.name))).toEqual([
			'Dancing',
			'Ballet',
		]);
		expect(groupActivityTypes(types, 'curling')).toEqual([]);
	});
});

describe('uploads', () => {
	test('the answers of the import become outcomes', () => {
		expect(uploadOutcomeOf(201, { id: 5, name: 'Morning run' })).toEqual({
			kind: 'imported',
			workoutId: 5,
			name: 'Morning run',
		});
		expect(
			uploadOutcomeOf(409, {
				error: 'duplicate_workout',
				_links: { existing: [{ href: '/v7.1/workout/3/', id: '3' }] },
			}),
		).toEqual({ kind: 'duplicate', workoutId: 3 });
		expect(uploadOutcomeOf(422, { message: 'The file holds no workout we can read.' })).toEqual({
			kind: 'failed',
			message: 'The file holds no workout we can read.',
		});
		expect(uploadOutcomeOf(0, null)).toEqual({ kind: 'network' });
	});

	test('workout files are told apart by name', () => {
		for (const name of ['a.gpx', 'B.TCX', 'c.fit', 'd.tcx.gz', 'e.zip'])
			expect(isWorkoutFileName(name)).toBe(true);
		expect(isWorkoutFileName('photo.jpg')).toBe(false);
	});

	test('at most two files go at once; each shows progress and outcome; a network failure can be tried again', async () => {
		const pending: { name: string; progress: (f: number) => void; finish: (o: UploadOutcome) => void }[] = [];
		let attempts = 0;
		const queue = createUploadQueue(
			(file, progress) =>
				new Promise((resolve) => {
					attempts++;
					pending.push({ name: file.name, progress, finish: resolve });
				}),
		);
		const file = (name: string) => new File(['<gpx/>'], name);
		queue.add([file('a.gpx'), file('b.tcx'), file('c.fit')]);
		expect(pending.map((p) => p.name)).toEqual(['a.gpx', 'b.tcx']);
		expect(queue.$items.get().map((item) => item.status)).toEqual(['uploading', 'uploading', 'queued']);

		pending[0].progress(0.5);
		expect(queue.$items.get()[0].progress).toBe(0.5);
		pending[0].finish({ kind: 'imported', workoutId: 1, name: 'A' });
		await vi.waitFor(() => expect(pending).toHaveLength(3));
		expect(pending[2].name).toBe('c.fit');
		expect(queue.$items.get()[0]).toMatchObject({
			status: 'done',
			progress: 1,
			outcome: { kind: 'imported' },
		});

		pending[1].finish({ kind: 'network' });
		pending[2].finish({ kind: 'duplicate', workoutId: 1 });
		await vi.waitFor(() => expect(queue.$items.get().every((item) => item.status === 'done')).toBe(true));
		expect(queue.$items.get()[1].outcome).toEqual({ kind: 'network' });

		queue.retry(queue.$items.get()[2].key);
		expect(attempts).toBe(3);
		queue.retry(queue.$items.get()[1].key);
		expect(attempts).toBe(4);
		expect(pending[3].name).toBe('b.tcx');
	});
});
