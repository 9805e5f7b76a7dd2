import { describe, expect, test } from 'vitest';
import {
	effortLoad,
	formStateOf,
	heartRateLoad,
	loadCurves,
	workoutLoad,
	zoneForEffort,
} from '../../../src/lib/stats/training-load';

describe('a workout’s load', () => {
	test('is Edwards’ TRIMP: minutes in each zone times the zone’s number', () => {
		// 10 min easy, 30 in zone 3, 5 in zone 5: 10 + 90 + 25.
		expect(heartRateLoad([600, 0, 1800, 0, 300])).toBe(125);
		expect(heartRateLoad([])).toBe(0);
	});

	test('from perceived effort counts every minute in the zone the effort stands for', () => {
		expect([1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map(zoneForEffort)).toEqual([1, 1, 2, 2, 3, 3, 4, 4, 5, 5]);
		// An hour at effort 6 weighs as an hour in zone 3.
		expect(effortLoad(3600, 6)).toBe(heartRateLoad([0, 0, 3600]));
		expect(zoneForEffort(0)).toBe(1);
		expect(zoneForEffort(14)).toBe(5);
		expect(effortLoad(-60, 5)).toBe(0);
	});

	test('takes heart rate before a perceived effort, and says when it has neither', () => {
		expect(workoutLoad({ secondsPerZone: [0, 1200], durationSeconds: 3600, perceivedEffort: 9 })).toEqual({
			load: 40,
			source: 'heart_rate',
		});
		expect(workoutLoad({ secondsPerZone: [0, 0], durationSeconds: 1800, perceivedEffort: 4 })).toEqual({
			load: 60,
			source: 'perceived_effort',
		});
		expect(workoutLoad({ secondsPerZone: null, durationSeconds: 1800, perceivedEffort: null })).toEqual({
			load: 0,
			source: 'none',
		});
	});
});

describe('fitness, fatigue and form', () => {
	test('a steady daily load brings fitness and fatigue to it, fatigue first, and form towards zero', () => {
		const days = loadCurves(Array.from({ length: 365 }, () => 100));
		expect(days[6].fatigue).toBeGreaterThan(days[6].fitness);
		expect(days[6].form).toBeLessThan(0);
		// After a year, both averages have all but reached the daily load.
		expect(days[364].fitness).toBeCloseTo(100, 1);
		expect(days[364].fatigue).toBeCloseTo(100, 5);
		expect(Math.abs(days[364].form)).toBeLessThan(0.1);
	});

	test('a rest week after a block lifts form above zero while fitness falls slowly', () => {
		const block = Array.from({ length: 42 }, () => 80);
		const rest = Array.from({ length: 7 }, () => 0);
		const days = loadCurves([...block, ...rest]);
		const endOfBlock = days[41];
		const endOfRest = days[48];
		expect(endOfBlock.form).toBeLessThan(0);
		expect(endOfRest.form).toBeGreaterThan(0);
		// Fatigue falls by about 1 − e⁻¹ in a week; fitness by much less.
		expect(endOfRest.fatigue / endOfBlock.fatigue).toBeCloseTo(Math.exp(-1), 5);
		expect(endOfRest.fitness / endOfBlock.fitness).toBeCloseTo(Math.exp(-7 / 42), 5);
	});

	test('warm-up days count towards the averages but are not returned', () => {
		const loads = [50, 60, 70, 80, 90];
		const all = loadCurves(loads);
		const shown = loadCurves(loads, 3);
		expect(shown).toEqual(all.slice(3));
		expect(shown[0].load).toBe(80);
	});
});

describe('form in words', () => {
	test('is read against fitness, so members training more or less read the same words', () => {
		expect(formStateOf({ fitness: 0, form: 0 })).toMatch(/^rested/);
		expect(formStateOf({ fitness: 100, form: 8 })).toBe('fresh');
		expect(formStateOf({ fitness: 20, form: 1.6 })).toBe('fresh');
		expect(formStateOf({ fitness: 100, form: -5 })).toBe('holding steady');
		expect(formStateOf({ fitness: 100, form: -20 })).toMatch(/^building/);
		expect(formStateOf({ fitness: 40, form: -8 })).toMatch(/^building/);
		expect(formStateOf({ fitness: 100, form: -45 })).toMatch(/^deeply tired/);
	});
});
