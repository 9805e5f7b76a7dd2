import { refreshChallengeProgressQuietly } from '../challenges/server/progress';
import { listen } from '../core/server/events';
import { refreshGoalStoriesQuietly } from '../goals/server/service';

/**
 * Which domains follow which changes, in one place beside the API's sub-apps: challenge standings and
 * weekly goal stories follow every change to a member's workouts, and the profile fields they are
 * counted by; neither failing fails the change.
 */
listen('workout.changed', (deps, { ownerId }) => refreshChallengeProgressQuietly(deps, ownerId));
listen('workout.changed', (deps, { ownerId }) => refreshGoalStoriesQuietly(deps, ownerId));

const changedAny = (fields: readonly string[], names: string[]) =>
	names.some((name) => fields.includes(name));

// Goal weeks are the member's local weeks: another zone or start day can meet different weeks.
listen('member.changed', async (deps, { memberId, fields }) => {
	if (changedAny(fields, ['week_start_day', 'time_zone'])) await refreshGoalStoriesQuietly(deps, memberId);
});
// Age grades in running challenges follow the birthdate and sex.
listen('member.changed', async (deps, { memberId, fields }) => {
	if (changedAny(fields, ['birthdate', 'gender'])) await refreshChallengeProgressQuietly(deps, memberId);
});
