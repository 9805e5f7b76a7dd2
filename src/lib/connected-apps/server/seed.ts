import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../core/server/deps';
import { GRANT_ABSOLUTE_SECONDS } from '../contract';
import { registerApp } from './service';
import { appDataAccessLog, oauthClients, oauthGrants } from './tables';

/**
 * The demo member's own app on the Developer page, which they have also connected to their
 * account with workouts without location and routes, and which read both yesterday: so the
 * Developer page, the connected-apps page and the data-access log all have something to show.
 */
export async function seedDemoConnectedApps(deps: AppDeps, demoId: number): Promise<string> {
	const { app } = await registerApp(
		deps,
		{ id: demoId },
		{
			name: 'Trailhead Sync (demo app)',
			redirect_uris: ['http://127.0.0.1/callback'],
			scopes: ['profile:read', 'workouts:read:nolocation', 'routes:read'],
			confidential: false,
		},
	);
	const [client] = await deps.db
		.select({ id: oauthClients.id })
		.from(oauthClients)
		.where(eq(oauthClients.clientId, app.clientId));
	const now = deps.clock();
	const dayAgo = new Date(now.getTime() - 24 * 3600 * 1000);
	await deps.db.insert(oauthGrants).values({
		clientId: client.id,
		userId: demoId,
		scopes: ['workouts:read:nolocation', 'routes:read'],
		createdAt: new Date(now.getTime() - 7 * 24 * 3600 * 1000),
		expiresAt: new Date(now.getTime() + GRANT_ABSOLUTE_SECONDS * 1000),
		lastUsedAt: dayAgo,
	});
	await deps.db.insert(appDataAccessLog).values([
		{
			userId: demoId,
			clientId: client.id,
			scope: 'workouts:read:nolocation',
			method: 'GET',
			path: '/v7.1/workout/',
			at: dayAgo,
		},
		{
			userId: demoId,
			clientId: client.id,
			scope: 'routes:read',
			method: 'GET',
			path: '/v7.1/route/',
			at: dayAgo,
		},
	]);
	return `Connected the demo app "${app.name}" to the demo member.`;
}
