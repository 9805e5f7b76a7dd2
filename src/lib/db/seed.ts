import { createDemoMember, setAdmin } from '../auth/server/service';
import { seedCatalogue } from '../billing/server/catalogue';
import { seedDemoBilling } from '../billing/server/demo';
import { seedDemoChallenges } from '../challenges/server/seed';
import { seedDemoConnectedApps } from '../connected-apps/server/seed';
import type { AppDeps } from '../core/server/deps';
import { seedDemoConsents } from '../privacy/server/consents';
import { seedDemoRoutes } from '../routes/server/demo';
import { seedDemoSocial } from '../social/server/demo';
import { addFriendship } from '../social/server/friendships';
import { DEMO_OUTINGS, DEMO_WEEKS, seedDemoWorkouts } from '../workouts/server/demo';

/** Printed at start and in the README, so anyone can look around a populated product. */
export const DEMO_LOGIN = { email: 'demo@mapstride.example', password: 'stride-demo-2026' };

/** The demo member's friend, who can sign in too (browser tests copy routes as her). */
export const DEMO_FRIEND_LOGIN = {
	email: 'ana.runner@mapstride.example',
	password: 'ana-runs-harrisburg-2026',
};

/** The demo world's operator, who may open /admin (challenges, refunds). */
export const DEMO_ADMIN_LOGIN = { email: 'admin@mapstride.example', password: 'stride-admin-2026' };

const DEMO_FRIEND = {
	...DEMO_FRIEND_LOGIN,
	first_name: 'Ana',
	last_name: 'Runner',
};

/**
 * Seeds a demo world on an embedded development database: a member with a friend, routes in the
 * bundled regions and a few months of workouts for both, replayed from real recordings. Members are checked as sign-up checks them but written
 * directly, so no start spends 127.0.0.1's sign-up budget; does nothing when the demo member already exists.
 */
export async function seedDemoWorld(deps: AppDeps): Promise<string[]> {
	// Challenges and the MVP catalogue come first: a database seeded before they existed gets them on its next start.
	await seedDemoChallenges(deps);
	await seedCatalogue(deps);
	const signUp = async (person: {
		email: string;
		password: string;
		first_name: string;
		last_name: string;
	}) => {
		const member = await createDemoMember(deps, {
			...person,
			birthdate: '1990-04-12',
			gender: 'F',
			location: { country: 'US', region: 'PA', locality: 'Harrisburg' },
			promotionalPreference: false,
		});
		return member?.id ?? null;
	};
	// The operator comes before the members: a database seeded before /admin existed gets one too.
	await signUp({ ...DEMO_ADMIN_LOGIN, first_name: 'Ola', last_name: 'Operator' });
	await setAdmin(deps, DEMO_ADMIN_LOGIN.email, true);
	const logins = [
		`Demo login: ${DEMO_LOGIN.email} / ${DEMO_LOGIN.password}`,
		`Admin login (/admin): ${DEMO_ADMIN_LOGIN.email} / ${DEMO_ADMIN_LOGIN.password}`,
	];
	const demoId = await signUp({ ...DEMO_LOGIN, first_name: 'Dana', last_name: 'Demo' });
	if (demoId === null) return logins;
	const friendId = await signUp(DEMO_FRIEND);
	if (friendId !== null) await addFriendship(deps.db, demoId, friendId, 'active');
	// Both have answered their region's current consent matrix, so signing in goes straight on.
	await seedDemoConsents(deps, friendId === null ? [demoId] : [demoId, friendId]);
	const routeIds = await seedDemoRoutes(deps, demoId);
	let workoutCount = await seedDemoWorkouts(deps, demoId, DEMO_OUTINGS.member);
	if (friendId !== null) workoutCount += await seedDemoWorkouts(deps, friendId, DEMO_OUTINGS.friend);
	const social = await seedDemoSocial(deps, { id: demoId }, friendId, routeIds);
	const connectedApps = await seedDemoConnectedApps(deps, demoId);
	const billing = await seedDemoBilling(deps, demoId);
	return [
		`Seeded a demo world: 2 members, ${routeIds.length} routes for the demo member, ${workoutCount} workouts over ${DEMO_WEEKS} weeks.`,
		social,
		connectedApps,
		billing,
		...logins,
	];
}
