// A challenge and a member's place in it, as every challenge use case reads them: by id or slug,
// with its status and the last local day it counts.

import { and, eq } from 'drizzle-orm';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { localDay } from '../windows';
import { challengeParticipants, challenges } from './tables';

export type Deps = Pick<AppDeps, 'db' | 'clock'>;
export type ChallengeRow = typeof challenges.$inferSelect;
export type ParticipantRow = typeof challengeParticipants.$inferSelect;
export type ChallengeStatus = 'upcoming' | 'active' | 'past';

/** A challenge by numeric id or by the slug of a named one. */
export async function findChallenge(deps: Deps, ref: string | number): Promise<ChallengeRow> {
	const byId = typeof ref === 'number' || /^\d+$/.test(ref);
	const [row] = await deps.db
		.select()
		.from(challenges)
		.where(byId ? eq(challenges.id, Number(ref)) : eq(challenges.slug, String(ref)));
	if (!row) throw new AppError('not_found', 'No such challenge');
	return row;
}

/** The last local day a challenge counts: its end day, or the day an admin ended it. */
export function lastDay(challenge: ChallengeRow, timeZone: string): string {
	if (!challenge.endedAt) return challenge.endsOn;
	const ended = localDay(challenge.endedAt, timeZone);
	return [ended, challenge.endsOn].sort()[0];
}

export function challengeStatus(challenge: ChallengeRow, now: Date, timeZone: string): ChallengeStatus {
	const today = localDay(now, timeZone);
	if (challenge.endedAt && challenge.endedAt <= now) return 'past';
	if (today > challenge.endsOn) return 'past';
	if (today < challenge.startsOn) return 'upcoming';
	return 'active';
}

export async function participantOf(
	deps: Deps,
	challengeId: number,
	userId: number,
): Promise<ParticipantRow | null> {
	const [row] = await deps.db
		.select()
		.from(challengeParticipants)
		.where(and(eq(challengeParticipants.challengeId, challengeId), eq(challengeParticipants.userId, userId)));
	return row ?? null;
}
