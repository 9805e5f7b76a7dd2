import * as v from 'valibot';
import { halBody } from '../api/hal-links';
import { idNumber, idText } from '../core/integers';
import { ACTIVITY_GROUPS, type ActivityGroup } from '../workouts/activity-groups';

/** Only weekly goals are kept. */
export const GOAL_PERIODS = ['P1W'] as const;
export const GOAL_METRICS = ['distance', 'duration', 'calories', 'count'] as const;
export type GoalMetric = (typeof GOAL_METRICS)[number];
export const GOAL_STATUSES = ['active', 'abandoned'] as const;
export type GoalStatus = (typeof GOAL_STATUSES)[number];

/** What each metric's threshold is measured in: metres, seconds, kilocalories, workouts. */
export const GOAL_METRIC_LABELS: Record<GoalMetric, string> = {
	distance: 'Distance',
	duration: 'Duration',
	calories: 'Calories',
	count: 'Workouts',
};

/** Upper bounds that keep a threshold a real week's worth (10,000 km, a whole week, …). */
export const GOAL_MAX_THRESHOLD: Record<GoalMetric, number> = {
	distance: 10_000_000,
	duration: 7 * 24 * 3600,
	calories: 1_000_000,
	count: 1000,
};

/** Goals a member may have running at once. */
export const MAX_ACTIVE_GOALS = 20;

export const GOAL_GROUPS = ['all', ...ACTIVITY_GROUPS] as const;
export type GoalGroup = 'all' | ActivityGroup;

/** A goal is set for the caller: `_links.user`, when a client sends it, must name them. */
export const GoalCreateSchema = v.pipe(
	halBody(
		{
			period: v.picklist(GOAL_PERIODS, 'Only weekly goals (period P1W) are kept.'),
			criteria: v.strictObject({
				threshold_metrics: v.strictObject({
					data_type_field: v.picklist(
						GOAL_METRICS,
						'data_type_field is distance, duration, calories or count.',
					),
					value: v.pipe(
						v.number('value must be a number.'),
						v.finite(),
						v.gtValue(0, 'value must be above 0.'),
					),
				}),
				activity_group: v.optional(v.picklist(GOAL_GROUPS, 'activity_group is not a known group.'), 'all'),
			}),
		},
		{ user: { kind: 'user' } },
		['self'],
	),
	v.forward(
		v.check(
			(input) =>
				input.criteria.threshold_metrics.value <=
				GOAL_MAX_THRESHOLD[input.criteria.threshold_metrics.data_type_field],
			'value is more than a week could hold.',
		),
		['criteria', 'threshold_metrics'],
	),
);
export type GoalCreateInput = v.InferOutput<typeof GoalCreateSchema>;

/** A client may send back the goal's links; `_links.user` must still name the caller. */
export const GoalPatchSchema = halBody(
	{ status: v.picklist(['abandoned'], 'A goal can only be stopped (status abandoned).') },
	{ user: { kind: 'user' } },
	['self'],
);

export const GoalIdParamSchema = v.object({
	id: idText('id must be a goal id'),
});

const MemberId = idNumber('user must be a member id');

export const GoalListQuerySchema = v.object({
	user: v.optional(MemberId),
	status: v.optional(v.picklist(GOAL_STATUSES, 'status is active or abandoned.')),
});
export type GoalListQuery = v.InferOutput<typeof GoalListQuerySchema>;

export const GoalProgressQuerySchema = v.object({
	user: v.optional(MemberId),
	goal: v.optional(idNumber('goal must be a goal id')),
	weeks: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^\d{1,3}$/, 'weeks must be a whole number.'),
			v.transform(Number),
			v.minValue(1, 'weeks must be at least 1.'),
			v.maxValue(104, 'weeks must be at most 104.'),
		),
	),
});
export type GoalProgressQuery = v.InferOutput<typeof GoalProgressQuerySchema>;

/** A goal as the API shows it. */
export type GoalView = {
	id: number;
	_links: { self: { href: string; id: string }[]; user: { href: string; id: string }[] };
	user_id: number;
	status: GoalStatus;
	period: 'P1W';
	start_datetime: string;
	end_datetime: string | null;
	criteria: { threshold_metrics: { data_type_field: GoalMetric; value: number }; activity_group: GoalGroup };
	time_zone: string;
	progress: WeekProgressView | null;
	performance: { weeks_met: number; weeks_missed: number };
};

export type WeekProgressView = {
	week_start: string;
	start_datetime: string;
	end_datetime: string;
	value: number;
	target: number;
	percent: number;
	met: boolean;
	workout_count: number;
	current: boolean;
};
