// A member joins a challenge (choosing a team where there are teams) or leaves it; the "joined"
// story in the feed follows.

import { and, eq, sql } from 'drizzle-orm';
import { memberTimeZone } from '../../account/server/time-zone';
import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import { syncMemberStories } from '../../social/server/member-stories';
import {
	type ChallengeRow,
	challengeStatus,
	type Deps,
	findChallenge,
	type ParticipantRow,
	participantOf,
} from './challenge';
import { recompute, recountTeams } from './progress';
import { challengeParticipants, challenges, challengeTeams } from './tables';

/** Joins (or, already in, changes whether the name shows); progress counts workouts already in the window. */
export async function joinChallenge(
	deps: Deps,
	viewer: Viewer | null,
	ref: string | number,
	showName = false,
	teamId?: number,
) {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to join a challenge');
	const challenge = await findChallenge(deps, ref);
	const timeZone = await memberTimeZone(deps, viewer.id);
	if (challengeStatus(challenge, deps.clock(), timeZone) === 'past')
		throw new AppError('conflict', 'This challenge is over.', { detail: 'challenge_over' });
	const before = await participantOf(deps, challenge.id, viewer.id);
	await checkTeamChoice(deps, challenge, teamId, before);
	const now = deps.clock();
	const mine = and(
		eq(challengeParticipants.challengeId, challenge.id),
		eq(challengeParticipants.userId, viewer.id),
	);
	const participant = await deps.db.transaction(async (tx) => {
		const [inserted] = await tx
			.insert(challengeParticipants)
			.values({
				challengeId: challenge.id,
				userId: viewer.id,
				timeZone,
				showName,
				teamId: teamId ?? null,
				reachedAt: now,
				joinedAt: now,
			})
			.onConflictDoNothing()
			.returning();
		if (!inserted)
			return (
				await tx
					.update(challengeParticipants)
					.set(teamId === undefined ? { showName } : { showName, teamId })
					.where(mine)
					.returning()
			)[0];
		await tx
			.update(challenges)
			.set({ participantCount: sql`${challenges.participantCount} + 1` })
			.where(eq(challenges.id, challenge.id));
		return inserted;
	});
	await recompute(deps, viewer.id, [{ participant, challenge }]);
	// A member who changed teams leaves their old team's total.
	if (before?.teamId && before.teamId !== participant.teamId) await recountTeams(deps, [before.teamId]);
	await syncJoinStory(deps, viewer.id, challenge, participant);
	return challenge;
}

/**
 * A team challenge's members run for one of its teams: the first join names one, later joins may
 * switch. Solo challenges take no team.
 */
async function checkTeamChoice(
	deps: Deps,
	challenge: ChallengeRow,
	teamId: number | undefined,
	current: ParticipantRow | null,
): Promise<void> {
	if (teamId === undefined) {
		if (challenge.mode === 'team' && !current?.teamId)
			throw new AppError('unprocessable', 'Choose a team to join.', { detail: 'team_required' });
		return;
	}
	const [team] = await deps.db
		.select({ id: challengeTeams.id })
		.from(challengeTeams)
		.where(and(eq(challengeTeams.id, teamId), eq(challengeTeams.challengeId, challenge.id)));
	if (!team)
		throw new AppError('unprocessable', 'No such team in this challenge.', { detail: 'no_such_team' });
}

/**
 * The "joined the challenge" story: there while the member takes part, gone when they leave (it
 * would no longer be true), back with its likes and comments if they join again. A member who keeps
 * their name off the leaderboard is not announced beyond their friends.
 */
async function syncJoinStory(
	deps: Deps,
	memberId: number,
	challenge: ChallengeRow,
	participant: ParticipantRow | null,
): Promise<void> {
	await syncMemberStories(
		deps,
		{ actorId: memberId, type: 'challenge', subjectId: challenge.id },
		participant
			? [
					{
						publishedAt: participant.joinedAt,
						title: challenge.name,
						details: { type: 'challenge', challenge_id: challenge.id },
						privacyCap: participant.showName ? 3 : 1,
					},
				]
			: [],
	);
}

export async function leaveChallenge(
	deps: Deps,
	viewer: Viewer | null,
	ref: string | number,
	userId: number,
) {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to leave a challenge');
	if (userId !== viewer.id) throw new AppError('forbidden', 'You can take only yourself out of a challenge.');
	const challenge = await findChallenge(deps, ref);
	await deps.db
		.transaction(async (tx) => {
			const removed = await tx
				.delete(challengeParticipants)
				.where(
					and(
						eq(challengeParticipants.challengeId, challenge.id),
						eq(challengeParticipants.userId, viewer.id),
					),
				)
				.returning({ id: challengeParticipants.id, teamId: challengeParticipants.teamId });
			if (removed.length > 0)
				await tx
					.update(challenges)
					.set({ participantCount: sql`${challenges.participantCount} - 1` })
					.where(eq(challenges.id, challenge.id));
			return removed;
		})
		.then((removed) =>
			recountTeams(
				deps,
				removed.map((row) => row.teamId),
			),
		);
	await syncJoinStory(deps, viewer.id, challenge, null);
	return challenge;
}
