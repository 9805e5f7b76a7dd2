import { atom } from 'nanostores';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import {
	addWaypoint,
	type LegOptions,
	plannerDraftKey,
	type SavedRoute,
} from '../../../src/lib/routes/planner';
import {
	createPlannerDraft,
	DRAFT_WRITE_DELAY_MS,
	type DraftStorage,
	detailsOf,
	EMPTY_DETAILS,
	type PlannerDetails,
	readDraft,
} from '../../../src/lib/routes/planner-draft';
import { createPlannerStore } from '../../../src/lib/routes/planner-store';

/** A Map standing in for the browser's local storage. */
function memoryStorage(): DraftStorage & { entries: Map<string, string> } {
	const entries = new Map<string, string>();
	return {
		entries,
		getItem: (key) => entries.get(key) ?? null,
		setItem: (key, value) => void entries.set(key, value),
		removeItem: (key) => void entries.delete(key),
	};
}

const STRAIGHT: LegOptions = { mode: 'WALKING', followRoads: false, avoidHighways: true };
const A = { lat: 40.27, lng: -76.88 };
const B = { lat: 40.271, lng: -76.879 };
const KEY = plannerDraftKey({ kind: 'create' });
const SAVED: SavedRoute = {
	name: 'River loop',
	description: '',
	activity_type: 9,
	privacy: 3,
	version: 4,
	points: [
		{ lat: A.lat, lng: A.lng },
		{ lat: B.lat, lng: B.lng },
	],
};

/** One planner page: its store, its details and its draft, as the page wires them. */
function page(storage: DraftStorage | null, opened?: SavedRoute) {
	const store = createPlannerStore({ opened });
	const $details = atom<PlannerDetails>(opened ? detailsOf(opened) : EMPTY_DETAILS);
	const $initialDetails = atom($details.get());
	const key = opened ? plannerDraftKey({ kind: 'edit', routeId: 7 }) : KEY;
	const draft = createPlannerDraft({
		store,
		storage,
		key,
		isOpenedRoute: opened !== undefined,
		$details,
		$initialDetails,
	});
	const stop = draft.follow();
	const draw = async (...points: { lat: number; lng: number }[]) => {
		for (const point of points) await store.edit((state) => addWaypoint(state, point, STRAIGHT));
	};
	return { store, $details, draft, stop, draw, key };
}

beforeEach(() => {
	vi.useFakeTimers();
});
afterEach(() => {
	vi.useRealTimers();
});

describe('the unsaved route', () => {
	test('is kept once edits pause, and offered back on the next visit with its details', async () => {
		const storage = memoryStorage();
		const first = page(storage);
		await first.draw(A, B);
		first.$details.set({ ...EMPTY_DETAILS, name: 'Evening walk', privacy: 3 });
		vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS - 1);
		expect(storage.entries.has(KEY)).toBe(false);
		vi.advanceTimersByTime(1);
		expect(storage.entries.has(KEY)).toBe(true);
		first.stop();

		const next = page(storage);
		const offer = next.draft.$offer.get();
		expect(offer?.details).toEqual({ ...EMPTY_DETAILS, name: 'Evening walk', privacy: 3 });
		expect(offer?.state.waypoints.map(({ lat, lng }) => ({ lat, lng }))).toEqual([A, B]);
		expect(next.store.$history.get().present.waypoints).toEqual([]);

		expect(next.draft.restore()).toBe(offer);
		expect(next.draft.$offer.get()).toBeNull();
		expect(next.store.$history.get().present.waypoints.map(({ lat, lng }) => ({ lat, lng }))).toEqual([A, B]);
		expect(next.store.$history.get().past).toHaveLength(0);
		expect(next.$details.get().name).toBe('Evening walk');
	});

	test('offered back is never overwritten while the member decides; discarding removes it', async () => {
		const storage = memoryStorage();
		const first = page(storage);
		await first.draw(A, B);
		first.draft.write();
		const kept = storage.entries.get(KEY);
		first.stop();

		const next = page(storage);
		await next.draw(B);
		next.$details.set({ ...EMPTY_DETAILS, name: 'Something else' });
		vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS * 2);
		next.draft.write();
		expect(storage.entries.get(KEY)).toBe(kept);

		next.draft.discard();
		expect(next.draft.$offer.get()).toBeNull();
		expect(storage.entries.has(KEY)).toBe(false);
		// From then on the page's own route is kept.
		vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
		expect(readDraft(storage, KEY)?.details.name).toBe('Something else');
	});

	test('is written at once when the page is left, from the store as it is then', async () => {
		const storage = memoryStorage();
		const { draw, draft } = page(storage);
		await draw(A, B);
		draft.write();
		expect(readDraft(storage, KEY)?.state.waypoints).toHaveLength(2);
	});

	test('a new page with nothing drawn or named, and an opened route left as it opened, keep nothing', async () => {
		const storage = memoryStorage();
		storage.setItem(KEY, 'left from a route just saved');
		const blank = page(storage);
		vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
		expect(storage.entries.has(KEY)).toBe(false);
		blank.stop();

		const edit = page(storage, SAVED);
		vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
		expect(storage.entries.has(edit.key)).toBe(false);
		// A detail changed is something unsaved.
		edit.$details.set({ ...edit.$details.get(), name: 'River loop, longer' });
		vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
		expect(readDraft(storage, edit.key)?.details.name).toBe('River loop, longer');
		// New routes and edits of routes never share a draft.
		expect(storage.entries.has(KEY)).toBe(false);
	});

	test('once the route is saved, nothing writes it back, not even leaving the page', async () => {
		const storage = memoryStorage();
		const { draw, draft } = page(storage);
		await draw(A, B);
		draft.write();
		draft.close();
		expect(storage.entries.has(KEY)).toBe(false);
		await draw({ lat: 40.272, lng: -76.878 });
		vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
		draft.write();
		expect(storage.entries.has(KEY)).toBe(false);
	});

	test('a broken or foreign draft is not offered, and details it lacks take the defaults', () => {
		const storage = memoryStorage();
		storage.setItem(KEY, '{not json');
		expect(readDraft(storage, KEY)).toBeNull();
		storage.setItem(KEY, JSON.stringify({ state: { waypoints: [], legs: [] } }));
		expect(readDraft(storage, KEY)).toBeNull();
		storage.setItem(
			KEY,
			JSON.stringify({
				state: { waypoints: [A, B], legs: [STRAIGHT] },
				details: { name: 7, activity: 123456789, privacy: 2 },
			}),
		);
		expect(readDraft(storage, KEY)?.details).toEqual(EMPTY_DETAILS);
	});

	test('without storage (switched off, or full), the planner works and keeps nothing', async () => {
		const refusing: DraftStorage = {
			getItem: () => {
				throw new DOMException('denied', 'SecurityError');
			},
			setItem: () => {
				throw new DOMException('full', 'QuotaExceededError');
			},
			removeItem: () => {
				throw new DOMException('denied', 'SecurityError');
			},
		};
		for (const storage of [refusing, null]) {
			const { draw, draft } = page(storage);
			expect(draft.$offer.get()).toBeNull();
			await draw(A, B);
			expect(() => draft.write()).not.toThrow();
			vi.advanceTimersByTime(DRAFT_WRITE_DELAY_MS);
			expect(() => draft.discard()).not.toThrow();
		}
	});
});
