import * as v from 'valibot';
import { UserUpdateSchema } from '../../account/contract';
import { updateUser } from '../../account/server/service';
import type { Viewer } from '../../auth/contract';
import { createDemoMember } from '../../auth/server/service';
import { joinChallenge } from '../../challenges/server/participation';
import { demoChallenges } from '../../challenges/server/seed';
import { formatApiDateTime } from '../../core/dates';
import type { AppDeps } from '../../core/server/deps';
import { GoalCreateSchema } from '../../goals/contract';
import { createGoal } from '../../goals/server/service';
import { WorkoutSaveSchema } from '../../workouts/contract';
import { createWorkout } from '../../workouts/server/service';
import { addFriendship } from './friendships';
import { createReaction } from './reactions';

type Person = { email: string; password: string; first_name: string; last_name: string };

/** Demo members beside the demo member and Ana; nobody is told their passwords, they only fill the feed. */
const BEN: Person = {
	email: 'ben.rides@mapstride.example',
	password: 'ben-rides-the-susquehanna-2026',
	first_name: 'Ben',
	last_name: 'Rider',
};
const CARA: Person = {
	email: 'cara.walks@mapstride.example',
	password: 'cara-walks-city-island-2026',
	first_name: 'Cara',
	last_name: 'Walker',
};
const DEV: Person = {
	email: 'dev.trail@mapstride.example',
	password: 'dev-runs-the-trails-2026',
	first_name: 'Dev',
	last_name: 'Trail',
};

/**
 * Ben's hand-logged rides: [owner key, name, activity type, days ago, metres, seconds]. Ana's workouts
 * are the recorded ones the demo world gives her (src/lib/workouts/server/demo.ts).
 */
const WORKOUTS = [
	['ben', 'Susquehanna ride', 11, 2, 42_000, 5_400],
	['ben', 'Hill repeats on the bike', 11, 6, 18_500, 3_300],
] as const;

/**
 * Ben shares his workouts with friends, has ridden towards a weekly goal since two weeks ago (his
 * longer ride meets it) and has joined the cycling challenge: his goal and challenge stories.
 */
async function seedBenGoalAndChallenge(deps: AppDeps, ben: Viewer): Promise<void> {
	await updateUser(deps, ben, ben.id, v.parse(UserUpdateSchema, { privacy: { workout: 1 } }));
	const twoWeeksAgo = new Date(deps.clock().getTime() - 14 * 86_400_000);
	await createGoal(
		{ ...deps, clock: () => twoWeeksAgo },
		ben,
		v.parse(GoalCreateSchema, {
			period: 'P1W',
			criteria: { threshold_metrics: { data_type_field: 'distance', value: 40_000 }, activity_group: 'ride' },
		}),
	);
	const climb = demoChallenges(deps.clock()).find((challenge) => challenge.metric === 'climb');
	if (climb?.slug) await joinChallenge(deps, ben, climb.slug, true);
}

/**
 * Gives the demo member a social life on first start: two friends with workouts in the feed (one
 * liked and commented on), a friend's weekly goal met and challenge joined, a friend request
 * waiting, and a nearby member among the suggestions. Uses the same use cases as members do, but for sign-up, which would spend 127.0.0.1's budget.
 */
export async function seedDemoSocial(
	deps: AppDeps,
	demo: { id: number },
	anaId: number | null,
	demoRouteIds: number[],
): Promise<string> {
	const signUp = (person: Person) =>
		createDemoMember(deps, {
			...person,
			birthdate: '1988-09-03',
			gender: 'M',
			location: { country: 'US', region: 'PA', locality: 'Harrisburg' },
			promotionalPreference: false,
		});
	const ben = await signUp(BEN);
	const benId = ben?.id ?? null;
	const caraId = (await signUp(CARA))?.id ?? null;
	const dev = await signUp(DEV);
	// Only a profile the demo member may open is suggested: Dev's is public.
	if (dev) await updateUser(deps, dev, dev.id, v.parse(UserUpdateSchema, { privacy: { profile: 3 } }));
	// The goal comes before the rides that meet it.
	if (ben) await seedBenGoalAndChallenge(deps, ben);
	if (benId !== null) await addFriendship(deps.db, benId, demo.id, 'active');
	if (caraId !== null) await addFriendship(deps.db, caraId, demo.id, 'pending');
	const owners: Record<string, number | null> = { ben: benId };
	const now = deps.clock().getTime();
	let first: string | null = null;
	let count = 0;
	for (const [who, name, activityType, daysAgo, metres, seconds] of WORKOUTS) {
		const ownerId = owners[who];
		if (ownerId === null) continue;
		const input = v.parse(WorkoutSaveSchema, {
			name,
			start_datetime: formatApiDateTime(new Date(now - daysAgo * 86_400_000)),
			start_locale_timezone: 'America/New_York',
			activity_type: activityType,
			privacy: 1,
			aggregates: { distance_total: metres, active_time_total: seconds, elapsed_time_total: seconds + 60 },
		});
		const outcome = await createWorkout(deps, { id: ownerId }, input);
		if (outcome.created) {
			count++;
			first ??= `workout_${outcome.workout.id}`;
		}
	}
	if (first) {
		await createReaction(deps, demo, { verb: 'like', parent_story_id: first });
		await createReaction(deps, demo, { verb: 'comment', parent_story_id: first, text: 'Strong finish!' });
	}
	if (anaId !== null && demoRouteIds.length > 0) {
		const story = `route_${demoRouteIds[0]}`;
		// The demo routes may be private; Ana reacts only where she may see the route.
		await createReaction(deps, { id: anaId }, { verb: 'like', parent_story_id: story }).catch(() => null);
	}
	return `Seeded the demo member's friends: ${benId === null ? 1 : 2} friends with ${count} workouts${benId === null ? '' : ', a weekly goal met and a challenge joined'}, a friend request from Cara and a suggestion.`;
}
