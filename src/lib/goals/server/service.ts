import { and, count, desc, eq } from 'drizzle-orm';
import { link } from '../../api/hal';
import { checkFeature } from '../../billing/features';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { syncMemberStories } from '../../social/server/member-stories';
import { type StatsMember, statsMember, workoutFacts } from '../../stats/server/facts';
import { activityTypeGroup } from '../../workouts/server/activity-types';
import {
	GOAL_METRIC_LABELS,
	type GoalCreateInput,
	type GoalGroup,
	type GoalListQuery,
	type GoalMetric,
	type GoalStatus,
	type GoalView,
	MAX_ACTIVE_GOALS,
	type WeekProgressView,
} from '../contract';
import { MAX_PROGRESS_WEEKS, type WeekProgress, weeklyProgress } from '../progress';
import { userGoals } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number } | null;
export type GoalRow = typeof userGoals.$inferSelect;

export type GoalWithWeeks = { goal: GoalRow; weeks: WeekProgress[] };

export async function createGoal(
	deps: Deps,
	viewer: { id: number },
	input: GoalCreateInput,
): Promise<GoalRow> {
	const [active] = await deps.db
		.select({ n: count() })
		.from(userGoals)
		.where(and(eq(userGoals.ownerId, viewer.id), eq(userGoals.status, 'active')));
	if ((active?.n ?? 0) >= MAX_ACTIVE_GOALS)
		throw new AppError('conflict', `You can have at most ${MAX_ACTIVE_GOALS} goals running; stop one first.`);
	const now = deps.clock();
	const [row] = await deps.db
		.insert(userGoals)
		.values({
			ownerId: viewer.id,
			period: input.period,
			metric: input.criteria.threshold_metrics.data_type_field,
			threshold: input.criteria.threshold_metrics.value,
			activityGroup: input.criteria.activity_group,
			status: 'active',
			startDatetime: now,
			createdAt: now,
			updatedAt: now,
		})
		.returning();
	// The week may already be met by the workouts in it.
	await refreshGoalStoriesQuietly(deps, viewer.id);
	return row;
}

/**
 * Sets the weekly goals a training plan starts with. A goal the member already runs with the same
 * target is kept rather than doubled, so following a plan twice changes nothing. Plans are MVP.
 */
export async function followPlan(
	deps: Deps,
	viewer: { id: number; isPremium: boolean },
	inputs: readonly GoalCreateInput[],
): Promise<{ created: GoalRow[]; kept: number }> {
	if (!checkFeature(viewer, 'training_plans'))
		throw new AppError('forbidden', 'Following a training plan is part of MVP.', {
			detail: 'premium_required',
		});
	const active = await deps.db
		.select()
		.from(userGoals)
		.where(and(eq(userGoals.ownerId, viewer.id), eq(userGoals.status, 'active')));
	const fresh = inputs.filter(
		(input) =>
			!active.some(
				(goal) =>
					goal.metric === input.criteria.threshold_metrics.data_type_field &&
					goal.threshold === input.criteria.threshold_metrics.value &&
					goal.activityGroup === input.criteria.activity_group,
			),
	);
	if (active.length + fresh.length > MAX_ACTIVE_GOALS)
		throw new AppError(
			'conflict',
			`You can have at most ${MAX_ACTIVE_GOALS} goals running; stop ${active.length + fresh.length - MAX_ACTIVE_GOALS} first.`,
		);
	const created: GoalRow[] = [];
	for (const input of fresh) created.push(await createGoal(deps, viewer, input));
	return { created, kept: inputs.length - fresh.length };
}

/** The member a goal belongs to; not_found when there is no such goal. */
export async function findGoalOwner(deps: Deps, id: number): Promise<number> {
	const [row] = await deps.db
		.select({ ownerId: userGoals.ownerId })
		.from(userGoals)
		.where(eq(userGoals.id, id));
	if (!row) throw new AppError('not_found', 'No such goal');
	return row.ownerId;
}

/** Stops a goal: status abandoned, ended now. Only the owner; others are told it does not exist. */
export async function abandonGoal(deps: Deps, viewer: { id: number }, id: number): Promise<GoalRow> {
	const [row] = await deps.db.select().from(userGoals).where(eq(userGoals.id, id));
	if (!row || row.ownerId !== viewer.id) throw new AppError('not_found', 'No such goal');
	if (row.status === 'abandoned') return row;
	const now = deps.clock();
	const [updated] = await deps.db
		.update(userGoals)
		.set({ status: 'abandoned', endDatetime: now, updatedAt: now })
		.where(eq(userGoals.id, id))
		.returning();
	// Workouts after the stop no longer count: the week it stopped in may no longer be met.
	await refreshGoalStoriesQuietly(deps, viewer.id);
	return updated;
}

/**
 * A member's goals the viewer may see, newest first, each with its weeks of progress. Goals follow
 * the member's workout privacy, and only workouts the viewer may see are counted.
 */
export async function listGoalsWithProgress(
	deps: Deps,
	viewer: Viewer,
	query: GoalListQuery & { goal?: number; weeks?: number },
): Promise<{ member: StatsMember; goals: GoalWithWeeks[] }> {
	const memberId = query.user ?? viewer?.id;
	if (memberId === undefined)
		throw new AppError('validation_failed', 'Name the member whose goals to read', {
			failures: [{ field: 'user', message: 'user is required when not signed in.' }],
		});
	const member = await statsMember(deps, viewer, memberId);
	const conditions = [eq(userGoals.ownerId, member.id)];
	if (query.status) conditions.push(eq(userGoals.status, query.status));
	if (query.goal !== undefined) conditions.push(eq(userGoals.id, query.goal));
	const rows = await deps.db
		.select()
		.from(userGoals)
		.where(and(...conditions))
		.orderBy(desc(userGoals.startDatetime), desc(userGoals.id));
	if (query.goal !== undefined && rows.length === 0) throw new AppError('not_found', 'No such goal');
	if (rows.length === 0) return { member, goals: [] };
	const now = deps.clock();
	const earliest = new Date(Math.min(now.getTime(), ...rows.map((row) => row.startDatetime.getTime())));
	// A week before the earliest start covers the local week it began in, whatever the zone.
	const facts = await workoutFacts(deps, viewer, member, {
		from: new Date(earliest.getTime() - 8 * 86_400_000),
	});
	const goals = rows.map((goal) => {
		const group = goal.activityGroup as GoalGroup;
		const matching =
			group === 'all' ? facts : facts.filter((fact) => activityTypeGroup(fact.activityTypeId) === group);
		const end = goal.endDatetime;
		return {
			goal,
			weeks: weeklyProgress({
				metric: goal.metric as GoalMetric,
				target: goal.threshold,
				timeZone: member.timeZone,
				weekStartDay: member.weekStartDay,
				goalStart: goal.startDatetime,
				goalEnd: end,
				now,
				workouts: end ? matching.filter((fact) => fact.start < end) : matching,
				maxWeeks: query.weeks,
			}),
		};
	});
	return { member, goals };
}

export function representWeek(week: WeekProgress): WeekProgressView {
	return {
		week_start: week.week.key,
		start_datetime: formatApiDateTime(week.week.start),
		end_datetime: formatApiDateTime(week.week.end),
		value: Math.round(week.value * 100) / 100,
		target: week.target,
		percent: week.target > 0 ? Math.min(999, Math.round((week.value / week.target) * 100)) : 0,
		met: week.met,
		workout_count: week.workoutCount,
		current: week.current,
	};
}

export function representGoal(entry: GoalWithWeeks, timeZone: string): GoalView {
	const { goal, weeks } = entry;
	const finished = weeks.filter((week) => !week.current);
	return {
		id: goal.id,
		_links: { self: link('user_goal', goal.id), user: link('user', goal.ownerId) },
		user_id: goal.ownerId,
		status: goal.status as GoalStatus,
		period: 'P1W',
		start_datetime: formatApiDateTime(goal.startDatetime),
		end_datetime: goal.endDatetime ? formatApiDateTime(goal.endDatetime) : null,
		criteria: {
			threshold_metrics: { data_type_field: goal.metric as GoalMetric, value: goal.threshold },
			activity_group: goal.activityGroup as GoalGroup,
		},
		time_zone: timeZone,
		progress: goal.status === 'active' && weeks[0]?.current ? representWeek(weeks[0]) : null,
		performance: {
			weeks_met: finished.filter((week) => week.met).length,
			weeks_missed: finished.filter((week) => !week.met).length,
		},
	};
}

/**
 * Brings a member's "completed their weekly goal" stories in line with their goals: one story per
 * goal and met week, as the member's own goals page counts them (every workout of theirs). A week
 * that fell below its target takes its story out of the feed; reaching it again brings it back.
 */
export async function refreshGoalStories(deps: Deps, ownerId: number): Promise<void> {
	const { goals } = await listGoalsWithProgress(deps, { id: ownerId }, {});
	for (const { goal, weeks } of goals) {
		const metric = goal.metric as GoalMetric;
		// A goal older than the weeks read keeps the stories of its earlier weeks.
		const fromPeriod = weeks.length >= MAX_PROGRESS_WEEKS ? weeks.at(-1)?.week.key : undefined;
		await syncMemberStories(
			deps,
			{ actorId: ownerId, type: 'goal', subjectId: goal.id, fromPeriod },
			weeks.flatMap((week) =>
				week.met && week.metAt
					? [
							{
								period: week.week.key,
								publishedAt: week.metAt,
								title: `Weekly ${GOAL_METRIC_LABELS[metric].toLowerCase()} goal`,
								details: {
									type: 'goal' as const,
									goal_id: goal.id,
									metric,
									target: goal.threshold,
									activity_group: goal.activityGroup,
									week_start: week.week.key,
								},
							},
						]
					: [],
			),
		);
	}
}

/** The goal stories follow a workout change; a failure is logged, never the workout's failure. */
export async function refreshGoalStoriesQuietly(
	deps: Deps & Partial<Pick<AppDeps, 'logger'>>,
	ownerId: number,
): Promise<void> {
	try {
		await refreshGoalStories(deps, ownerId);
	} catch (error) {
		deps.logger?.error({ err: error, ownerId }, 'goal stories refresh failed');
	}
}
