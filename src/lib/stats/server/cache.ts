import { eq } from 'drizzle-orm';
import { LRUCache } from 'lru-cache';
import { approximateBytes } from '../../core/server/byte-size';
import type { AppDeps, Db } from '../../core/server/deps';
import { workoutChangeMarks } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/**
 * What stats derive from a member's workouts, kept while the workouts stay the same. The
 * fingerprint is the member's change mark, which a trigger renews on every workout added, edited
 * or deleted, so a stale answer is never served; summing ten years of days again on each page
 * would cost hundreds of milliseconds on the embedded database. Bounded in bytes: one member's ten
 * years of days outweigh a thousand members' weeks.
 */
const caches = new WeakMap<Db, LRUCache<string, { fingerprint: string; value: unknown }>>();

function cacheFor(db: Db) {
	let cache = caches.get(db);
	if (!cache) {
		cache = new LRUCache({
			maxSize: 24 * 1024 * 1024,
			sizeCalculation: (entry, key) => approximateBytes(entry.value) + key.length * 2 + 64,
		});
		caches.set(db, cache);
	}
	return cache;
}

export async function workoutsFingerprint(deps: Deps, ownerId: number): Promise<string> {
	const [row] = await deps.db
		.select({ mark: workoutChangeMarks.mark })
		.from(workoutChangeMarks)
		.where(eq(workoutChangeMarks.ownerId, ownerId));
	return row?.mark ?? 'unchanged';
}

/** A deleted member's change mark; it has no foreign key, since the trigger writes it as their workouts go. */
export async function removeChangeMark(db: Db, ownerId: number): Promise<void> {
	await db.delete(workoutChangeMarks).where(eq(workoutChangeMarks.ownerId, ownerId));
}

/** The cached value for `key` when the fingerprint still matches, else `compute()`'s, kept. */
export async function cachedFor<T>(
	deps: Deps,
	key: string,
	fingerprint: string,
	compute: () => Promise<T>,
): Promise<T> {
	const cache = cacheFor(deps.db);
	const hit = cache.get(key);
	if (hit && hit.fingerprint === fingerprint) return hit.value as T;
	const value = await compute();
	cache.set(key, { fingerprint, value });
	return value;
}
