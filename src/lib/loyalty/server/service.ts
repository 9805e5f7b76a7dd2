import { and, count, eq, gte } from 'drizzle-orm';
import { challengeParticipants, challenges } from '../../challenges/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { rolloutVariantFor } from '../../site/rollouts';
import { memberStories } from '../../social/server/tables';
import { workouts } from '../../workouts/server/tables';
import { LOYALTY_POINTS, type LoyaltyStatusView, type RewardsPointsView, tierFor } from '../contract';

type Deps = Pick<AppDeps, 'db' | 'config'>;
type Member = { id: number; username?: string; isPremium?: boolean };

export function inLoyaltyPilot(config: Deps['config'], member: Member | null): boolean {
	return member !== null && rolloutVariantFor(member, 'loyalty_pilot', config.rollouts) === 'enabled';
}

/**
 * A member's own points: only they may read them, and only while they are in the pilot. Anyone
 * else is told there is nothing there, so the pilot's members cannot be found out.
 */
export async function getRewardsPoints(
	deps: Deps,
	viewer: Member | null,
	userId: number,
): Promise<RewardsPointsView> {
	if (!viewer || viewer.id !== userId || !inLoyaltyPilot(deps.config, viewer))
		throw new AppError('not_found', 'No loyalty account here');
	const [[saved], [met], [finished]] = await Promise.all([
		deps.db.select({ n: count() }).from(workouts).where(eq(workouts.ownerId, userId)),
		// One live story per goal and met week: the goals domain keeps them in line with the goals.
		deps.db
			.select({ n: count() })
			.from(memberStories)
			.where(
				and(
					eq(memberStories.actorId, userId),
					eq(memberStories.objectType, 'goal'),
					eq(memberStories.live, true),
				),
			),
		deps.db
			.select({ n: count() })
			.from(challengeParticipants)
			.innerJoin(challenges, eq(challenges.id, challengeParticipants.challengeId))
			.where(
				and(eq(challengeParticipants.userId, userId), gte(challengeParticipants.progress, challenges.target)),
			),
	]);
	const earned = { workouts: saved?.n ?? 0, goals_met: met?.n ?? 0, challenges_finished: finished?.n ?? 0 };
	return {
		user_id: userId,
		pointsBalance:
			earned.workouts * LOYALTY_POINTS.workout +
			earned.goals_met * LOYALTY_POINTS.goalMet +
			earned.challenges_finished * LOYALTY_POINTS.challengeFinished,
		earned,
	};
}

export async function getLoyaltyStatus(
	deps: Deps,
	viewer: Member | null,
	userId: number,
): Promise<LoyaltyStatusView> {
	const { pointsBalance } = await getRewardsPoints(deps, viewer, userId);
	return { user_id: userId, pointsBalance, ...tierFor(pointsBalance) };
}
