import { eq } from 'drizzle-orm';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createLocationPrivacyApi } from '../../../src/lib/account/server/location-privacy';
import { users } from '../../../src/lib/auth/server/tables';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { createGoalsApi } from '../../../src/lib/goals/server/api';
import { createStatsApi } from '../../../src/lib/stats/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';

export { addMember, befriend, type Member } from '../routes/helpers';

export function createStatsTestApp(database: TestDatabase, start = new Date('2026-06-01T12:00:00Z')) {
	const clock = createTestClock(start);
	const deps = createTestDeps(database.db, { clock });
	const app = createTestApi(deps, {
		routes: [
			createAccountApi(),
			createLocationPrivacyApi(),
			createWorkoutsApi(),
			createGoalsApi(),
			createStatsApi(),
		],
	});
	return { deps, app, clock };
}

export async function setMember(
	deps: AppDeps,
	id: number,
	values: { timeZone?: string; workoutPrivacy?: number; displayMeasurementSystem?: string },
) {
	await deps.db.update(users).set(values).where(eq(users.id, id));
}

/** A hand-logged workout: `km` kilometres in `minutes`, starting at `start` (an ISO instant). */
export function workoutPayload(
	start: string,
	options: { km?: number; minutes?: number; activity_type?: number; privacy?: 0 | 1 | 3; kcal?: number } = {},
) {
	return {
		name: `Workout ${start}`,
		start_datetime: start,
		start_locale_timezone: 'UTC',
		activity_type: options.activity_type ?? 16,
		privacy: options.privacy ?? 0,
		aggregates: {
			distance_total: (options.km ?? 5) * 1000,
			active_time_total: (options.minutes ?? 30) * 60,
			elapsed_time_total: (options.minutes ?? 30) * 60,
			...(options.kcal === undefined ? {} : { metabolic_energy_total: options.kcal * 4184 }),
		},
	};
}

/**
 * A workout with a heart-rate sample every 10 s: `easy` minutes at 100 bpm (zone 1 of the default
 * zones), then `hard` at 150 (zone 4), with the average a device reports beside its series.
 */
export function heartRatePayload(
	start: string,
	easy: number,
	hard: number,
	options: { activity_type?: number; privacy?: 0 | 1 | 3 } = {},
) {
	const heartrate: [number, number][] = [];
	for (let s = 0; s <= (easy + hard) * 60; s += 10) heartrate.push([s, s < easy * 60 ? 100 : 150]);
	const payload = workoutPayload(start, { minutes: easy + hard, ...options });
	return {
		...payload,
		aggregates: { ...payload.aggregates, heartrate_avg: (100 * easy + 150 * hard) / (easy + hard) },
		time_series: { heartrate },
	};
}
