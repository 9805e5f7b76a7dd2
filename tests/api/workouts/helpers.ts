import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createTestApi, createTestDeps } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';

export { addMember, befriend, type Member } from '../routes/helpers';

export function createWorkoutsTestApp(database: TestDatabase) {
	const deps = createTestDeps(database.db);
	const app = createTestApi(deps, { routes: [createWorkoutsApi()] });
	return { deps, app };
}

/** A hand-logged run: 5 km in 30 minutes, starting at `start`. */
export function runPayload(
	name: string,
	options: { start?: string; privacy?: 0 | 1 | 3; activity_type?: number } = {},
) {
	return {
		name,
		start_datetime: options.start ?? '2026-05-01T07:30:00+00:00',
		start_locale_timezone: 'Europe/Ljubljana',
		activity_type: options.activity_type ?? 16,
		...(options.privacy === undefined ? {} : { privacy: options.privacy }),
		notes: 'Easy pace',
		aggregates: { distance_total: 5000, active_time_total: 1800, elapsed_time_total: 1850 },
	};
}
