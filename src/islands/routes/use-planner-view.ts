import { startTransition, useEffect, useState } from 'react';
import { flushSync } from 'react-dom';
import type { PlannerStore } from '../../lib/routes/planner-store';

type PlannerView = ReturnType<PlannerStore['$view']['get']>;

/** Views to show before the next paint, from every component that follows one, applied in one render. */
let beforePaint: (() => void)[] = [];

function showBeforePaint(apply: () => void): void {
	if (beforePaint.length === 0)
		queueMicrotask(() => {
			const batch = beforePaint;
			beforePaint = [];
			// Rendered, committed and its effects run in the task that made the change: one paint shows it all.
			flushSync(() => {
				for (const change of batch) change();
			});
		});
	beforePaint.push(apply);
}

/**
 * The planner's route as its panels show it. A view that follows an answer or the hold renders as a transition,
 * which React does after the browser has painted the line drawn on the map straight from the store, and which
 * it interrupts for a newer change. A view of the member's own edit with nothing to wait for (`atOnce`) renders
 * before the next paint, in one render with every other panel's.
 */
export function usePlannerView(store: PlannerStore): PlannerView {
	const [view, setView] = useState(() => store.$view.get());
	useEffect(() => {
		// A change between the first render and this effect.
		setView(store.$view.get());
		return store.$view.listen((next) => {
			if (next.atOnce) showBeforePaint(() => setView(next));
			else startTransition(() => setView(next));
		});
	}, [store]);
	return view;
}
