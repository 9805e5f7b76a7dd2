import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { loadCalendarPage, loadStatsPage } from '../../../src/lib/stats/server/pages';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, createStatsTestApp, type Member, setMember, workoutPayload } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createStatsTestApp>;
let alice: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	// Wednesday 25 November 2026, mid-afternoon in Ljubljana.
	made = createStatsTestApp(database, new Date('2026-11-25T14:00:00Z'));
	alice = await addMember(made.deps, 'alice');
	await setMember(made.deps, alice.id, { timeZone: 'Europe/Ljubljana' });
});
afterAll(async () => {
	await database.close();
});

async function log(start: string, options: Parameters<typeof workoutPayload>[1] = {}, token = alice.token) {
	const answer = await callApi(made.app, 'POST', '/api/v7.1/workout/', {
		token,
		body: workoutPayload(start, options),
	});
	expect(answer.status).toBe(201);
	return answer.json.id as number;
}

describe('dashboard calendar', () => {
	test('a month of workouts on their local days, Monday-first weeks with totals, today marked', async () => {
		// 23:30 UTC is already the next day in Ljubljana (UTC+1 in winter).
		await log('2026-11-30T23:30:00Z', { km: 10 });
		await log('2026-11-02T06:00:00Z', { km: 5 });
		await log('2026-11-03T06:00:00Z', { km: 20, activity_type: 11 });
		await log('2026-10-31T23:30:00Z', { km: 3 });
		const november = await callApi(made.app, 'GET', '/api/v7.1/workout_calendar/?month=2026-11', {
			token: alice.token,
		});
		expect(november.status).toBe(200);
		expect(november.json).toMatchObject({
			month: '2026-11',
			today: '2026-11-25',
			previous: '2026-10',
			next: '2026-12',
		});
		// The grid runs from Monday 26 October to Sunday 6 December.
		expect(november.json.weeks[0].first).toBe('2026-10-26');
		expect(november.json.weeks.at(-1).days.at(-1)).toBe('2026-12-06');
		const days = november.json.workouts.map((w: { day: string }) => w.day);
		expect(days).toEqual(['2026-11-01', '2026-11-02', '2026-11-03', '2026-12-01']);
		expect(november.json.workouts[2]).toMatchObject({ group: 'ride', distance_m: 20000, time: '7:00 AM' });
		// The month's totals leave out the days of the grid outside it.
		expect(november.json.totals).toMatchObject({ count: 3, distance_m: 28000 });
		const firstWeek = november.json.weeks.find((w: { first: string }) => w.first === '2026-10-26');
		expect(firstWeek.totals).toMatchObject({ count: 1, distance_m: 3000 });
		const secondWeek = november.json.weeks.find((w: { first: string }) => w.first === '2026-11-02');
		expect(secondWeek.totals).toMatchObject({ count: 2, distance_m: 25000 });
	});

	test('refuses months that are not months', async () => {
		for (const month of ['2026-13', '2026-1', 'x', '2026-11%00', '99999-01']) {
			const answer = await callApi(made.app, 'GET', `/api/v7.1/workout_calendar/?month=${month}`, {
				token: alice.token,
			});
			expect(answer.status).toBe(400);
		}
	});
});

describe('stats', () => {
	test('week, month and year totals, filtered to runs, by week, ISO week and rolling week', async () => {
		await log('2026-11-22T10:00:00Z', { km: 10, minutes: 50 }); // Sunday
		await log('2026-11-23T10:00:00Z', { km: 5, minutes: 25 }); // Monday
		await log('2026-11-24T10:00:00Z', { km: 30, minutes: 60, activity_type: 11 }); // a ride
		await log('2026-11-19T10:00:00Z', { km: 8, minutes: 40 }); // Thursday before
		await log('2025-06-01T10:00:00Z', { km: 12, minutes: 60 });
		const base = '/api/v7.1/workout_stats/?activity_groups=run&date=2026-11-25';
		const byWeek = await callApi(made.app, 'GET', `${base}&week_type=week&week_start_day=0`, {
			token: alice.token,
		});
		expect(byWeek.status).toBe(200);
		// Weeks from Sunday: the 22nd to the 28th holds the Sunday and Monday runs.
		expect(byWeek.json.week).toMatchObject({ first: '2026-11-22', last: '2026-11-28' });
		expect(byWeek.json.week.totals).toMatchObject({
			count: 2,
			distance_m: 15000,
			duration_s: 4500,
			pace_s_per_km: 300,
		});
		const iso = await callApi(made.app, 'GET', `${base}&week_type=isoWeek&week_start_day=0`, {
			token: alice.token,
		});
		expect(iso.json.week).toMatchObject({ first: '2026-11-23', last: '2026-11-29' });
		expect(iso.json.week.totals).toMatchObject({ count: 1, distance_m: 5000 });
		expect(iso.json.weeks[0].label).toBe('2026-W01');
		const rolling = await callApi(made.app, 'GET', `${base}&week_type=rolling`, { token: alice.token });
		expect(rolling.json.week).toMatchObject({ first: '2026-11-19', last: '2026-11-25' });
		expect(rolling.json.week.totals).toMatchObject({ count: 3, distance_m: 23000 });
		expect(rolling.json.month.totals).toMatchObject({ count: 3, distance_m: 23000 });
		expect(rolling.json.year_totals.count).toBe(3);
		expect(rolling.json.years.map((y: { key: string }) => y.key)).toEqual(['2025-01-01', '2026-01-01']);
		expect(rolling.json.years[0].totals.count).toBe(1);
		expect(rolling.json.months).toHaveLength(12);
		expect(rolling.json.months[10].by_group.run.count).toBe(3);
		const all = await callApi(
			made.app,
			'GET',
			'/api/v7.1/workout_stats/?activity_groups=all,run&date=2026-11-25',
			{
				token: alice.token,
			},
		);
		expect(all.json.activity_groups).toBe('all');
		expect(all.json.month.totals).toMatchObject({ count: 4, distance_m: 53000 });
	});

	test('bars split by activity group on a time axis unless asked for one bar or the active periods only', async () => {
		await log('2026-11-23T10:00:00Z', { km: 5 }); // Monday
		await log('2026-11-24T10:00:00Z', { km: 30, activity_type: 11 }); // a ride
		await log('2026-09-08T10:00:00Z', { km: 8 });
		const stats = (query: string) =>
			callApi(made.app, 'GET', `/api/v7.1/workout_stats/?date=2026-11-25&week_start_day=1${query}`, {
				token: alice.token,
			});
		// The defaults: split type 2, every week of the year on the time axis, quiet ones included.
		const defaults = await stats('');
		expect(defaults.json).toMatchObject({ split_type: 2, time_series_x_axis_type: 'time' });
		expect(defaults.json.weeks).toHaveLength(53);
		expect(defaults.json.months).toHaveLength(12);
		const november = defaults.json.weeks.find((week: { key: string }) => week.key === '2026-11-23');
		expect(november.by_group).toMatchObject({ run: { count: 1 }, ride: { count: 1 } });
		expect(defaults.json).toEqual((await stats('&split_type=2&time_series_x_axis_type=time')).json);
		// One bar per period: the totals stay, the split by group goes.
		const together = await stats('&split_type=1');
		expect(together.status).toBe(200);
		expect(together.json.split_type).toBe(1);
		const togetherNovember = together.json.weeks.find((week: { key: string }) => week.key === '2026-11-23');
		expect(togetherNovember).toMatchObject({ by_group: {}, totals: { count: 2, distance_m: 35000 } });
		expect(
			together.json.months.every((month: { by_group: object }) => Object.keys(month.by_group).length === 0),
		).toBe(true);
		// Active periods only: the two active weeks and months, side by side; the averages still count every week.
		const active = await stats('&time_series_x_axis_type=active');
		expect(active.json.time_series_x_axis_type).toBe('active');
		expect(active.json.weeks.map((week: { key: string }) => week.key)).toEqual(['2026-09-07', '2026-11-23']);
		expect(active.json.months.map((month: { key: string }) => month.key)).toEqual([
			'2026-09-01',
			'2026-11-01',
		]);
		expect(active.json.years.map((year: { key: string }) => year.key)).toEqual(['2026-01-01']);
		expect(active.json.averages).toEqual(defaults.json.averages);
		expect(active.json.year_totals).toEqual(defaults.json.year_totals);
	});

	test('the stats page reads the filters from its address and offers every group the member has', async () => {
		await log('2026-11-23T10:00:00Z', { km: 5 });
		await log('2026-11-24T10:00:00Z', { km: 30, activity_type: 11 });
		const params = new URLSearchParams(
			'activity_groups=run&split_type=1&time_series_x_axis_type=active&week_start_day=0&date=2026-11-25',
		);
		const page = await loadStatsPage(made.deps, alice, params);
		expect(page.groups).toEqual(['ride', 'run']);
		expect(page.stats).toMatchObject({
			activity_groups: ['run'],
			split_type: 1,
			time_series_x_axis_type: 'active',
			week_start_day: 0,
			week: { first: '2026-11-22', totals: { count: 1 } },
		});
		expect(page.stats.weeks.map((week) => week.key)).toEqual(['2026-11-22']);
		// An address it cannot read shows the defaults rather than failing.
		const unread = await loadStatsPage(made.deps, alice, new URLSearchParams('split_type=7'));
		expect(unread.stats).toMatchObject({ split_type: 2, time_series_x_axis_type: 'time', week_start_day: 1 });
	});

	test('refuses filters it does not know', async () => {
		for (const query of [
			'activity_groups=running',
			'week_type=fortnight',
			'week_start_day=7',
			'year=20266',
			'date=2026-02-30',
			'date=%00',
			'activity_groups=run%00',
			'split_type=3',
			'split_type=0',
			'split_type=2.0',
			'split_type=',
			'split_type=two',
			'time_series_x_axis_type=distance',
			'time_series_x_axis_type=TIME',
			'time_series_x_axis_type=time%00',
		]) {
			const answer = await callApi(made.app, 'GET', `/api/v7.1/workout_stats/?${query}`, {
				token: alice.token,
			});
			expect(answer.status, query).toBe(400);
			const field = query.split('=')[0];
			expect(answer.json._diagnostics.validation_failures, query).toEqual([
				{ [field]: [expect.any(String)] },
			]);
		}
	});
});

describe('lifetime', () => {
	test('totals since the first workout by group and year, the longest, and a year of days', async () => {
		const long = await log('2024-05-01T08:00:00Z', { km: 42.2, minutes: 240 });
		const fast = await log('2025-05-01T08:00:00Z', { km: 5, minutes: 20 });
		await log('2026-05-01T08:00:00Z', { km: 80, minutes: 200, activity_type: 11 });
		await log('2026-05-01T18:00:00Z', { km: 3, minutes: 20 });
		const answer = await callApi(made.app, 'GET', '/api/v7.1/workout_lifetime/?heatmap_year=2026', {
			token: alice.token,
		});
		expect(answer.status).toBe(200);
		expect(answer.json.since).toBe('2024-05-01');
		expect(answer.json.totals).toMatchObject({ count: 4 });
		expect(answer.json.by_group.map((g: { group: string }) => g.group)).toEqual(['run', 'ride']);
		expect(answer.json.years.map((y: { key: string }) => y.key)).toEqual([
			'2026-01-01',
			'2025-01-01',
			'2024-01-01',
		]);
		expect(answer.json.longest).toMatchObject({ distance_m: 80000, group: 'ride' });
		expect(answer.json.longest_time).toMatchObject({ id: long, duration_s: 14400 });
		expect(answer.json.fastest).toMatchObject({ id: fast, pace_s_per_km: 240 });
		expect(answer.json.heatmap.days).toEqual([
			{ day: '2026-05-01', count: 2, distance_m: 83000, duration_s: 13200 },
		]);
		expect(answer.json.heatmap_years).toEqual([2026, 2025, 2024]);
	});
});

describe('privacy', () => {
	test("others see a member's stats only as their workout privacy allows, and only the workouts they may see", async () => {
		const friend = await addMember(made.deps, 'friend');
		const stranger = await addMember(made.deps, 'stranger');
		await befriend(made.deps, alice, friend);
		await log('2026-11-20T10:00:00Z', { km: 7, privacy: 0 });
		await log('2026-11-21T10:00:00Z', { km: 4, privacy: 1 });
		await log('2026-11-22T10:00:00Z', { km: 2, privacy: 3 });
		const paths = [
			`/api/v7.1/workout_stats/?user=${alice.id}&date=2026-11-25`,
			`/api/v7.1/workout_calendar/?user=${alice.id}&month=2026-11`,
			`/api/v7.1/workout_lifetime/?user=${alice.id}`,
		];
		for (const path of paths)
			for (const token of [friend.token, stranger.token, undefined]) {
				const answer = await callApi(made.app, 'GET', path, { token });
				expect(answer.status, path).toBe(404);
			}
		// The profile's calendar page follows the same rule.
		const calendarFor = (viewer: typeof alice, memberId: number) =>
			loadCalendarPage(made.deps, viewer, memberId, new URLSearchParams());
		expect(await calendarFor(friend, alice.id)).toBeNull();
		expect(await calendarFor(alice, alice.id)).not.toBeNull();
		await setMember(made.deps, alice.id, { workoutPrivacy: 1 });
		expect(await calendarFor(friend, alice.id)).not.toBeNull();
		expect(await calendarFor(stranger, alice.id)).toBeNull();
		expect(await calendarFor(friend, 999_999)).toBeNull();
		const calendar = await callApi(made.app, 'GET', paths[1], { token: friend.token });
		expect(calendar.status).toBe(200);
		expect(calendar.json.totals).toMatchObject({ count: 2, distance_m: 6000 });
		expect(JSON.stringify(calendar.json)).not.toContain('7000');
		const lifetime = await callApi(made.app, 'GET', paths[2], { token: friend.token });
		expect(lifetime.json.totals.count).toBe(2);
		for (const path of paths)
			expect((await callApi(made.app, 'GET', path, { token: stranger.token })).status).toBe(404);
		await setMember(made.deps, alice.id, { workoutPrivacy: 3 });
		const anonymous = await callApi(made.app, 'GET', paths[0], {});
		expect(anonymous.status).toBe(200);
		expect(anonymous.json.month.totals).toMatchObject({ count: 1, distance_m: 2000 });
	});
});
