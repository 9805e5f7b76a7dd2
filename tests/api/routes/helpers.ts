import type { AppDeps } from '../../../src/lib/api/context';
import { signAccessToken } from '../../../src/lib/auth/server/access-token';
import { users } from '../../../src/lib/auth/server/tables';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { addFriendship } from '../../../src/lib/social/server/service';
import { createTestApi, createTestDeps } from '../../helpers/app';
import type { TestDatabase } from '../../helpers/db';

export type Member = { id: number; username: string; token: string };

export function createRoutesTestApp(database: TestDatabase) {
	const deps = createTestDeps(database.db);
	const app = createTestApi(deps, { routes: [createRoutesApi()] });
	return { deps, app };
}

export async function addMember(deps: AppDeps, username: string): Promise<Member> {
	const [row] = await deps.db
		.insert(users)
		.values({ username, email: `${username}@example.test`, passwordHash: 'x', displayName: `${username} D.` })
		.returning({ id: users.id });
	const token = await signAccessToken(
		{ id: row.id, username, displayName: username, isPremium: false },
		deps.config.sessionSecret,
		deps.clock(),
	);
	return { id: row.id, username, token };
}

export async function befriend(deps: AppDeps, a: Member, b: Member, status: 'pending' | 'active' = 'active') {
	await addFriendship(deps.db, a.id, b.id, status);
}

/** A straight line north from a start, `km` long, with heights rising `climb` metres. */
export function linePayload(
	name: string,
	options: {
		lat?: number;
		lng?: number;
		km?: number;
		privacy?: 0 | 1 | 3 | 6;
		activity_type?: number;
		climb?: number;
		points?: number;
	} = {},
) {
	const lat = options.lat ?? 40.27;
	const lng = options.lng ?? -76.88;
	const km = options.km ?? 5;
	const count = options.points ?? 11;
	const step = km / 111.195 / (count - 1);
	const climb = options.climb ?? 0;
	return {
		name,
		privacy: options.privacy ?? 3,
		activity_type: options.activity_type ?? 16,
		points: Array.from({ length: count }, (_, i) => ({
			lat: lat + step * i,
			lng,
			order: i,
			travel_mode: 'WALKING',
			ele: 100 + (climb * i) / (count - 1),
		})),
	};
}
