// A challenge's badges: earned at each award threshold of the target, or still ahead.

import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import { DEFAULT_AWARD_THRESHOLDS } from '../contract';
import { type ChallengeRow, type Deps, findChallenge, participantOf } from './challenge';

export type Award = { threshold: number; name: string; goal: number; earned: boolean };

export function awardsFor(challenge: ChallengeRow, progress: number | null): Award[] {
	const thresholds =
		challenge.awardThresholds.length > 0 ? challenge.awardThresholds : DEFAULT_AWARD_THRESHOLDS;
	return thresholds.map((threshold) => ({
		threshold,
		name:
			threshold >= 1 ? `${challenge.name} finisher` : `${Math.round(threshold * 100)}% of ${challenge.name}`,
		goal: threshold * challenge.target,
		earned: progress !== null && progress >= threshold * challenge.target - 1e-9,
	}));
}

/** The viewer's badges in a challenge: earned or still ahead. */
export async function challengeAwards(deps: Deps, viewer: Viewer | null, ref: string | number) {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to see your awards');
	const challenge = await findChallenge(deps, ref);
	const own = await participantOf(deps, challenge.id, viewer.id);
	return { challenge, awards: awardsFor(challenge, own?.progress ?? null), joined: own !== null };
}
