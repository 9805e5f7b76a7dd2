import { MAX_PERCEIVED_EFFORT, MIN_PERCEIVED_EFFORT } from '../workouts/perceived-effort';

/**
 * Training load and the fitness, fatigue and form curves drawn from it. Pure, for the server and
 * islands alike.
 *
 * A workout's load is Edwards' TRIMP: minutes in each heart-rate zone times the zone's number (1 for
 * the easiest of the member's zones, 5 for the hardest). Without heart rate, a perceived effort the
 * member gave (1–10) stands for the zone a minute would have been in — 1–2 as zone 1 … 9–10 as zone 5,
 * after Foster's session RPE — so both kinds of workout count on one scale. A workout with neither
 * has no load; the curves say how many such workouts they leave out.
 *
 * Fitness is the exponentially weighted average of daily load over 42 days, fatigue the same over
 * 7 days, and form is fitness minus fatigue (Banister's impulse-response model, in the form popular
 * as CTL, ATL and TSB).
 */

export const FITNESS_DAYS = 42;
export const FATIGUE_DAYS = 7;

/** Edwards' load: each minute in zone n (counted from 1) weighs n. */
export function heartRateLoad(secondsPerZone: readonly number[]): number {
	return secondsPerZone.reduce((sum, seconds, index) => sum + (seconds / 60) * (index + 1), 0);
}

/** The zone number a perceived effort of 1–10 stands for: two steps of effort to a zone. */
export function zoneForEffort(perceivedEffort: number): number {
	const effort = Math.min(MAX_PERCEIVED_EFFORT, Math.max(MIN_PERCEIVED_EFFORT, Math.round(perceivedEffort)));
	return Math.ceil(effort / 2);
}

/** Load from duration and perceived effort, on Edwards' scale: every minute in the effort's zone. */
export function effortLoad(durationSeconds: number, perceivedEffort: number): number {
	return (Math.max(0, durationSeconds) / 60) * zoneForEffort(perceivedEffort);
}

export type LoadSource = 'heart_rate' | 'perceived_effort' | 'none';

/** A workout's load by what it has: zones from its heart rate first, else the effort its member gave. */
export function workoutLoad(workout: {
	secondsPerZone: readonly number[] | null;
	durationSeconds: number;
	perceivedEffort: number | null;
}): { load: number; source: LoadSource } {
	if (workout.secondsPerZone?.some((seconds) => seconds > 0))
		return { load: heartRateLoad(workout.secondsPerZone), source: 'heart_rate' };
	if (workout.perceivedEffort !== null)
		return { load: effortLoad(workout.durationSeconds, workout.perceivedEffort), source: 'perceived_effort' };
	return { load: 0, source: 'none' };
}

export type LoadDay = { fitness: number; fatigue: number; form: number; load: number };

/** The share of the gap to today's load an average closes in one day, for a time constant in days. */
const dailyWeight = (days: number) => 1 - Math.exp(-1 / days);

/**
 * Fitness, fatigue and form for each of `days` consecutive days, from each day's summed load (index 0
 * the first day). Both averages start at zero, so the first weeks shown should be preceded by the
 * 42 days before them (the caller passes them as `warmUp`, days before the first shown).
 */
export function loadCurves(dailyLoads: readonly number[], warmUp = 0): LoadDay[] {
	const fitnessWeight = dailyWeight(FITNESS_DAYS);
	const fatigueWeight = dailyWeight(FATIGUE_DAYS);
	let fitness = 0;
	let fatigue = 0;
	const days: LoadDay[] = [];
	dailyLoads.forEach((load, index) => {
		fitness += (load - fitness) * fitnessWeight;
		fatigue += (load - fatigue) * fatigueWeight;
		if (index >= warmUp) days.push({ load, fitness, fatigue, form: fitness - fatigue });
	});
	return days;
}

/**
 * Form in words. Load's scale differs from member to member, so form is read against fitness: above
 * 5 % of it fresh, down to −10 % steady, down to −30 % building, below that overreaching — the bands
 * coaches use on the TSS scale (+5, −10, −30 at a fitness of 100), in proportion.
 */
export function formStateOf(day: { fitness: number; form: number }): string {
	if (day.fitness < 1) return 'rested, with little recent training';
	const ratio = day.form / day.fitness;
	if (ratio > 0.05) return 'fresh';
	if (ratio >= -0.1) return 'holding steady';
	if (ratio >= -0.3) return 'building fitness, with fatigue to match';
	return 'deeply tired: time to ease off';
}
