import { addDays, type Period, type WeekDay, weekOf, weekStarting } from '../stats/calendar';
import type { GoalMetric } from './contract';

/** What weekly progress reads from a workout. */
export type ProgressWorkout = {
	start: Date;
	distanceM: number | null;
	durationS: number | null;
	energyJ: number | null;
};

export type WeekProgress = {
	week: Period;
	value: number;
	target: number;
	met: boolean;
	workoutCount: number;
	current: boolean;
	/** When the week reached its target: the end of the workout that took it there; null if not met. */
	metAt: Date | null;
};

export const JOULES_PER_KCAL = 4184;

/** The most weeks of a goal's progress read at once: two years. */
export const MAX_PROGRESS_WEEKS = 104;

/** How much one workout adds to a metric. */
export function contribution(metric: GoalMetric, workout: ProgressWorkout): number {
	switch (metric) {
		case 'distance':
			return workout.distanceM ?? 0;
		case 'duration':
			return workout.durationS ?? 0;
		case 'calories':
			return (workout.energyJ ?? 0) / JOULES_PER_KCAL;
		case 'count':
			return 1;
	}
}

/**
 * A weekly goal's weeks, newest first: from the week the goal started to the week it ended (or the
 * current week), counting each workout in the week of its start in the member's time zone, so a run
 * at 23:30 on Sunday evening counts for the week it ends, whatever UTC says.
 */
export function weeklyProgress(options: {
	metric: GoalMetric;
	target: number;
	timeZone: string;
	/** The day the member's weeks start on (0 Sunday). */
	weekStartDay: WeekDay;
	goalStart: Date;
	goalEnd: Date | null;
	now: Date;
	workouts: readonly ProgressWorkout[];
	maxWeeks?: number;
}): WeekProgress[] {
	const { metric, target, timeZone, weekStartDay, now } = options;
	const current = weekOf(now, timeZone, weekStartDay);
	const last =
		options.goalEnd && options.goalEnd < now ? weekOf(options.goalEnd, timeZone, weekStartDay) : current;
	const first = weekOf(options.goalStart, timeZone, weekStartDay);
	const weeks: Period[] = [];
	for (let week = last; ; ) {
		weeks.push(week);
		if (week.key <= first.key || weeks.length >= (options.maxWeeks ?? MAX_PROGRESS_WEEKS)) break;
		week = weekStarting(addDays(week.first, -7), timeZone);
	}
	const sums = new Map<string, { value: number; count: number; metAt: Date | null }>();
	const inOrder = [...options.workouts].sort((a, b) => a.start.getTime() - b.start.getTime());
	for (const workout of inOrder) {
		const key = weekOf(workout.start, timeZone, weekStartDay).key;
		const sum = sums.get(key) ?? { value: 0, count: 0, metAt: null };
		sum.value += contribution(metric, workout);
		sum.count += 1;
		if (sum.metAt === null && sum.value >= target)
			sum.metAt = new Date(
				Math.min(now.getTime(), workout.start.getTime() + (workout.durationS ?? 0) * 1000),
			);
		sums.set(key, sum);
	}
	return weeks.map((week) => {
		const sum = sums.get(week.key) ?? { value: 0, count: 0, metAt: null };
		const met = sum.value >= target;
		return {
			week,
			value: sum.value,
			target,
			met,
			workoutCount: sum.count,
			current: week.key === current.key,
			metAt: met ? sum.metAt : null,
		};
	});
}
