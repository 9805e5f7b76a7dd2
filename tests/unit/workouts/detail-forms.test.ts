import { describe, expect, test } from 'vitest';
import { readCopyForm, readEditForm } from '../../../src/lib/workouts/server/detail-forms';

const form = (fields: Record<string, string>) => {
	const data = new FormData();
	for (const [key, value] of Object.entries(fields)) data.set(key, value);
	return data;
};

const base = {
	name: 'Evening ride',
	notes: 'Windy',
	activity_type: '11',
	privacy: '3',
	start: '2026-07-01T18:15',
	version: '4',
};

describe('the edit form', () => {
	test('reads the start on the workout clock and keeps the version it was loaded at', () => {
		const read = readEditForm(form(base), { timeZone: 'Europe/Ljubljana', unit: 'km', totals: false });
		expect(read.errors).toEqual([]);
		expect(read.input).toMatchObject({ name: 'Evening ride', activity_type: 11, privacy: 3, version: 4 });
		expect(read.input?.start_datetime?.toISOString()).toBe('2026-07-01T16:15:00.000Z');
		expect(read.input?.aggregates).toBeUndefined();
	});

	test('a hand-logged workout takes duration and distance in the member unit', () => {
		const read = readEditForm(form({ ...base, duration: '1:02:03', distance: '10' }), {
			timeZone: 'UTC',
			unit: 'mi',
			totals: true,
		});
		expect(read.input?.aggregates).toEqual({
			active_time_total: 3723,
			elapsed_time_total: 3723,
			distance_total: 16093.44,
		});
	});

	test('refuses what the API refuses, in words, never with an exception', () => {
		const read = readEditForm(form({ ...base, name: 'bad\u0000name', privacy: '2', duration: 'soon' }), {
			timeZone: 'UTC',
			unit: 'km',
			totals: true,
		});
		expect(read.input).toBeNull();
		expect(read.errors.join(' ')).toMatch(/duration/);
		expect(read.errors.length).toBeGreaterThanOrEqual(3);
	});
});

test('the copy form becomes a new workout in the original time zone', () => {
	const read = readCopyForm(form({ ...base, duration: '45:00', distance: '20.5' }), {
		timeZone: 'America/New_York',
		unit: 'km',
	});
	expect(read.errors).toEqual([]);
	expect(read.input).toMatchObject({
		name: 'Evening ride',
		start_locale_timezone: 'America/New_York',
		aggregates: { active_time_total: 2700, elapsed_time_total: 2700, distance_total: 20500 },
	});
	expect(read.input?.start_datetime.toISOString()).toBe('2026-07-01T22:15:00.000Z');
});
