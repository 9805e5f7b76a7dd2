// Operators set a challenge up, change its rules (everyone in it is recounted) and end it; the
// teams come with the rules.

import { and, asc, eq, notInArray } from 'drizzle-orm';
import type { AppDeps } from '../../core/server/deps';
import { retitleMemberStories } from '../../social/server/member-stories';
import { type ChallengeInput, DEFAULT_AWARD_THRESHOLDS } from '../contract';
import { type ChallengeRow, type Deps, findChallenge } from './challenge';
import { recompute } from './progress';
import { challengeParticipants, challenges, challengeTeams } from './tables';

/** Makes a challenge's teams the named ones: new names added, missing ones removed (their members teamless). */
async function syncTeams(deps: Deps, challengeId: number, names: readonly string[]): Promise<void> {
	await deps.db
		.delete(challengeTeams)
		.where(
			and(
				eq(challengeTeams.challengeId, challengeId),
				names.length > 0 ? notInArray(challengeTeams.name, [...names]) : undefined,
			),
		);
	if (names.length > 0)
		await deps.db
			.insert(challengeTeams)
			.values(names.map((name) => ({ challengeId, name })))
			.onConflictDoNothing();
}

/** The team names of a challenge, in the admin's order of creation. */
export async function teamNames(deps: Pick<AppDeps, 'db'>, challengeId: number): Promise<string[]> {
	const rows = await deps.db
		.select({ name: challengeTeams.name })
		.from(challengeTeams)
		.where(eq(challengeTeams.challengeId, challengeId))
		.orderBy(asc(challengeTeams.id));
	return rows.map((row) => row.name);
}

/** A challenge's rules as the service takes them: teams may be left out (none). */
export type ChallengeRules = Omit<ChallengeInput, 'teams'> & { teams?: readonly string[] };

/** Creates a challenge (the admin CLI and the demo seed). */
export async function createChallenge(deps: Deps, input: ChallengeRules, createdBy: number | null = null) {
	const [row] = await deps.db
		.insert(challenges)
		.values({
			slug: input.slug ?? null,
			name: input.name,
			description: input.description,
			metric: input.metric,
			activityGroups: input.activity_groups,
			startsOn: input.starts_on,
			endsOn: input.ends_on,
			target: input.target,
			mode: input.mode,
			prizes: input.prizes,
			awardThresholds: input.award_thresholds ?? DEFAULT_AWARD_THRESHOLDS,
			createdBy,
			createdAt: deps.clock(),
		})
		.returning();
	await syncTeams(deps, row.id, input.teams ?? []);
	return row;
}

/** Changes a challenge's rules and recounts everyone in it. */
export async function updateChallenge(deps: Deps, ref: string | number, input: ChallengeRules) {
	const current = await findChallenge(deps, ref);
	const [row] = await deps.db
		.update(challenges)
		.set({
			slug: input.slug ?? current.slug,
			name: input.name,
			description: input.description,
			metric: input.metric,
			activityGroups: input.activity_groups,
			startsOn: input.starts_on,
			endsOn: input.ends_on,
			target: input.target,
			mode: input.mode,
			prizes: input.prizes,
			awardThresholds: input.award_thresholds ?? current.awardThresholds,
		})
		.where(eq(challenges.id, current.id))
		.returning();
	await syncTeams(deps, row.id, input.teams ?? []);
	await recountChallenge(deps, row);
	if (row.name !== current.name)
		await retitleMemberStories(deps, { type: 'challenge', subjectId: row.id }, row.name);
	return row;
}

async function recountChallenge(deps: Deps, challenge: ChallengeRow) {
	const participants = await deps.db
		.select()
		.from(challengeParticipants)
		.where(eq(challengeParticipants.challengeId, challenge.id));
	for (const participant of participants)
		await recompute(deps, participant.userId, [{ participant, challenge }]);
}

/** Ends a challenge now: standings freeze with workouts up to today. */
export async function endChallenge(deps: Deps, ref: string | number) {
	const current = await findChallenge(deps, ref);
	await recountChallenge(deps, { ...current, endedAt: deps.clock() });
	const [row] = await deps.db
		.update(challenges)
		.set({ endedAt: deps.clock() })
		.where(eq(challenges.id, current.id))
		.returning();
	return row;
}
