import { refreshChallengeProgressQuietly } from '../challenges/server/progress';
import { listen } from '../core/server/events';
import { refreshGoalStoriesQuietly } from '../goals/server/service';

/**
 * Which domains follow which changes, in one place beside the API's sub-apps: challenge standings and
 * weekly goal stories follow every change to a member's workouts; neither failing fails the change.
 */
listen('workout.changed', (deps, { ownerId }) => refreshChallengeProgressQuietly(deps, ownerId));
listen('workout.changed', (deps, { ownerId }) => refreshGoalStoriesQuietly(deps, ownerId));
