// A challenge's leaderboards (total, friends, age-graded) read along their indexes with the
// viewer's row pinned, participants' places and team standings.

import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import { friendships } from '../../social/server/tables';
import { formatDuration } from '../../workouts/detail-format';
import { formatGrade } from '../age-grade';
import {
	type ChallengeMetric,
	formatMetric,
	isAgeGraded,
	LEADERBOARD_PAGE_SIZE,
	type LeaderboardView,
} from '../contract';
import { type ChallengeRow, type Deps, type ParticipantRow, participantOf } from './challenge';
import { challengeParticipants, challengeTeams } from './tables';

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

export function ageGradeEntry(row: BoardRow): AgeGradeEntry | null {
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
