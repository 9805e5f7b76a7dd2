// The challenges page's lists (joinable, joined, past) and a member's own entries for their data export.

import { asc, eq } from 'drizzle-orm';
import { memberTimeZone } from '../../account/server/time-zone';
import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { type ChallengeListQuery, type ChallengeMetric, formatMetric, METRIC_LABELS } from '../contract';
import { type ChallengeRow, challengeStatus, type Deps } from './challenge';
import { challengeParticipants, challenges } from './tables';

export function representChallenge(challenge: ChallengeRow, now: Date, timeZone: string) {
	return {
		id: challenge.id,
		slug: challenge.slug,
		name: challenge.name,
		description: challenge.description,
		metric: challenge.metric as ChallengeMetric,
		metricLabel: METRIC_LABELS[challenge.metric as ChallengeMetric],
		activityGroups: challenge.activityGroups,
		startsOn: challenge.startsOn,
		endsOn: challenge.endsOn,
		endedAt: challenge.endedAt?.toISOString() ?? null,
		target: challenge.target,
		targetText: formatMetric(challenge.metric as ChallengeMetric, challenge.target),
		mode: challenge.mode,
		status: challengeStatus(challenge, now, timeZone),
		href: `/challenges/${challenge.slug ?? challenge.id}`,
	};
}
export type ChallengeSummary = ReturnType<typeof representChallenge> & {
	joined: boolean;
	participants: number;
	myProgress: number | null;
};

/** The zone dates are read in: the one asked for, else the member's, else UTC. */
export async function viewerZone(deps: Deps, viewer: Viewer | null, asked?: string): Promise<string> {
	if (asked) return asked;
	return viewer ? memberTimeZone(deps, viewer.id) : 'UTC';
}

/** The challenges the member joined and where they stand, for their data export. */
export async function listOwnChallengeEntries(deps: Pick<AppDeps, 'db'>, userId: number) {
	return deps.db
		.select({
			challengeId: challengeParticipants.challengeId,
			name: challenges.name,
			showName: challengeParticipants.showName,
			progress: challengeParticipants.progress,
			workoutCount: challengeParticipants.workoutCount,
			reachedAt: challengeParticipants.reachedAt,
		})
		.from(challengeParticipants)
		.innerJoin(challenges, eq(challenges.id, challengeParticipants.challengeId))
		.where(eq(challengeParticipants.userId, userId))
		.orderBy(asc(challengeParticipants.id));
}

/** Every challenge sorted into the three lists the challenges page shows, optionally for one sport. */
export async function listChallenges(deps: Deps, viewer: Viewer | null, query: ChallengeListQuery) {
	if (query.user !== undefined && query.user !== viewer?.id)
		throw new AppError('forbidden', 'You can list only your own challenges.');
	const now = deps.clock();
	const zone = await viewerZone(deps, viewer, query.timezone);
	const rows = await deps.db.select().from(challenges).orderBy(asc(challenges.endsOn), asc(challenges.id));
	const mine = viewer
		? await deps.db
				.select({ challengeId: challengeParticipants.challengeId, progress: challengeParticipants.progress })
				.from(challengeParticipants)
				.where(eq(challengeParticipants.userId, viewer.id))
		: [];
	const progressOf = new Map(mine.map((row) => [row.challengeId, row.progress]));
	const lists: { joinable: ChallengeSummary[]; joined: ChallengeSummary[]; past: ChallengeSummary[] } = {
		joinable: [],
		joined: [],
		past: [],
	};
	for (const row of rows) {
		if (query.sport && !row.activityGroups.includes(query.sport)) continue;
		const summary: ChallengeSummary = {
			...representChallenge(row, now, zone),
			joined: progressOf.has(row.id),
			participants: row.participantCount,
			myProgress: progressOf.get(row.id) ?? null,
		};
		if (summary.status === 'past') lists.past.push(summary);
		else if (summary.joined) lists.joined.push(summary);
		else lists.joinable.push(summary);
	}
	lists.past.reverse();
	return lists;
}
