import { sql } from 'drizzle-orm';
import {
	boolean,
	check,
	date,
	doublePrecision,
	index,
	integer,
	jsonb,
	pgTable,
	primaryKey,
	serial,
	text,
	timestamp,
	uniqueIndex,
} from 'drizzle-orm/pg-core';
import { users } from '../../auth/server/tables';
import { workouts } from '../../workouts/server/tables';

/**
 * Challenges. The window is a range of local days: each participant's counts from the start of
 * `starts_on` to the end of `ends_on` on their own clock. Targets are in the metric's unit
 * (metres, seconds, workouts, kilocalories, metres climbed).
 */
export const challenges = pgTable(
	'challenges',
	{
		id: serial('id').primaryKey(),
		/** A name for the address of a named challenge, such as yvty2025. */
		slug: text('slug'),
		name: text('name').notNull(),
		description: text('description').notNull().default(''),
		metric: text('metric').notNull(),
		activityGroups: jsonb('activity_groups').$type<string[]>().notNull(),
		startsOn: date('starts_on', { mode: 'string' }).notNull(),
		endsOn: date('ends_on', { mode: 'string' }).notNull(),
		target: doublePrecision('target').notNull(),
		mode: text('mode').notNull().default('solo'),
		prizes: jsonb('prizes').$type<string[]>().notNull().default([]),
		/** Kept by join and leave, so a leaderboard page never counts everyone. */
		participantCount: integer('participant_count').notNull().default(0),
		awardThresholds: jsonb('award_thresholds').$type<number[]>().notNull().default([0.25, 0.5, 0.75, 1]),
		createdBy: integer('created_by').references(() => users.id, { onDelete: 'set null' }),
		createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
		/** Set when an admin ends a challenge before its last day. */
		endedAt: timestamp('ended_at', { withTimezone: true }),
	},
	(t) => [
		uniqueIndex('challenges_slug_idx').on(t.slug),
		index('challenges_ends_on_idx').on(t.endsOn),
		check(
			'challenges_metric_check',
			sql`${t.metric} in ('distance', 'duration', 'count', 'calories', 'climb')`,
		),
		check('challenges_mode_check', sql`${t.mode} in ('solo', 'team')`),
		check('challenges_dates_check', sql`${t.startsOn} <= ${t.endsOn}`),
	],
);

/**
 * A team challenge's teams, named by the admin. Each keeps its members' total and count, updated
 * whenever a member's progress or team changes, so standings never add up the whole field.
 */
export const challengeTeams = pgTable(
	'challenge_teams',
	{
		id: serial('id').primaryKey(),
		challengeId: integer('challenge_id')
			.notNull()
			.references(() => challenges.id, { onDelete: 'cascade' }),
		name: text('name').notNull(),
		progress: doublePrecision('progress').notNull().default(0),
		memberCount: integer('member_count').notNull().default(0),
	},
	(t) => [uniqueIndex('challenge_teams_name_idx').on(t.challengeId, t.name)],
);

/**
 * Who joined which challenge, with their progress kept current by every workout save. The board
 * index orders a challenge's participants as the leaderboard does, so a page and a rank are index
 * range reads. `reached_at` is when the participant reached their current total: ties go to whoever
 * got there first.
 */
export const challengeParticipants = pgTable(
	'challenge_participants',
	{
		id: serial('id').primaryKey(),
		challengeId: integer('challenge_id')
			.notNull()
			.references(() => challenges.id, { onDelete: 'cascade' }),
		userId: integer('user_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		/** The participant's zone when they joined: their window's days are in it. */
		timeZone: text('time_zone').notNull().default('UTC'),
		showName: boolean('show_name').notNull().default(false),
		progress: doublePrecision('progress').notNull().default(0),
		reachedAt: timestamp('reached_at', { withTimezone: true }).notNull(),
		workoutCount: integer('workout_count').notNull().default(0),
		/** Workouts in the window kept off the board for an impossible pace, awaiting the owner. */
		flaggedCount: integer('flagged_count').notNull().default(0),
		joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
		/** In a team challenge, the team the participant runs for. */
		teamId: integer('team_id').references(() => challengeTeams.id, { onDelete: 'set null' }),
		/**
		 * Running challenges: the best age grade (0.713 is 71.3 %) among the participant's counted
		 * runs, with that run's distance, time and age-graded time. Null while ungraded.
		 */
		ageGrade: doublePrecision('age_grade'),
		ageGradeMetres: doublePrecision('age_grade_metres'),
		ageGradeSeconds: doublePrecision('age_grade_seconds'),
		ageGradedSeconds: doublePrecision('age_graded_seconds'),
	},
	(t) => [
		uniqueIndex('challenge_participants_pair_idx').on(t.challengeId, t.userId),
		index('challenge_participants_board_idx').on(
			t.challengeId,
			// DESC NULLS FIRST is what `order by progress desc` reads; the index must match it exactly.
			t.progress.desc().nullsFirst(),
			t.reachedAt.asc(),
			t.userId.asc(),
		),
		index('challenge_participants_user_idx').on(t.userId),
		// The age-graded board: best grade first, the ungraded after everyone graded.
		index('challenge_participants_age_grade_idx').on(
			t.challengeId,
			t.ageGrade.desc().nullsLast(),
			t.userId.asc(),
		),
		// A team's total is an index-only sum over its members.
		index('challenge_participants_team_idx').on(t.teamId, t.progress),
	],
);

/** Workouts their owners confirmed after a pace faster than the world record flagged them. */
export const challengePaceConfirmations = pgTable(
	'challenge_pace_confirmations',
	{
		workoutId: integer('workout_id')
			.notNull()
			.references(() => workouts.id, { onDelete: 'cascade' }),
		ownerId: integer('owner_id')
			.notNull()
			.references(() => users.id, { onDelete: 'cascade' }),
		confirmedAt: timestamp('confirmed_at', { withTimezone: true }).notNull().defaultNow(),
	},
	(t) => [primaryKey({ columns: [t.workoutId] })],
);
