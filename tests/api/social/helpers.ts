import { createAccountApi } from '../../../src/lib/account/server/api';
import { createLocationPrivacyApi } from '../../../src/lib/account/server/location-privacy';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';

export { addMember, befriend, linePayload, type Member } from '../routes/helpers';
export { runPayload } from '../workouts/helpers';

export function createSocialTestApp(
	database: TestDatabase,
	limits: { friendRequestsPerHour?: number; commentsPerHour?: number } = {},
) {
	const deps = createTestDeps(database.db);
	const app = createTestApi(deps, {
		routes: [
			createSocialApi(limits),
			createWorkoutsApi(),
			createRoutesApi(),
			createAccountApi(),
			createLocationPrivacyApi(),
		],
	});
	return { deps, app };
}

export type SocialApp = ReturnType<typeof createSocialTestApp>['app'];

/** The feed page a member sees, as story ids. */
export async function feedIds(app: SocialApp, token: string, query = ''): Promise<string[]> {
	const answer = await callApi(app, 'GET', `/api/v7.1/activity_story/${query}`, { token });
	if (answer.status !== 200) throw new Error(`feed answered ${answer.status}: ${answer.text}`);
	return answer.json._embedded.activity_stories.map((story: { id: string }) => story.id);
}
