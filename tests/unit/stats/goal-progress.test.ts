import { describe, expect, test } from 'vitest';
import { type ProgressWorkout, weeklyProgress } from '../../../src/lib/goals/progress';

const run = (start: string, km: number, minutes = 30): ProgressWorkout => ({
	start: new Date(start),
	distanceM: km * 1000,
	durationS: minutes * 60,
	energyJ: 4184 * 300,
});

describe('weekly goal progress', () => {
	test('counts a run at 23:30 on Sunday, local time, for the week it ends', () => {
		const weeks = weeklyProgress({
			metric: 'distance',
			target: 20_000,
			timeZone: 'America/New_York',
			weekStartDay: 1,
			goalStart: new Date('2026-11-16T15:00:00Z'),
			goalEnd: null,
			now: new Date('2026-11-24T15:00:00Z'),
			workouts: [
				run('2026-11-18T12:00:00Z', 12),
				// Sunday 22 November 23:30 in New York is Monday 04:30 UTC.
				run('2026-11-23T04:30:00Z', 8),
				run('2026-11-24T12:00:00Z', 5),
			],
		});
		expect(weeks.map((week) => week.week.key)).toEqual(['2026-11-23', '2026-11-16']);
		expect(weeks[1]).toMatchObject({ value: 20_000, met: true, workoutCount: 2, current: false });
		expect(weeks[0]).toMatchObject({ value: 5000, met: false, workoutCount: 1, current: true });
	});

	test('the same run counts for the next week in a zone where it is already Monday', () => {
		const weeks = weeklyProgress({
			metric: 'count',
			target: 1,
			timeZone: 'Europe/Ljubljana',
			weekStartDay: 1,
			goalStart: new Date('2026-11-16T15:00:00Z'),
			goalEnd: null,
			now: new Date('2026-11-24T15:00:00Z'),
			workouts: [run('2026-11-22T23:30:00Z', 5)],
		});
		expect(weeks[0]).toMatchObject({ current: true, value: 1, met: true });
		expect(weeks[1]).toMatchObject({ value: 0, met: false });
	});

	test('weeks across a daylight-saving change keep their local edges', () => {
		// Berlin moves to summer time on Sunday 29 March 2026; a run at 23:30 that Sunday (21:30 UTC)
		// belongs to the week of 23 March, one at 00:30 on Monday (22:30 UTC) to the next.
		const weeks = weeklyProgress({
			metric: 'duration',
			target: 3600,
			timeZone: 'Europe/Berlin',
			weekStartDay: 1,
			goalStart: new Date('2026-03-23T08:00:00Z'),
			goalEnd: null,
			now: new Date('2026-04-01T08:00:00Z'),
			workouts: [run('2026-03-29T21:30:00Z', 5, 40), run('2026-03-29T22:30:00Z', 5, 40)],
		});
		expect(weeks.map((week) => [week.week.key, week.value])).toEqual([
			['2026-03-30', 2400],
			['2026-03-23', 2400],
		]);
		expect(weeks[1].week.end.toISOString()).toBe('2026-03-29T22:00:00.000Z');
	});

	test('a stopped goal ends with the week it was stopped in', () => {
		const weeks = weeklyProgress({
			metric: 'calories',
			target: 500,
			timeZone: 'UTC',
			weekStartDay: 1,
			goalStart: new Date('2026-10-01T00:00:00Z'),
			goalEnd: new Date('2026-10-14T00:00:00Z'),
			now: new Date('2026-11-24T00:00:00Z'),
			workouts: [run('2026-10-06T10:00:00Z', 5), run('2026-10-07T10:00:00Z', 5)],
		});
		expect(weeks.map((week) => week.week.key)).toEqual(['2026-10-12', '2026-10-05', '2026-09-28']);
		expect(weeks[1]).toMatchObject({ value: 600, met: true });
		expect(weeks.every((week) => !week.current)).toBe(true);
	});

	test('with weeks from Sunday, a Sunday-evening run opens the next week instead of closing one', () => {
		const options = {
			metric: 'count' as const,
			target: 1,
			timeZone: 'America/New_York',
			goalStart: new Date('2026-11-16T15:00:00Z'),
			goalEnd: null,
			now: new Date('2026-11-24T15:00:00Z'),
			// Sunday 22 November 23:30 in New York.
			workouts: [run('2026-11-23T04:30:00Z', 8)],
		};
		const sunday = weeklyProgress({ ...options, weekStartDay: 0 });
		expect(sunday[0]).toMatchObject({ current: true, value: 1, met: true });
		expect(sunday[0].week.key).toBe('2026-11-22');
		const monday = weeklyProgress({ ...options, weekStartDay: 1 });
		expect(monday[0]).toMatchObject({ current: true, value: 0 });
		expect(monday[1]).toMatchObject({ value: 1, met: true });
		expect(monday[1].week.key).toBe('2026-11-16');
	});
});
