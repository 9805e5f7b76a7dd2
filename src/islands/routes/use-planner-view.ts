import { startTransition, useCallback, useState, useSyncExternalStore } from 'react';
import type { PlannerStore } from '../../lib/routes/planner-store';

type PlannerView = ReturnType<PlannerStore['$view']['get']>;

/** Each store's newest view of the member's own edit, which every panel reads the same. */
const editViews = new WeakMap<PlannerStore, PlannerView>();

/**
 * The planner's route as its panels show it. A view that follows an answer or the hold renders as a transition,
 * which React does after the browser has painted the line drawn on the map straight from the store, and which
 * it interrupts for a newer change. A view of the member's own edit with nothing to wait for (`atOnce`) is read
 * as an external store, which React renders before the next paint, in one render with every other panel's.
 */
export function usePlannerView(store: PlannerStore): PlannerView {
	const [late, setLate] = useState(() => store.$view.get());
	const subscribe = useCallback(
		(changed: () => void) => {
			// A change between the first render and this subscription.
			setLate(store.$view.get());
			return store.$view.listen((next) => {
				if (!next.atOnce) return startTransition(() => setLate(next));
				editViews.set(store, next);
				changed();
			});
		},
		[store],
	);
	// Read apart from the transition's view: a snapshot that moved with it would make React render it at once.
	const edited = useSyncExternalStore(subscribe, () => editViews.get(store) ?? null);
	return edited && edited.seq > late.seq ? edited : late;
}
