// Participants' progress kept current with their workouts: the tally of counted workouts, age
// grades, team totals, paces a member vouches for, and the year's progress line.

import { and, asc, eq, gte, lt, sql } from 'drizzle-orm';
import { ageOn } from '../../account/derived';
import { memberTimeZone } from '../../account/server/time-zone';
import type { Viewer } from '../../auth/contract';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { ActivityTypeId } from '../../workout-files/contract';
import { computeWorkoutElevationChange } from '../../workout-files/metrics';
import { workoutFromSamples } from '../../workouts/analysis';
import { decodeSeries, segmentStartsOf } from '../../workouts/series';
import { activityTypeGroup } from '../../workouts/server/activity-types';
import { workoutSeries, workouts } from '../../workouts/server/tables';
import { AGE_GRADE_MIN_METRES, ageGrade, type GradedSex } from '../age-grade';
import { type ChallengeMetric, isAgeGraded } from '../contract';
import { challengeWindow, isImpossiblePace, localDay } from '../windows';
import {
	type ChallengeRow,
	type Deps,
	findChallenge,
	lastDay,
	type ParticipantRow,
	participantOf,
} from './challenge';
import { challengePaceConfirmations, challengeParticipants, challenges, challengeTeams } from './tables';

const KCAL = 4184;

type CandidateWorkout = {
	id: number;
	name: string;
	activityTypeId: number;
	startDatetime: Date;
	distanceTotal: number | null;
	activeTimeTotal: number | null;
	elapsedTimeTotal: number | null;
	metabolicEnergyTotal: number | null;
	confirmed: boolean;
};

/** The member's profile facts age grading needs: a birthdate, and a sex the tables grade. */
type Grading = { birthdate: string; sex: GradedSex } | null;

type BestGrade = { grade: number; metres: number; seconds: number; gradedSeconds: number };

export type Tally = {
	progress: number;
	reachedAt: Date | null;
	workoutCount: number;
	flagged: CandidateWorkout[];
	best: BestGrade | null;
};

/**
 * A counted run's age grade, graded at its own distance with the member's age on the day; null
 * for other sports, runs under 1500 m or without a time.
 */
function gradeRun(workout: CandidateWorkout, group: string, grading: Grading): BestGrade | null {
	if (!grading || group !== 'run') return null;
	const metres = workout.distanceTotal ?? 0;
	const seconds = workout.activeTimeTotal || workout.elapsedTimeTotal || 0;
	if (metres < AGE_GRADE_MIN_METRES || seconds <= 0) return null;
	const age = ageOn(grading.birthdate, workout.startDatetime);
	if (age === null) return null;
	const graded = ageGrade(grading.sex, age, metres, seconds);
	return { grade: graded.grade, metres, seconds, gradedSeconds: graded.gradedSeconds };
}

/** Adds up a participant's counted workouts: the ones in their window whose type the rules count. */
export async function tally(
	challenge: ChallengeRow,
	timeZone: string,
	candidates: readonly CandidateWorkout[],
	climbOf: (id: number) => Promise<number>,
	grading: Grading = null,
): Promise<Tally> {
	const { from, to } = challengeWindow(challenge.startsOn, lastDay(challenge, timeZone), timeZone);
	const groups = new Set(challenge.activityGroups);
	const graded = isAgeGraded(challenge) ? grading : null;
	const result: Tally = { progress: 0, reachedAt: null, workoutCount: 0, flagged: [], best: null };
	for (const workout of candidates) {
		if (workout.startDatetime < from || workout.startDatetime >= to) continue;
		const group = activityTypeGroup(workout.activityTypeId);
		if (!groups.has(group)) continue;
		const seconds = workout.activeTimeTotal || workout.elapsedTimeTotal;
		if (!workout.confirmed && isImpossiblePace(group, workout.distanceTotal, seconds)) {
			result.flagged.push(workout);
			continue;
		}
		const amount = await amountOf(challenge.metric as ChallengeMetric, workout, climbOf);
		if (amount <= 0) continue;
		result.progress += amount;
		result.workoutCount += 1;
		const grade = gradeRun(workout, group, graded);
		if (grade && (!result.best || grade.grade > result.best.grade)) result.best = grade;
		const finished = new Date(
			workout.startDatetime.getTime() + (workout.elapsedTimeTotal || seconds || 0) * 1000,
		);
		if (!result.reachedAt || finished > result.reachedAt) result.reachedAt = finished;
	}
	return result;
}

async function amountOf(
	metric: ChallengeMetric,
	workout: CandidateWorkout,
	climbOf: (id: number) => Promise<number>,
): Promise<number> {
	switch (metric) {
		case 'distance':
			return workout.distanceTotal ?? 0;
		case 'duration':
			return workout.activeTimeTotal || workout.elapsedTimeTotal || 0;
		case 'count':
			return 1;
		case 'calories':
			return (workout.metabolicEnergyTotal ?? 0) / KCAL;
		case 'climb':
			return climbOf(workout.id);
	}
}

/** Elevation gain of a recorded workout, by the same method as its detail page. */
function climbReader(deps: Deps) {
	const cache = new Map<number, Promise<number>>();
	return (id: number) => {
		let found = cache.get(id);
		if (!found) {
			found = (async () => {
				const [row] = await deps.db
					.select({ series: workoutSeries.series })
					.from(workoutSeries)
					.where(eq(workoutSeries.workoutId, id));
				if (!row) return 0;
				const workout = workoutFromSamples(decodeSeries(row.series), {
					startMs: 0,
					activityType: ActivityTypeId.generic,
					segmentStarts: segmentStartsOf(row.series),
				});
				return computeWorkoutElevationChange(workout).gain;
			})();
			cache.set(id, found);
		}
		return found;
	};
}

/** The owner's workouts that start between two instants, with whether they confirmed a flagged pace. */
export async function candidateWorkouts(
	deps: Deps,
	ownerId: number,
	from: Date,
	to: Date,
): Promise<CandidateWorkout[]> {
	const rows = await deps.db
		.select({
			id: workouts.id,
			name: workouts.name,
			activityTypeId: workouts.activityTypeId,
			startDatetime: workouts.startDatetime,
			distanceTotal: workouts.distanceTotal,
			activeTimeTotal: workouts.activeTimeTotal,
			elapsedTimeTotal: workouts.elapsedTimeTotal,
			metabolicEnergyTotal: workouts.metabolicEnergyTotal,
			confirmedAt: challengePaceConfirmations.confirmedAt,
		})
		.from(workouts)
		.leftJoin(challengePaceConfirmations, eq(challengePaceConfirmations.workoutId, workouts.id))
		.where(
			and(eq(workouts.ownerId, ownerId), gte(workouts.startDatetime, from), lt(workouts.startDatetime, to)),
		)
		.orderBy(asc(workouts.startDatetime), asc(workouts.id));
	return rows.map(({ confirmedAt, ...row }) => ({ ...row, confirmed: confirmedAt !== null }));
}

type Participation = { participant: ParticipantRow; challenge: ChallengeRow };

export async function recompute(deps: Deps, ownerId: number, participations: Participation[]): Promise<void> {
	if (participations.length === 0) return;
	const windows = participations.map(({ participant, challenge }) =>
		challengeWindow(challenge.startsOn, lastDay(challenge, participant.timeZone), participant.timeZone),
	);
	const from = new Date(Math.min(...windows.map((window) => window.from.getTime())));
	const to = new Date(Math.max(...windows.map((window) => window.to.getTime())));
	const candidates = await candidateWorkouts(deps, ownerId, from, to);
	const climbOf = climbReader(deps);
	const grading = await memberGrading(deps, ownerId);
	const teams: number[] = [];
	for (const { participant, challenge } of participations) {
		const result = await tally(challenge, participant.timeZone, candidates, climbOf, grading);
		// The best grade is kept with the progress, so the age-graded board is an index read.
		await deps.db
			.update(challengeParticipants)
			.set({
				progress: result.progress,
				reachedAt: result.reachedAt ?? participant.joinedAt,
				workoutCount: result.workoutCount,
				flaggedCount: result.flagged.length,
				ageGrade: result.best?.grade ?? null,
				ageGradeMetres: result.best?.metres ?? null,
				ageGradeSeconds: result.best?.seconds ?? null,
				ageGradedSeconds: result.best?.gradedSeconds ?? null,
			})
			.where(eq(challengeParticipants.id, participant.id));
		if (participant.teamId !== null) teams.push(participant.teamId);
	}
	await recountTeams(deps, teams);
}

async function memberGrading(deps: Deps, userId: number): Promise<Grading> {
	const [row] = await deps.db
		.select({ birthdate: users.birthdate, gender: users.gender })
		.from(users)
		.where(eq(users.id, userId));
	if (!row?.birthdate || (row.gender !== 'F' && row.gender !== 'M')) return null;
	return { birthdate: row.birthdate, sex: row.gender };
}

/** Brings teams' totals and member counts up to date: an index-only sum over each team's members. */
export async function recountTeams(deps: Deps, teamIds: readonly (number | null)[]): Promise<void> {
	const p = challengeParticipants;
	for (const id of new Set(teamIds)) {
		if (id === null) continue;
		await deps.db
			.update(challengeTeams)
			.set({
				progress: sql`coalesce((select sum(${p.progress}) from ${p} where ${p.teamId} = ${id}), 0)`,
				memberCount: sql`(select count(*)::int from ${p} where ${p.teamId} = ${id})`,
			})
			.where(eq(challengeTeams.id, id));
	}
}

/**
 * Brings a member's progress in every challenge they take part in up to date with their workouts.
 * The workouts service calls it after a workout is saved, edited, cut or deleted; challenges an
 * admin ended keep their final standings.
 */
export async function refreshChallengeProgress(deps: Deps, ownerId: number): Promise<void> {
	const rows = await deps.db
		.select({ participant: challengeParticipants, challenge: challenges })
		.from(challengeParticipants)
		.innerJoin(challenges, eq(challenges.id, challengeParticipants.challengeId))
		.where(and(eq(challengeParticipants.userId, ownerId), sql`${challenges.endedAt} is null`));
	await recompute(deps, ownerId, rows);
}

/** The same, never failing the workout write that triggered it: a failure is logged. */
export async function refreshChallengeProgressQuietly(
	deps: Pick<AppDeps, 'db' | 'clock'> & Partial<Pick<AppDeps, 'logger'>>,
	ownerId: number,
): Promise<void> {
	try {
		await refreshChallengeProgress(deps, ownerId);
	} catch (error) {
		deps.logger?.error({ err: error, ownerId }, 'challenge progress refresh failed');
	}
}

/** The owner vouches for a flagged workout's pace: it counts from now on. */
export async function confirmWorkoutPace(
	deps: Deps,
	viewer: Viewer | null,
	ref: string | number,
	workoutId: number,
) {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to confirm a workout');
	const challenge = await findChallenge(deps, ref);
	const [workout] = await deps.db
		.select({ ownerId: workouts.ownerId })
		.from(workouts)
		.where(and(eq(workouts.id, workoutId), eq(workouts.ownerId, viewer.id)));
	if (!workout) throw new AppError('not_found', 'No such workout');
	await deps.db
		.insert(challengePaceConfirmations)
		.values({ workoutId, ownerId: viewer.id, confirmedAt: deps.clock() })
		.onConflictDoNothing();
	await refreshChallengeProgress(deps, viewer.id);
	return challenge;
}

/** The viewer's cumulative distance through a challenge's year, one point per day with a workout. */
export async function progressLine(deps: Deps, viewer: Viewer, challenge: ChallengeRow) {
	const own = await participantOf(deps, challenge.id, viewer.id);
	const timeZone = own?.timeZone ?? (await memberTimeZone(deps, viewer.id));
	const window = challengeWindow(challenge.startsOn, lastDay(challenge, timeZone), timeZone);
	const candidates = await candidateWorkouts(deps, viewer.id, window.from, window.to);
	const points: Array<{ day: string; total: number }> = [];
	let total = 0;
	const groups = new Set(challenge.activityGroups);
	const climbOf = climbReader(deps);
	for (const workout of candidates) {
		const group = activityTypeGroup(workout.activityTypeId);
		if (!groups.has(group)) continue;
		const seconds = workout.activeTimeTotal || workout.elapsedTimeTotal;
		if (!workout.confirmed && isImpossiblePace(group, workout.distanceTotal, seconds)) continue;
		total += await amountOf(challenge.metric as ChallengeMetric, workout, climbOf);
		const day = localDay(workout.startDatetime, timeZone);
		if (points.at(-1)?.day === day) points[points.length - 1].total = total;
		else points.push({ day, total });
	}
	return { timeZone, points, total };
}
