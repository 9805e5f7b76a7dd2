import { describe, expect, test } from 'vitest';
import { readGoalForm } from '../../../src/lib/goals/server/forms';
import { bucketise, bucketStart, type DayRow, totalsOf } from '../../../src/lib/stats/aggregate';
import { toggleGroup } from '../../../src/lib/stats/contract';
import { heatmapColumns, monthStartingIn } from '../../../src/lib/stats/heatmap';

const row = (day: string, activityTypeId: number, km: number, minutes: number): DayRow => ({
	day,
	activityTypeId,
	count: 1,
	distanceM: km * 1000,
	durationS: minutes * 60,
	energyJ: 4184 * 100,
});
const groupOf = (id: number) => (id === 11 ? 'ride' : 'run') as 'ride' | 'run';
const anchor = { year: 2026, month: 11, day: 25 };

describe('periods', () => {
	test('weeks start on the chosen day, ISO weeks on Monday, rolling weeks end on the anchor day', () => {
		const wednesday = { year: 2026, month: 11, day: 18 };
		expect(bucketStart(wednesday, 'week', { weekType: 'week', weekStartDay: 0, anchor })).toEqual({
			year: 2026,
			month: 11,
			day: 15,
		});
		expect(bucketStart(wednesday, 'week', { weekType: 'isoWeek', weekStartDay: 0, anchor })).toEqual({
			year: 2026,
			month: 11,
			day: 16,
		});
		// Rolling weeks counted back from Wednesday the 25th: the 19th to the 25th, the 12th to the 18th.
		expect(bucketStart(wednesday, 'week', { weekType: 'rolling', weekStartDay: 1, anchor })).toEqual({
			year: 2026,
			month: 11,
			day: 12,
		});
		expect(bucketStart(anchor, 'week', { weekType: 'rolling', weekStartDay: 1, anchor })).toEqual({
			year: 2026,
			month: 11,
			day: 19,
		});
	});

	test('totals per month keep empty months and split by group', () => {
		const rows = [row('2026-01-05', 16, 10, 60), row('2026-01-06', 11, 40, 90), row('2026-03-01', 16, 5, 30)];
		const months = bucketise(
			rows,
			groupOf,
			'month',
			{ first: { year: 2026, month: 1, day: 1 }, last: { year: 2026, month: 12, day: 31 } },
			{ weekType: 'week', weekStartDay: 1, anchor },
		);
		expect(months).toHaveLength(12);
		expect(months[0].totals).toMatchObject({ count: 2, distance_m: 50000, duration_s: 9000, calories: 200 });
		expect(months[0].by_group.ride).toMatchObject({ count: 1, distance_m: 40000 });
		expect(months[1].totals.count).toBe(0);
		expect(months[2].label).toBe('Mar 2026');
		expect(totalsOf(rows).pace_s_per_km).toBe(Math.round((10_800 / 55_000) * 1000));
	});

	test('choosing All clears the other activities, and choosing one removes All', () => {
		expect(toggleGroup(null, 'run')).toEqual(['run']);
		expect(toggleGroup(['run'], 'ride')).toEqual(['run', 'ride']);
		expect(toggleGroup(['run', 'ride'], 'all')).toBeNull();
		expect(toggleGroup(['run'], 'run')).toBeNull();
	});
});

describe('the year heatmap', () => {
	test('has Monday-first columns covering the year, shaded by quartile', () => {
		const days = [
			{ day: '2026-01-01', count: 1, distance_m: 5000, duration_s: 600 },
			{ day: '2026-01-02', count: 1, distance_m: 5000, duration_s: 1200 },
			{ day: '2026-06-01', count: 1, distance_m: 5000, duration_s: 2400 },
			{ day: '2026-12-31', count: 2, distance_m: 5000, duration_s: 4800 },
		];
		const columns = heatmapColumns(2026, days);
		// 1 January 2026 is a Thursday: the first column starts on Monday 29 December 2025.
		expect(columns[0][0]).toMatchObject({ day: '2025-12-29', inYear: false });
		expect(columns[0][3]).toMatchObject({ day: '2026-01-01', level: 1, inYear: true });
		expect(columns.at(-1)?.[3]).toMatchObject({ day: '2026-12-31', level: 4 });
		expect(columns.flat().filter((cell) => cell.inYear)).toHaveLength(365);
		expect(columns.flat().filter((cell) => cell.inYear && cell.level === 0)).toHaveLength(361);
		expect(monthStartingIn(columns[0])).toBe(1);
	});

	test('starts its columns on the member’s week start day', () => {
		const columns = heatmapColumns(2026, [], 0);
		// Weeks from Sunday: the first column starts on Sunday 28 December 2025.
		expect(columns[0][0]).toMatchObject({ day: '2025-12-28', inYear: false });
		expect(columns[0][4]).toMatchObject({ day: '2026-01-01', inYear: true });
		expect(columns.flat().filter((cell) => cell.inYear)).toHaveLength(365);
	});
});

describe('the goal form', () => {
	const form = (fields: Record<string, string>) => {
		const data = new FormData();
		for (const [key, value] of Object.entries(fields)) data.set(key, value);
		return data;
	};
	test('reads targets in the member’s units', () => {
		expect(
			readGoalForm(form({ metric: 'distance', value: '20', activity_group: 'run' }), 'mi').input,
		).toEqual({
			period: 'P1W',
			criteria: {
				threshold_metrics: { data_type_field: 'distance', value: 20 * 1609.344 },
				activity_group: 'run',
			},
			// The form names no other member: the goal is the signed-in member's own.
			links: {},
		});
		expect(readGoalForm(form({ metric: 'duration', value: '2,5' }), 'km').input?.criteria).toEqual({
			threshold_metrics: { data_type_field: 'duration', value: 9000 },
			activity_group: 'all',
		});
	});
	test('refuses what is not a target', () => {
		expect(readGoalForm(form({ metric: 'distance', value: '0' }), 'km').errors).toEqual([
			'Enter a target above 0, such as 20.',
		]);
		expect(readGoalForm(form({ metric: 'steps', value: '5' }), 'km').errors).toEqual([
			'Choose what the goal counts.',
		]);
		expect(
			readGoalForm(form({ metric: 'count', value: '5', activity_group: 'run\u0000' }), 'km').errors,
		).toEqual(['Choose an activity.']);
		expect(readGoalForm(form({ metric: 'count', value: '5000' }), 'km').errors).toEqual([
			'That target is more than a week could hold.',
		]);
	});
});
