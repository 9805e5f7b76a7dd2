import type { AppDeps } from './deps';

/**
 * What the house's domains tell each other. The owner of a change emits it; the domains that follow
 * it listen (src/lib/api/listeners.ts), so the owner never calls up into the domains above it.
 */
export type HouseEvents = {
	/** A member's workouts changed: one was saved, edited, cut or deleted. */
	'workout.changed': { ownerId: number };
	/** A member changed their profile: `fields` names the profile fields the change set (PUT /user). */
	'member.changed': { memberId: number; fields: readonly string[] };
};

type EventDeps = Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'logger'>>;
type Listener<K extends keyof HouseEvents> = (deps: EventDeps, event: HouseEvents[K]) => Promise<void>;

// Keyed by event name; each set holds listeners of that event only (`listen` sees to it).
const listeners = new Map<keyof HouseEvents, Set<Listener<keyof HouseEvents>>>();

/** Adds a listener; the same function added twice listens once. */
export function listen<K extends keyof HouseEvents>(name: K, listener: Listener<K>): void {
	const set = listeners.get(name) ?? new Set();
	set.add(listener as Listener<keyof HouseEvents>);
	listeners.set(name, set);
}

/** Tells every listener, one after another, in the order they were added. */
export async function emit<K extends keyof HouseEvents>(
	deps: EventDeps,
	name: K,
	event: HouseEvents[K],
): Promise<void> {
	for (const listener of listeners.get(name) ?? []) await listener(deps, event);
}
