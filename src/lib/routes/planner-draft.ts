import { atom, type ReadableAtom, type WritableAtom } from 'nanostores';
import { ROUTE_PRIVACY_VALUES, ROUTE_SEARCH_ACTIVITIES, type RoutePrivacyValue } from './contract';
import { type PlannerState, type RoutedLeg, restoreRouted, restoreState, type SavedRoute } from './planner';
import type { PlannerStore } from './planner-store';

/** What the save form holds beside the route. */
export type PlannerDetails = {
	name: string;
	description: string;
	activity: number;
	privacy: RoutePrivacyValue;
};
export const EMPTY_DETAILS: PlannerDetails = { name: '', description: '', activity: 16, privacy: 0 };

export function detailsOf(route: SavedRoute): PlannerDetails {
	return {
		name: route.name,
		description: route.description,
		activity: route.activity_type,
		privacy: ROUTE_PRIVACY_VALUES.includes(route.privacy as RoutePrivacyValue)
			? (route.privacy as RoutePrivacyValue)
			: 0,
	};
}

/** The unsaved route of one planner page, as this browser keeps it. */
export type PlannerDraft = { state: PlannerState; details: PlannerDetails; routed: Map<string, RoutedLeg> };

/** Where drafts are kept: the browser's local storage, or null where it is switched off. */
export type DraftStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** How long edits must pause before the draft is written. */
export const DRAFT_WRITE_DELAY_MS = 300;

/** The draft kept under `key`, checked field by field; null when there is none or it is not one. */
export function readDraft(storage: DraftStorage | null, key: string): PlannerDraft | null {
	let raw: { state?: unknown; details?: Partial<PlannerDetails>; routed?: unknown } | null;
	try {
		const text = storage?.getItem(key);
		raw = text ? JSON.parse(text) : null;
	} catch {
		return null;
	}
	const state = restoreState(raw?.state);
	if (!state || state.waypoints.length === 0) return null;
	const details = raw?.details ?? {};
	return {
		state,
		routed: restoreRouted(raw?.routed),
		details: {
			name: typeof details.name === 'string' ? details.name : '',
			description: typeof details.description === 'string' ? details.description : '',
			activity: ROUTE_SEARCH_ACTIVITIES.some(([id]) => id === details.activity)
				? (details.activity as number)
				: 16,
			privacy: ROUTE_PRIVACY_VALUES.includes(details.privacy as RoutePrivacyValue)
				? (details.privacy as RoutePrivacyValue)
				: 0,
		},
	};
}

function writeStorage(storage: DraftStorage | null, key: string, value: unknown): void {
	try {
		if (value === null) storage?.removeItem(key);
		else storage?.setItem(key, JSON.stringify(value));
	} catch {
		// Storage can be full or switched off; the page works without it.
	}
}

export type PlannerDraftOptions = {
	store: PlannerStore;
	storage: DraftStorage | null;
	/** The page's own key (`plannerDraftKey`), so a new route and edits of routes never mix. */
	key: string;
	/** An edit or a copy: the route as it opened has nothing unsaved. */
	isOpenedRoute: boolean;
	$details: WritableAtom<PlannerDetails>;
	/** The details the route opened (or was last taken) with. */
	$initialDetails: ReadableAtom<PlannerDetails>;
	delayMs?: number;
};

/**
 * The page's unsaved route, kept in this browser. A draft left from before is offered back first
 * (`$offer`), and nothing overwrites it until the member restores or discards it; after that the
 * draft follows every edit, written once edits pause (a long route's draft is large) and at once by
 * `write` when the page is left, from the store as it is then. Drawn legs keep their shapes, so a
 * restored draft is not routed again. Once the route is saved (`close`) nothing writes it back.
 */
export function createPlannerDraft(options: PlannerDraftOptions) {
	const { store, storage, key, isOpenedRoute, $details, $initialDetails } = options;
	const delayMs = options.delayMs ?? DRAFT_WRITE_DELAY_MS;
	const $offer = atom<PlannerDraft | null>(readDraft(storage, key));
	let closed = false;
	let timer: ReturnType<typeof setTimeout> | undefined;

	function write(): void {
		if (closed || $offer.get()) return;
		const { past, present } = store.$history.get();
		const details = $details.get();
		const untouched = isOpenedRoute
			? past.length === 0 && details === $initialDetails.get()
			: present.waypoints.length === 0 && !details.name && !details.description;
		writeStorage(
			storage,
			key,
			untouched
				? null
				: {
						state: present,
						details,
						routed: store.$legs
							.get()
							.filter((leg) => leg.status === 'routed')
							.map((leg) => [leg.key, { points: leg.points, distance: leg.distance, cues: leg.cues }]),
					},
		);
	}

	function schedule(): void {
		clearTimeout(timer);
		if ($offer.get()) return;
		timer = setTimeout(write, delayMs);
	}

	return {
		$offer,
		write,
		/** Follows the route and its details; the returned function stops that (and any write waiting). */
		follow(): () => void {
			schedule();
			const unbind = [store.$history, store.$legs, $details, $initialDetails, $offer].map((source) =>
				source.listen(schedule),
			);
			return () => {
				clearTimeout(timer);
				for (const stop of unbind) stop();
			};
		},
		/** Puts the offered draft's route and details into the planner; returns it, so the map can frame it. */
		restore(): PlannerDraft | null {
			const offer = $offer.get();
			if (!offer) return null;
			store.reset(offer.state, offer.routed);
			$details.set(offer.details);
			$offer.set(null);
			return offer;
		},
		discard(): void {
			writeStorage(storage, key, null);
			$offer.set(null);
		},
		/** The route is saved: the draft is removed, and nothing writes it back while the page is left. */
		close(): void {
			closed = true;
			clearTimeout(timer);
			writeStorage(storage, key, null);
		},
	};
}

export type PlannerDraftKeeper = ReturnType<typeof createPlannerDraft>;
