import { and, asc, desc, eq, gte, lt, notInArray, or, sql } from 'drizzle-orm';
import { ageOn } from '../../account/derived';
import { memberTimeZone } from '../../account/server/time-zone';
import type { Viewer } from '../../auth/contract';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { retitleMemberStories, syncMemberStories } from '../../social/server/member-stories';
import { friendships } from '../../social/server/tables';
import { ActivityTypeId } from '../../workout-files/contract';
import { computeWorkoutElevationChange } from '../../workout-files/metrics';
import { workoutFromSamples } from '../../workouts/analysis';
import { formatDuration } from '../../workouts/detail-format';
import { decodeSeries, segmentStartsOf } from '../../workouts/series';
import { activityTypeGroup } from '../../workouts/server/activity-types';
import { workoutSeries, workouts } from '../../workouts/server/tables';
import { AGE_GRADE_MIN_METRES, ageGrade, formatGrade, type GradedSex } from '../age-grade';
import {
	type ChallengeInput,
	type ChallengeListQuery,
	type ChallengeMetric,
	DEFAULT_AWARD_THRESHOLDS,
	formatMetric,
	isAgeGraded,
	LEADERBOARD_PAGE_SIZE,
	type LeaderboardView,
	METRIC_LABELS,
} from '../contract';
import { challengeWindow, isImpossiblePace, localDay } from '../windows';
import { challengePaceConfirmations, challengeParticipants, challenges, challengeTeams } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
export type ChallengeRow = typeof challenges.$inferSelect;
type ParticipantRow = typeof challengeParticipants.$inferSelect;
export type ChallengeStatus = 'upcoming' | 'active' | 'past';

const KCAL = 4184;

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
function lastDay(challenge: ChallengeRow, timeZone: string): string {
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
async function tally(
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
async function candidateWorkouts(
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

async function recompute(deps: Deps, ownerId: number, participations: Participation[]): Promise<void> {
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
async function recountTeams(deps: Deps, teamIds: readonly (number | null)[]): Promise<void> {
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

async function participantOf(
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

/**
 * A participant's place: one more than those ahead of them, counted as two ranges of the board
 * index — everyone with more, and those with as much who got there earlier.
 */
export async function rankOf(
	deps: Deps,
	participant: ParticipantRow,
	onlyFriendsOf?: number,
): Promise<number> {
	const p = challengeParticipants;
	const friends = onlyFriendsOf === undefined ? sql`true` : friendsCondition(onlyFriendsOf);
	const result = await deps.db.execute<{ ahead: number }>(sql`select
		(select count(*) from ${p} where ${p.challengeId} = ${participant.challengeId} and ${p.progress} > ${participant.progress} and ${friends})
		+ (select count(*) from ${p} where ${p.challengeId} = ${participant.challengeId} and ${p.progress} = ${participant.progress}
			and (${p.reachedAt}, ${p.userId}) < (${participant.reachedAt.toISOString()}::timestamptz, ${participant.userId}) and ${friends})
		as ahead`);
	const rows = (result as unknown as { rows: { ahead: number | string }[] }).rows;
	return Number(rows[0].ahead) + 1;
}

/**
 * A participant's place on the age-graded board, or null while ungraded (the ungraded come after
 * everyone graded, unranked): two ranges of the age-grade index, as rankOf does.
 */
async function gradedRankOf(
	deps: Deps,
	participant: ParticipantRow,
	onlyFriendsOf?: number,
): Promise<number | null> {
	if (participant.ageGrade === null) return null;
	const p = challengeParticipants;
	const friends = onlyFriendsOf === undefined ? sql`true` : friendsCondition(onlyFriendsOf);
	const result = await deps.db.execute<{ ahead: number }>(sql`select
		(select count(*) from ${p} where ${p.challengeId} = ${participant.challengeId} and ${p.ageGrade} > ${participant.ageGrade} and ${friends})
		+ (select count(*) from ${p} where ${p.challengeId} = ${participant.challengeId} and ${p.ageGrade} = ${participant.ageGrade}
			and ${p.userId} < ${participant.userId} and ${friends})
		as ahead`);
	const rows = (result as unknown as { rows: { ahead: number | string }[] }).rows;
	return Number(rows[0].ahead) + 1;
}

export type Award = { threshold: number; name: string; goal: number; earned: boolean };

function awardsFor(challenge: ChallengeRow, progress: number | null): Award[] {
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

function representChallenge(challenge: ChallengeRow, now: Date, timeZone: string) {
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
async function viewerZone(deps: Deps, viewer: Viewer | null, asked?: string): Promise<string> {
	if (asked) return asked;
	return viewer ? memberTimeZone(deps, viewer.id) : 'UTC';
}

/** Every challenge sorted into the three lists the challenges page shows, optionally for one sport. */
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

/** A participant's best age-graded run: the grade, the run's distance and time and its age-graded time. */
export type AgeGradeEntry = {
	grade: number;
	gradeText: string;
	metres: number;
	distanceText: string;
	seconds: number;
	timeText: string;
	gradedSeconds: number;
	gradedTimeText: string;
};

export type LeaderboardRow = {
	/** Null on the age-graded board for the ungraded, listed after everyone graded. */
	rank: number | null;
	name: string;
	progress: number;
	progressText: string;
	workoutCount: number;
	isMe: boolean;
	/** The age-graded board only: the best graded run, or null with the reason. */
	ageGrade?: AgeGradeEntry | null;
	ungraded?: 'no_age_or_sex' | 'no_qualifying_run' | null;
};

function athleteName(row: {
	participantId: number;
	showName: boolean;
	displayName: string;
	username: string;
}) {
	return row.showName ? row.displayName || row.username : `Athlete #${row.participantId}`;
}

const boardColumns = {
	participantId: challengeParticipants.id,
	userId: challengeParticipants.userId,
	progress: challengeParticipants.progress,
	reachedAt: challengeParticipants.reachedAt,
	workoutCount: challengeParticipants.workoutCount,
	showName: challengeParticipants.showName,
	displayName: users.displayName,
	username: users.username,
	ageGrade: challengeParticipants.ageGrade,
	ageGradeMetres: challengeParticipants.ageGradeMetres,
	ageGradeSeconds: challengeParticipants.ageGradeSeconds,
	ageGradedSeconds: challengeParticipants.ageGradedSeconds,
	// Read to say why a row is ungraded; never sent.
	birthdate: users.birthdate,
	gender: users.gender,
};

type BoardRow = {
	ageGrade: number | null;
	ageGradeMetres: number | null;
	ageGradeSeconds: number | null;
	ageGradedSeconds: number | null;
	birthdate: string | null;
	gender: string | null;
};

function ageGradeEntry(row: BoardRow): AgeGradeEntry | null {
	if (row.ageGrade === null || !row.ageGradeMetres || !row.ageGradeSeconds || !row.ageGradedSeconds)
		return null;
	return {
		grade: row.ageGrade,
		gradeText: formatGrade(row.ageGrade),
		metres: row.ageGradeMetres,
		distanceText: formatMetric('distance', row.ageGradeMetres),
		seconds: row.ageGradeSeconds,
		timeText: formatDuration(row.ageGradeSeconds),
		gradedSeconds: row.ageGradedSeconds,
		gradedTimeText: formatDuration(row.ageGradedSeconds),
	};
}

function ungradedReason(row: BoardRow): LeaderboardRow['ungraded'] {
	if (row.ageGrade !== null) return null;
	return row.birthdate && (row.gender === 'F' || row.gender === 'M') ? 'no_qualifying_run' : 'no_age_or_sex';
}

/** The viewer and their accepted friends. */
function friendsCondition(viewerId: number) {
	return or(
		eq(challengeParticipants.userId, viewerId),
		sql`exists (select 1 from ${friendships} where ${friendships.status} = 'active' and ((${friendships.fromUserId} = ${viewerId} and ${friendships.toUserId} = ${challengeParticipants.userId}) or (${friendships.toUserId} = ${viewerId} and ${friendships.fromUserId} = ${challengeParticipants.userId})))`,
	);
}

/**
 * One page of a challenge's leaderboard, read along the board index, with the viewer's own row
 * pinned. Names show only for participants who chose to show them (and for the viewer).
 */
export async function leaderboard(
	deps: Deps,
	viewer: Viewer | null,
	challenge: ChallengeRow,
	options: { page?: number; pageSize?: number; friends?: boolean; view?: LeaderboardView },
) {
	if (options.friends && !viewer)
		throw new AppError('unauthenticated', 'Sign in to see your friends’ leaderboard.');
	const view = options.view ?? 'total';
	if (view === 'age_graded' && !isAgeGraded(challenge))
		throw new AppError('bad_request', 'Only running distance challenges have an age-graded board.', {
			detail: 'not_age_graded',
		});
	const graded = view === 'age_graded';
	const pageSize = options.pageSize ?? LEADERBOARD_PAGE_SIZE;
	const page = options.page ?? 1;
	const where = and(
		eq(challengeParticipants.challengeId, challenge.id),
		options.friends && viewer ? friendsCondition(viewer.id) : undefined,
	);
	// Everyone: the count join and leave keep. Friends: a few rows, counted.
	const total = options.friends
		? Number(
				(
					await deps.db.select({ total: sql<number>`count(*)::int` }).from(challengeParticipants).where(where)
				)[0].total,
			)
		: challenge.participantCount;
	// The page is read along the board index first; names are looked up for its rows alone.
	// The page is read from the board index alone (an index-only scan past the skipped rows); the
	// rest of each row and the names are looked up for the page's rows only.
	// The age-graded board reads its own index: best grade first, the ungraded last.
	const gradeOrder = sql`${challengeParticipants.ageGrade} desc nulls last`;
	// Each board reads only its own index's columns, so skipping rows is an index-only scan.
	const onPage = deps.db
		.select({
			userId: challengeParticipants.userId,
			progress: graded ? sql<number>`0`.as('progress') : challengeParticipants.progress,
			reachedAt: graded ? sql<Date>`null`.as('reached_at') : challengeParticipants.reachedAt,
			ageGrade: graded ? challengeParticipants.ageGrade : sql<number | null>`null`.as('age_grade'),
		})
		.from(challengeParticipants)
		.where(where)
		.orderBy(
			...(graded
				? [gradeOrder, asc(challengeParticipants.userId)]
				: [
						desc(challengeParticipants.progress),
						asc(challengeParticipants.reachedAt),
						asc(challengeParticipants.userId),
					]),
		)
		.limit(pageSize)
		.offset((page - 1) * pageSize)
		.as('on_page');
	const rows = await deps.db
		.select(boardColumns)
		.from(onPage)
		.innerJoin(
			challengeParticipants,
			and(
				eq(challengeParticipants.challengeId, challenge.id),
				eq(challengeParticipants.userId, onPage.userId),
			),
		)
		.innerJoin(users, eq(users.id, onPage.userId))
		.orderBy(
			...(graded
				? [sql`${onPage.ageGrade} desc nulls last`, asc(onPage.userId)]
				: [desc(onPage.progress), asc(onPage.reachedAt), asc(onPage.userId)]),
		);
	const metric = challenge.metric as ChallengeMetric;
	const toRow = (row: (typeof rows)[number], rank: number | null): LeaderboardRow => ({
		rank,
		name: viewer && row.userId === viewer.id ? row.displayName || row.username : athleteName(row),
		progress: row.progress,
		progressText: formatMetric(metric, row.progress),
		workoutCount: row.workoutCount,
		isMe: viewer !== null && row.userId === viewer.id,
		...(graded ? { ageGrade: ageGradeEntry(row), ungraded: ungradedReason(row) } : {}),
	});
	const results = rows.map((row, index) =>
		toRow(row, graded && row.ageGrade === null ? null : (page - 1) * pageSize + index + 1),
	);
	let me: LeaderboardRow | null = null;
	const shown = viewer ? results.find((row) => row.isMe) : undefined;
	if (shown) me = shown;
	else if (viewer) {
		const own = await participantOf(deps, challenge.id, viewer.id);
		if (own) {
			const friendsOf = options.friends ? viewer.id : undefined;
			const rank = graded ? await gradedRankOf(deps, own, friendsOf) : await rankOf(deps, own, friendsOf);
			const [mine] = await deps.db
				.select(boardColumns)
				.from(challengeParticipants)
				.innerJoin(users, eq(users.id, challengeParticipants.userId))
				.where(eq(challengeParticipants.id, own.id));
			me = toRow(mine, rank);
		}
	}
	return {
		currentPage: page,
		pageSize,
		totalPages: Math.max(1, Math.ceil(total / pageSize)),
		totalCount: total,
		view,
		results,
		me,
		teams: challenge.mode === 'team' ? await teamStandings(deps, challenge, viewer) : [],
	};
}

export type TeamStanding = {
	id: number;
	name: string;
	rank: number;
	progress: number;
	progressText: string;
	members: number;
	isMine: boolean;
};

/**
 * A team challenge's standings: every team by its members' total, tied teams sharing a place.
 * Teams are few (at most 20), their totals kept by every progress change.
 */
export async function teamStandings(
	deps: Deps,
	challenge: ChallengeRow,
	viewer: Viewer | null,
): Promise<TeamStanding[]> {
	const rows = await deps.db
		.select()
		.from(challengeTeams)
		.where(eq(challengeTeams.challengeId, challenge.id))
		.orderBy(desc(challengeTeams.progress), asc(challengeTeams.name));
	const own = viewer ? await participantOf(deps, challenge.id, viewer.id) : null;
	const metric = challenge.metric as ChallengeMetric;
	let rank = 0;
	return rows.map((row, index) => {
		if (index === 0 || row.progress < rows[index - 1].progress) rank = index + 1;
		return {
			id: row.id,
			name: row.name,
			rank,
			progress: row.progress,
			progressText: formatMetric(metric, row.progress),
			members: row.memberCount,
			isMine: own?.teamId === row.id,
		};
	});
}

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

/** The viewer's badges in a challenge: earned or still ahead. */
export async function challengeAwards(deps: Deps, viewer: Viewer | null, ref: string | number) {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to see your awards');
	const challenge = await findChallenge(deps, ref);
	const own = await participantOf(deps, challenge.id, viewer.id);
	return { challenge, awards: awardsFor(challenge, own?.progress ?? null), joined: own !== null };
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
