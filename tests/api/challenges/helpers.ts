import { eq } from 'drizzle-orm';
import { users } from '../../../src/lib/auth/server/tables';
import { createChallengesApi } from '../../../src/lib/challenges/server/api';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';
import type { Member } from '../routes/helpers';

export { addMember, befriend, type Member } from '../routes/helpers';

export function createChallengesTestApp(database: TestDatabase) {
	const deps = createTestDeps(database.db);
	const app = createTestApi(deps, {
		routes: [createWorkoutsApi(), createWorkoutDetailApi(), createChallengesApi()],
	});
	return { deps, app };
}

export async function setTimeZone(deps: AppDeps, member: Member, timeZone: string) {
	await deps.db.update(users).set({ timeZone }).where(eq(users.id, member.id));
}

type App = ReturnType<typeof createChallengesTestApp>['app'];

/** Logs a workout through the workouts API, as a member's client does. */
export async function logWorkout(
	app: App,
	member: Member,
	options: { start: string; metres?: number; seconds?: number; activity_type?: number; kcal?: number },
) {
	const seconds = options.seconds ?? 1800;
	const answer = await callApi(app, 'POST', '/api/v7.1/workout/', {
		token: member.token,
		body: {
			name: 'Counted?',
			start_datetime: options.start,
			start_locale_timezone: 'UTC',
			activity_type: options.activity_type ?? 16,
			aggregates: {
				distance_total: options.metres ?? 5000,
				active_time_total: seconds,
				elapsed_time_total: seconds,
				...(options.kcal === undefined ? {} : { metabolic_energy_total: options.kcal * 4184 }),
			},
		},
	});
	if (answer.status !== 201) throw new Error(`workout not saved: ${answer.status} ${answer.text}`);
	return answer.json.id as number;
}
