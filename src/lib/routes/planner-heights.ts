import { atom } from 'nanostores';
import type { PlannedLeg } from './planner';
import {
	heightKey,
	type LegHeights,
	legsNeedingHeights,
	packHeightBatch,
	splitHeights,
} from './planner-insights';
import { ROUTING_TIMEOUT_MS, type RouteFetch } from './planner-store';

/** Edits in quick succession (a drag, several clicks) wait this long and then ask for heights once. */
export const HEIGHT_DEBOUNCE_MS = 400;
/** Points per height request; the service takes up to 10 000. */
export const HEIGHT_BATCH_POINTS = 5000;

export type HeightLoaderOptions = {
	fetch?: RouteFetch;
	debounceMs?: number;
	timeoutMs?: number;
	batchPoints?: number;
	warn?: (message: string, detail?: unknown) => void;
};

/**
 * Heights for the planner's profile, cached per gap shape: adding a point asks only for the new gap. Requests are
 * debounced and batched, and a request made stale by a later edit is aborted. A gap the service refuses is not
 * asked for again (its part of the profile stays empty) until the page reloads.
 */
export function createHeightLoader(options: HeightLoaderOptions = {}) {
	const send: RouteFetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
	const debounceMs = options.debounceMs ?? HEIGHT_DEBOUNCE_MS;
	const batchPoints = options.batchPoints ?? HEIGHT_BATCH_POINTS;
	const warn = options.warn ?? ((message, detail) => console.warn(message, detail));

	const $heights = atom<LegHeights>(new Map());
	const $loading = atom(false);
	const refused = new Set<string>();
	/** Requests under way, with the gap shapes each asks for. */
	const inFlight = new Map<AbortController, string[]>();
	let wanted: readonly PlannedLeg[] = [];
	let timer: ReturnType<typeof setTimeout> | null = null;
	let waiting: (() => void)[] = [];

	const busyKeys = () => new Set([...refused, ...[...inFlight.values()].flat()]);
	const settle = () => {
		if (timer || inFlight.size > 0) return;
		$loading.set(false);
		const done = waiting;
		waiting = [];
		for (const resolve of done) resolve();
	};

	async function load(): Promise<void> {
		const batch = packHeightBatch(legsNeedingHeights(wanted, $heights.get(), busyKeys()), batchPoints);
		if (!batch) return settle();
		const controller = new AbortController();
		inFlight.set(controller, batch.keys);
		try {
			const response = await send('/api/routing/height', {
				method: 'POST',
				headers: { 'content-type': 'application/json', accept: 'application/json' },
				body: JSON.stringify({ shape: batch.shape }),
				signal: AbortSignal.any([
					controller.signal,
					AbortSignal.timeout(options.timeoutMs ?? ROUTING_TIMEOUT_MS),
				]),
			});
			if (!response.ok) throw new Error(`Heights answered ${response.status}`);
			const body = (await response.json()) as { height?: (number | null)[] };
			const split = splitHeights(batch, body.height ?? []);
			if (!split) throw new Error('Heights do not match the points.');
			$heights.set(new Map([...$heights.get(), ...split]));
		} catch (error) {
			// Aborted because the route moved on: those gaps are no longer drawn.
			if (!controller.signal.aborted) {
				for (const key of batch.keys) refused.add(key);
				warn('The profile is drawn without some heights', error);
			}
		} finally {
			inFlight.delete(controller);
		}
		// More gaps than one request holds, or gaps added while this one ran.
		return load();
	}

	return {
		$heights,
		$loading,
		/**
		 * The route changed: requests for gaps no longer on it are aborted, and after a pause the heights of the
		 * gaps not yet known are asked for. The promise settles when nothing more is being asked.
		 */
		update(legs: readonly PlannedLeg[]): Promise<void> {
			wanted = legs;
			if (inFlight.size > 0) {
				const current = new Set(legs.map(heightKey));
				for (const [controller, keys] of inFlight) {
					if (keys.some((key) => !current.has(key))) controller.abort();
				}
			}
			if (timer) clearTimeout(timer);
			timer = null;
			const promise = new Promise<void>((resolve) => waiting.push(resolve));
			if (legsNeedingHeights(legs, $heights.get(), busyKeys()).length === 0) {
				settle();
				return promise;
			}
			$loading.set(true);
			timer = setTimeout(() => {
				timer = null;
				void load();
			}, debounceMs);
			return promise;
		},
		dispose() {
			if (timer) clearTimeout(timer);
			timer = null;
			for (const controller of inFlight.keys()) controller.abort();
		},
	};
}

export type HeightLoader = ReturnType<typeof createHeightLoader>;
