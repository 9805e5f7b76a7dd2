import { and, eq, gte, lt } from 'drizzle-orm';
import { getHeartRateZones } from '../../account/server/service';
import type { Viewer } from '../../auth/viewer';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { workouts } from '../../workouts/server/tables';
import { addDays, dateKey, daysBetween, type LocalDate, localDateOf, startOfLocalDay } from '../calendar';
import type { TrainingLoadView } from '../contract';
import { FITNESS_DAYS, type LoadSource, loadCurves, workoutLoad } from '../training-load';
import type { StatsMember } from './facts';
import { zoneSecondsOf } from './zones';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** Days the stats page draws: twelve weeks. */
export const TRAINING_LOAD_DAYS = 84;

const oneDecimal = (value: number) => Math.round(value * 10) / 10;

/**
 * The member's own fitness, fatigue and form for the days ending on `end`, in their time zone. Load
 * is read from heart rate (their zones) and perceived effort, which are theirs alone, so nobody else
 * sees these curves. The 42 days before the first shown count towards the averages, so the curves
 * do not start from nothing.
 */
export async function trainingLoad(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	end: LocalDate,
	shownDays = TRAINING_LOAD_DAYS,
): Promise<TrainingLoadView> {
	if (!viewer || !member.isSelf) throw new AppError('not_found', 'No such member');
	const zone = member.timeZone;
	const first = addDays(end, -(shownDays + FITNESS_DAYS - 1));
	const rows = await deps.db
		.select({
			id: workouts.id,
			start: workouts.startDatetime,
			createdAt: workouts.createdAt,
			version: workouts.version,
			activeTime: workouts.activeTimeTotal,
			elapsedTime: workouts.elapsedTimeTotal,
			heartRate: workouts.heartrateAvg,
			perceivedEffort: workouts.perceivedEffort,
		})
		.from(workouts)
		.where(
			and(
				eq(workouts.ownerId, member.id),
				gte(workouts.startDatetime, startOfLocalDay(first, zone)),
				lt(workouts.startDatetime, startOfLocalDay(addDays(end, 1), zone)),
			),
		);
	// The member's zones are read only when some workout has heart rate to sort into them.
	const withHeartRate = rows.filter((row) => row.heartRate !== null);
	const zoneSeconds =
		withHeartRate.length === 0
			? new Map<number, number[]>()
			: await zoneSecondsOf(
					deps,
					withHeartRate,
					(await getHeartRateZones(deps, viewer, viewer.id))._embedded.heart_rate_zones[0].zones,
				);
	const daily = new Array<number>(shownDays + FITNESS_DAYS).fill(0);
	const firstShown = FITNESS_DAYS;
	const counted: Record<LoadSource, number> = { heart_rate: 0, perceived_effort: 0, none: 0 };
	for (const row of rows) {
		const index = daysBetween(first, localDateOf(row.start, zone));
		if (index < 0 || index >= daily.length) continue;
		const { load, source } = workoutLoad({
			secondsPerZone: zoneSeconds.get(row.id) ?? null,
			durationSeconds: row.activeTime ?? row.elapsedTime ?? 0,
			perceivedEffort: row.perceivedEffort,
		});
		daily[index] += load;
		if (index >= firstShown) counted[source] += 1;
	}
	return {
		days: loadCurves(daily, firstShown).map((day, i) => ({
			date: dateKey(addDays(first, firstShown + i)),
			load: oneDecimal(day.load),
			fitness: oneDecimal(day.fitness),
			fatigue: oneDecimal(day.fatigue),
			form: oneDecimal(day.form),
		})),
		workouts: counted,
	};
}
