/**
 * A value loaded in the background that a newer load may replace while requests go on: readers get
 * the current one (waiting for the first load), and a replacement takes over only once it has loaded,
 * so a failed reload leaves the last good value in service.
 */
export interface Replaceable<T> {
	get(): Promise<T>;
	/** Starts serving `next` once it resolves; resolves to whether it did (a later replace wins). */
	replace(next: Promise<T>): Promise<boolean>;
}

export function createReplaceable<T>(first: Promise<T>, onError: (error: unknown) => void): Replaceable<T> {
	let current = first;
	let latest = 0;
	return {
		get: () => current,
		async replace(next) {
			const ticket = ++latest;
			try {
				const value = await next;
				if (ticket !== latest) return false;
				current = Promise.resolve(value);
				return true;
			} catch (error) {
				onError(error);
				return false;
			}
		},
	};
}
