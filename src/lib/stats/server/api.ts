import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { ApiEnv } from '../../api/context';
import { both } from '../../api/hal';
import { validate } from '../../api/validate';
import { AppError } from '../../core/errors';
import { type LocalDate, localDateOf, parseDateKey } from '../calendar';
import {
	CalendarQuerySchema,
	LifetimeQuerySchema,
	RecordsQuerySchema,
	StatsQuerySchema,
	TrackHeatmapQuerySchema,
	TrainingLoadQuerySchema,
} from '../contract';
import { statsMember } from './facts';
import { personalRecords } from './records';
import { calendarMonth, lifetime, memberStats, statsQueryOf } from './service';
import { trackHeatmap } from './track-heatmap';
import { trainingLoad } from './training-load';
import { heartRateZoneWeeks } from './zones';

type Viewer = { id: number } | null;

function memberIdOf(viewer: Viewer, user: number | undefined): number {
	const id = user ?? viewer?.id;
	if (id === undefined)
		throw new AppError('validation_failed', 'Name the member', {
			failures: [{ field: 'user', message: 'user is required when not signed in.' }],
		});
	return id;
}

/** Stats per period, the dashboard calendar and lifetime totals, each for one member. */
export function createStatsApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/v7.1/workout_stats/')) {
		app.get(
			path,
			describeRoute({ summary: "A member's totals per week, month and year for the stats filters" }),
			validate('query', StatsQuerySchema),
			async (c) => {
				const query = c.req.valid('query');
				const { deps, viewer } = c.var;
				const member = await statsMember(deps, viewer, memberIdOf(viewer, query.user));
				const today = localDateOf(deps.clock(), member.timeZone);
				c.header('Cache-Control', 'private, no-cache');
				return c.json(await memberStats(deps, viewer, member, statsQueryOf(query, member, today)));
			},
		);
	}

	// Zones are health data: the member's own only, and only with MVP (403 premium_required).
	for (const path of both('/v7.1/workout_stats/zone_weeks/')) {
		app.get(
			path,
			describeRoute({
				summary:
					'Time in heart-rate zones per week for the stats filters, the eight weeks to the chosen date (MVP)',
			}),
			validate('query', StatsQuerySchema),
			async (c) => {
				const query = c.req.valid('query');
				const { deps, viewer } = c.var;
				if (!viewer) throw new AppError('unauthenticated', 'Log in to see your heart-rate zones');
				const member = await statsMember(deps, viewer, memberIdOf(viewer, query.user));
				const today = localDateOf(deps.clock(), member.timeZone);
				c.header('Cache-Control', 'private, no-store');
				return c.json(await heartRateZoneWeeks(deps, viewer, member, statsQueryOf(query, member, today)));
			},
		);
	}

	// Load is drawn from heart rate and perceived effort: the member's own only.
	for (const path of both('/v7.1/workout_stats/training_load/')) {
		app.get(
			path,
			describeRoute({
				summary:
					"The signed-in member's training load, fitness (42 days), fatigue (7 days) and form per day, the twelve weeks to the chosen date",
			}),
			validate('query', TrainingLoadQuerySchema),
			async (c) => {
				const { deps, viewer } = c.var;
				if (!viewer) throw new AppError('unauthenticated', 'Log in to see your fitness and form');
				const member = await statsMember(deps, viewer, viewer.id);
				const date = c.req.valid('query').date;
				// The schema let only a real day through.
				const end = date ? (parseDateKey(date) as LocalDate) : localDateOf(deps.clock(), member.timeZone);
				c.header('Cache-Control', 'private, no-store');
				return c.json(await trainingLoad(deps, viewer, member, end));
			},
		);
	}

	// Where the member goes, drawn from every workout: the member's own only, never anyone else's.
	for (const path of both('/v7.1/workout_heatmap/')) {
		app.get(
			path,
			describeRoute({
				summary:
					"The signed-in member's workout tracks as encoded polylines (precision 5) for the heatmap, privacy zones cut out",
			}),
			validate('query', TrackHeatmapQuerySchema),
			async (c) => {
				const query = c.req.valid('query');
				const { deps, viewer } = c.var;
				if (!viewer) throw new AppError('unauthenticated', 'Log in to see your heatmap');
				const member = await statsMember(deps, viewer, viewer.id);
				c.header('Cache-Control', 'private, no-store');
				return c.json(
					await trackHeatmap(deps, member, {
						groups: query.activity_groups ?? null,
						year: query.year ?? null,
					}),
				);
			},
		);
	}

	for (const path of both('/v7.1/workout_calendar/')) {
		app.get(path, validate('query', CalendarQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const { deps, viewer } = c.var;
			const member = await statsMember(deps, viewer, memberIdOf(viewer, query.user));
			const today = localDateOf(deps.clock(), member.timeZone);
			const [year, month] = query.month ? query.month.split('-').map(Number) : [today.year, today.month];
			c.header('Cache-Control', 'private, no-cache');
			return c.json(await calendarMonth(deps, viewer, member, year, month));
		});
	}

	for (const path of both('/v7.1/workout_lifetime/')) {
		app.get(path, validate('query', LifetimeQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const { deps, viewer } = c.var;
			const member = await statsMember(deps, viewer, memberIdOf(viewer, query.user));
			c.header('Cache-Control', 'private, no-cache');
			return c.json(await lifetime(deps, viewer, member, query.heatmap_year));
		});
	}

	for (const path of both('/v7.1/personal_records/')) {
		app.get(path, validate('query', RecordsQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const { deps, viewer } = c.var;
			const member = await statsMember(deps, viewer, memberIdOf(viewer, query.user));
			c.header('Cache-Control', 'private, no-cache');
			return c.json(await personalRecords(deps, viewer, member, query.workout));
		});
	}

	return app;
}
