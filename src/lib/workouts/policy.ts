import { WorkoutPrivacy } from './contract';

/** What the privacy decision needs to know about a workout. */
export type WorkoutAccessFacts = { ownerId: number; privacy: number };

/** What the privacy decision needs to know about the viewer and the owner. */
export type WorkoutViewContext = {
	/** Whether the two are accepted friends. */
	isFriend: boolean;
	/** Whether either blocked the other. */
	blocked: boolean;
};

/**
 * The single privacy decision for workouts. Only me: the owner. Friends: the owner and accepted
 * friends. Everyone: anyone, signed in or not. A block either way hides everything from the other
 * member while signed in (signed out, nobody is known, so public stays public). Detail, exports,
 * lists, stats, totals and the feed all ask this, or the SQL twin in the service
 * (`visibleCondition`) that the tests hold to the same matrix.
 */
export function canView(
	viewer: { id: number } | null,
	workout: WorkoutAccessFacts,
	context: WorkoutViewContext,
): boolean {
	if (viewer && viewer.id === workout.ownerId) return true;
	if (viewer && context.blocked) return false;
	switch (workout.privacy) {
		case WorkoutPrivacy.everyone:
			return true;
		case WorkoutPrivacy.friends:
			return viewer !== null && context.isFriend;
		default:
			return false;
	}
}

/** Only the owner edits, deletes or changes the privacy of a workout. */
export function canEdit(viewer: { id: number } | null, workout: { ownerId: number }): boolean {
	return viewer !== null && viewer.id === workout.ownerId;
}
