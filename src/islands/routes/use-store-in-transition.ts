import type { ReadableAtom } from 'nanostores';
import { startTransition, useEffect, useState } from 'react';

/**
 * A store's value for the parts of a page that may show a change a frame later: each change renders as a
 * transition, which React does after the browser has painted what must show at once (the planner's line,
 * drawn on the map straight from the store) and which it interrupts for a newer change.
 */
export function useStoreInTransition<T>(store: ReadableAtom<T>): T {
	const [value, setValue] = useState(() => store.get());
	useEffect(() => {
		// A change between the first render and this effect.
		setValue(store.get());
		return store.listen((next) => startTransition(() => setValue(next)));
	}, [store]);
	return value;
}
