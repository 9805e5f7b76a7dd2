import * as v from 'valibot';
import { idNumber } from '../core/integers';
import { formatOneDecimal, formatWholeNumber } from '../core/numbers';
import { multiLineText, singleLineText } from '../core/text';
import { isListedTimeZone } from '../core/time-zones';
import { ACTIVITY_GROUPS } from '../workouts/activity-groups';

/** What a challenge adds up from each counted workout. */
export const CHALLENGE_METRICS = ['distance', 'duration', 'count', 'calories', 'climb'] as const;
export type ChallengeMetric = (typeof CHALLENGE_METRICS)[number];
export const CHALLENGE_MODES = ['solo', 'team'] as const;
export type ChallengeMode = (typeof CHALLENGE_MODES)[number];

/** The sports the challenge list filters by: the activity groups challenges count. */
export const CHALLENGE_SPORTS = ['run', 'ride', 'walk', 'hike', 'swim'] as const;
export type ChallengeSport = (typeof CHALLENGE_SPORTS)[number];

/** Leaderboard views: by the metric's total, or (running challenges) by each participant's best age grade. */
export const LEADERBOARD_VIEWS = ['total', 'age_graded'] as const;
export type LeaderboardView = (typeof LEADERBOARD_VIEWS)[number];
export const MAX_TEAMS = 20;

/** Running distance challenges get an age-graded board beside the totals. */
export function isAgeGraded(challenge: { metric: string; activityGroups: readonly string[] }): boolean {
	return challenge.metric === 'distance' && challenge.activityGroups.includes('run');
}

export const LEADERBOARD_PAGE_SIZE = 25;
export const MAX_LEADERBOARD_PAGE_SIZE = 100;
export const MAX_LEADERBOARD_PAGE = 100_000;
/** Badges at these fractions of the target, unless a challenge names its own. */
export const DEFAULT_AWARD_THRESHOLDS = [0.25, 0.5, 0.75, 1];

/** A challenge's numeric id, or the slug of a named one such as yvty2025. */
export const ChallengeRefSchema = v.pipe(
	v.string(),
	v.regex(
		/^(\d{1,9}|[a-z][a-z0-9-]{1,39})$/,
		'Challenge must be an id or a challenge name such as yvty2025.',
	),
);

const TimeZoneSchema = v.pipe(
	v.string(),
	v.maxLength(64),
	v.check(isListedTimeZone, 'timezone must be an IANA zone such as Europe/Paris.'),
);
const IdString = (name: string) => idNumber(`${name} must be a whole number.`);
const PositiveInt = (name: string, max: number) =>
	v.pipe(
		v.string(),
		v.regex(/^\d{1,7}$/, `${name} must be a whole number.`),
		v.transform(Number),
		v.minValue(1, `${name} must be at least 1.`),
		v.maxValue(max, `${name} must be at most ${max}.`),
	);

export const ChallengeParamSchema = v.object({ id: ChallengeRefSchema });
export const ChallengeUserParamSchema = v.object({ id: ChallengeRefSchema, userId: IdString('userId') });
export const ChallengeWorkoutParamSchema = v.object({
	id: ChallengeRefSchema,
	workoutId: IdString('workoutId'),
});

export const ChallengeListQuerySchema = v.object({
	user: v.optional(IdString('user')),
	timezone: v.optional(TimeZoneSchema),
	sport: v.optional(v.picklist(CHALLENGE_SPORTS, 'sport must be one of run, ride, walk, hike or swim.')),
});
export type ChallengeListQuery = v.InferOutput<typeof ChallengeListQuerySchema>;

export const ChallengeDetailsQuerySchema = v.object({
	mmfUserId: v.optional(IdString('mmfUserId')),
	timezone: v.optional(TimeZoneSchema),
});

export const LeaderboardQuerySchema = v.object({
	page: v.optional(PositiveInt('page', MAX_LEADERBOARD_PAGE)),
	page_size: v.optional(PositiveInt('page_size', MAX_LEADERBOARD_PAGE_SIZE)),
	friends: v.optional(v.picklist(['0', '1', 'true', 'false'], 'friends must be true or false.')),
	view: v.optional(
		v.pipe(
			v.picklist(LEADERBOARD_VIEWS, 'view must be total or age_graded.'),
			v.description(
				'total (default) ranks by the challenge metric; age_graded (running distance challenges) ranks by each participant’s best age-graded run (WMA / Alan Jones 2020 road tables), the ungraded listed last.',
			),
		),
	),
});
export type LeaderboardQuery = v.InferOutput<typeof LeaderboardQuerySchema>;

/** Joining: whether the member's name shows on the leaderboard (otherwise "Athlete #n"). */
export const JoinBodySchema = v.object({
	show_name: v.optional(v.boolean()),
	/** In a team challenge, the team to run for (one of the challenge's teams). */
	team_id: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_147_483_647))),
});
export type JoinInput = v.InferOutput<typeof JoinBodySchema>;

const DateString = v.pipe(v.string(), v.isoDate('Dates are YYYY-MM-DD.'));

/** What an admin sets when creating or editing a challenge. */
export const ChallengeInputSchema = v.pipe(
	v.object({
		slug: v.optional(v.pipe(v.string(), v.regex(/^[a-z][a-z0-9-]{1,39}$/))),
		name: singleLineText('name', 120),
		description: v.optional(multiLineText('description', 2000), ''),
		metric: v.picklist(CHALLENGE_METRICS),
		activity_groups: v.pipe(v.array(v.picklist(ACTIVITY_GROUPS)), v.minLength(1), v.maxLength(15)),
		starts_on: DateString,
		ends_on: DateString,
		target: v.pipe(v.number(), v.minValue(0.001), v.maxValue(1e9)),
		mode: v.optional(v.picklist(CHALLENGE_MODES), 'solo'),
		prizes: v.optional(v.pipe(v.array(singleLineText('prize', 200)), v.maxLength(10)), []),
		award_thresholds: v.optional(
			v.pipe(v.array(v.pipe(v.number(), v.minValue(0.01), v.maxValue(10))), v.minLength(1), v.maxLength(10)),
		),
		/** A team challenge's team names; members pick one when they join. */
		teams: v.optional(
			v.pipe(
				v.array(v.pipe(singleLineText('team', 60), v.trim(), v.minLength(1, 'A team needs a name.'))),
				v.maxLength(MAX_TEAMS, `At most ${MAX_TEAMS} teams.`),
			),
			[],
		),
	}),
	v.check((input) => input.starts_on <= input.ends_on, 'A challenge ends on or after the day it starts.'),
	v.check((input) => input.mode === 'team' || input.teams.length === 0, 'Only a team challenge has teams.'),
	v.check(
		(input) => input.mode === 'solo' || input.teams.length >= 2,
		'A team challenge needs at least two teams.',
	),
	v.check((input) => new Set(input.teams).size === input.teams.length, 'Two teams may not share a name.'),
);
export type ChallengeInput = v.InferOutput<typeof ChallengeInputSchema>;

/** Units a metric's totals are kept in: metres, seconds, workouts, kilocalories, metres climbed. */
export const METRIC_LABELS: Record<ChallengeMetric, string> = {
	distance: 'Distance',
	duration: 'Time',
	count: 'Workouts',
	calories: 'Calories',
	climb: 'Climb',
};

/** A metric's total as people read it: km, hours, workouts, kcal or metres. */
export function formatMetric(metric: ChallengeMetric, value: number): string {
	switch (metric) {
		case 'distance':
			return `${formatOneDecimal(value / 1000)} km`;
		case 'duration':
			return `${formatOneDecimal(value / 3600)} h`;
		case 'count':
			return `${Math.round(value)} ${Math.round(value) === 1 ? 'workout' : 'workouts'}`;
		case 'calories':
			return `${formatWholeNumber(value)} kcal`;
		case 'climb':
			return `${formatWholeNumber(value)} m`;
	}
}
