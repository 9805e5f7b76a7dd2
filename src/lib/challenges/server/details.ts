// Everything the challenge page shows: the rules, the viewer's progress, flagged workouts, awards
// and rank, and the leaderboard around them.

import { and, eq, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import { type ChallengeMetric, formatMetric, isAgeGraded } from '../contract';
import { challengeWindow } from '../windows';
import { awardsFor } from './awards';
import { representChallenge, viewerZone } from './catalogue';
import {
	type ChallengeRow,
	type Deps,
	findChallenge,
	lastDay,
	type ParticipantRow,
	participantOf,
} from './challenge';
import { ageGradeEntry, leaderboard, rankOf, teamStandings } from './leaderboard';
import { candidateWorkouts, tally } from './progress';
import { challengeParticipants } from './tables';

/** The viewer's workouts in the window kept off the board for a pace faster than the world record. */
async function flaggedWorkouts(deps: Deps, challenge: ChallengeRow, participant: ParticipantRow) {
	const window = challengeWindow(
		challenge.startsOn,
		lastDay(challenge, participant.timeZone),
		participant.timeZone,
	);
	const candidates = await candidateWorkouts(deps, participant.userId, window.from, window.to);
	const result = await tally(challenge, participant.timeZone, candidates, async () => 0);
	return result.flagged.map((workout) => ({
		id: workout.id,
		name: workout.name,
		startDatetime: workout.startDatetime.toISOString(),
		distance: workout.distanceTotal,
		duration: workout.activeTimeTotal || workout.elapsedTimeTotal,
	}));
}

/**
 * Everything the challenge page shows: the challenge and its rules, the viewer's progress, awards
 * and rank, counts, the leaderboard page around the viewer (or the first), and the prizes.
 */
export async function challengeDetails(
	deps: Deps,
	viewer: Viewer | null,
	ref: string | number,
	options: { timezone?: string; userId?: number } = {},
) {
	if (options.userId !== undefined && options.userId !== viewer?.id)
		throw new AppError('forbidden', 'You can see only your own progress.');
	const challenge = await findChallenge(deps, ref);
	const now = deps.clock();
	const zone = await viewerZone(deps, viewer, options.timezone);
	const own = viewer ? await participantOf(deps, challenge.id, viewer.id) : null;
	const participantZone = own?.timeZone ?? zone;
	const window = challengeWindow(challenge.startsOn, lastDay(challenge, participantZone), participantZone);
	const rank = own ? await rankOf(deps, own) : null;
	const excerptSize = 10;
	const board = await leaderboard(deps, viewer, challenge, {
		page: rank ? Math.ceil(rank / excerptSize) : 1,
		pageSize: excerptSize,
	});
	// Finishers are a range at the top of the board index.
	const [stats] = await deps.db
		.select({ finishers: sql<number>`count(*)::int` })
		.from(challengeParticipants)
		.where(
			and(
				eq(challengeParticipants.challengeId, challenge.id),
				sql`${challengeParticipants.progress} >= ${challenge.target}`,
			),
		);
	const metric = challenge.metric as ChallengeMetric;
	return {
		challenge: representChallenge(challenge, now, zone),
		rules: {
			metric,
			activityGroups: challenge.activityGroups,
			startsOn: challenge.startsOn,
			endsOn: challenge.endsOn,
			timeZone: participantZone,
			windowStart: window.from.toISOString(),
			windowEnd: window.to.toISOString(),
			target: challenge.target,
			targetText: formatMetric(metric, challenge.target),
			mode: challenge.mode,
			ageGraded: isAgeGraded(challenge),
		},
		userAwards: own ? awardsFor(challenge, own.progress) : [],
		progress: own
			? {
					value: own.progress,
					text: formatMetric(metric, own.progress),
					percent: Math.min(100, (own.progress / challenge.target) * 100),
					workoutCount: own.workoutCount,
					flaggedCount: own.flaggedCount,
					flagged: own.flaggedCount > 0 ? await flaggedWorkouts(deps, challenge, own) : [],
					rank,
					showName: own.showName,
					joinedAt: own.joinedAt.toISOString(),
					teamId: own.teamId,
					ageGrade: isAgeGraded(challenge) ? ageGradeEntry({ ...own, birthdate: null, gender: null }) : null,
				}
			: null,
		stats: {
			participants: challenge.participantCount,
			finishers: Number(stats.finishers),
		},
		leaderboard: {
			currentPage: board.currentPage,
			pageSize: board.pageSize,
			totalPages: board.totalPages,
			results: board.results,
		},
		joined: own !== null,
		prizes: challenge.prizes,
		teams: challenge.mode === 'team' ? await teamStandings(deps, challenge, viewer) : [],
	};
}
export type ChallengeDetails = Awaited<ReturnType<typeof challengeDetails>>;
