import { Hono } from 'hono';
import type { ApiEnv } from '../../api/context';
import { both } from '../../api/hal';
import { validate } from '../../api/validate';
import { AppError } from '../../core/errors';
import { localDateOf, parseDateKey, type WeekDay } from '../calendar';
import { CalendarQuerySchema, LifetimeQuerySchema, RecordsQuerySchema, StatsQuerySchema } from '../contract';
import { statsMember } from './facts';
import { personalRecords } from './records';
import { calendarMonth, lifetime, memberStats } from './service';

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
		app.get(path, validate('query', StatsQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const { deps, viewer } = c.var;
			const member = await statsMember(deps, viewer, memberIdOf(viewer, query.user));
			const today = localDateOf(deps.clock(), member.timeZone);
			const date = query.date ? (parseDateKey(query.date) ?? today) : today;
			c.header('Cache-Control', 'private, no-cache');
			return c.json(
				await memberStats(deps, viewer, member, {
					groups: query.activity_groups ?? null,
					weekType: query.week_type ?? 'week',
					weekStartDay: (query.week_start_day ?? member.weekStartDay) as WeekDay,
					year: query.year ?? date.year,
					date,
				}),
			);
		});
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
