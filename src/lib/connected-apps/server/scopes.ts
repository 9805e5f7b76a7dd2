import type { MiddlewareHandler } from 'hono';
import type { ApiEnv } from '../../api/context';
import { AppError } from '../../core/errors';
import { APP_SCOPES, type AppScope } from '../contract';
import { authenticateAppToken, isAppAccessToken, logAppDataAccess } from './service';

/**
 * Every endpoint an app may call, with the scopes that open it (any one of them). Anything not
 * listed here (auth, account settings, billing, the browser's own endpoints) is closed to apps,
 * whatever their scopes. `logs` marks reads of location or health data, written to the access log.
 */
export type AppEndpoint = {
	method: 'GET' | 'POST' | 'PUT' | 'DELETE';
	/** The documented path, as the access log and the guide show it. */
	path: string;
	scopes: readonly AppScope[];
	logs?: boolean;
};

const READ_WORKOUTS = ['workouts:read', 'workouts:read:nolocation'] as const;

export const APP_ENDPOINTS: AppEndpoint[] = [
	{ method: 'GET', path: '/v7.1/user/self/', scopes: ['profile:read'] },
	{ method: 'GET', path: '/v7.1/user/{id}/', scopes: ['profile:read'] },
	{ method: 'GET', path: '/v7.1/friendship/', scopes: ['friends:read'] },
	{ method: 'GET', path: '/v7.1/user/', scopes: ['friends:read'] },
	{ method: 'GET', path: '/v7.1/activity_type/', scopes: APP_SCOPES },
	{ method: 'GET', path: '/v7.1/activity_type/{id}/', scopes: APP_SCOPES },
	{ method: 'GET', path: '/v7.1/workout/', scopes: READ_WORKOUTS, logs: true },
	{ method: 'GET', path: '/v7.1/workout/{id}/', scopes: READ_WORKOUTS, logs: true },
	{ method: 'GET', path: '/v7.1/workout/{id}/export/', scopes: ['workouts:read'], logs: true },
	// Drawn from heart rate: health data, for apps with the full workout reading scope, logged.
	{ method: 'GET', path: '/v7.1/workout_stats/training_load/', scopes: ['workouts:read'], logs: true },
	// Nothing but positions: the full workout reading scope only, logged.
	{ method: 'GET', path: '/v7.1/workout_heatmap/', scopes: ['workouts:read'], logs: true },
	{ method: 'POST', path: '/v7.1/workout/', scopes: ['workouts:write'] },
	{ method: 'PUT', path: '/v7.1/workout/{id}/', scopes: ['workouts:write'] },
	{ method: 'DELETE', path: '/v7.1/workout/{id}/', scopes: ['workouts:write'] },
	{ method: 'POST', path: '/v7.1/device/file_import/', scopes: ['workouts:write'] },
	{ method: 'POST', path: '/v7.1/device/bulk_import/', scopes: ['workouts:write'] },
	{ method: 'GET', path: '/v7.1/device/bulk_import/{id}/', scopes: ['workouts:write'] },
	// Shoes and bikes carry no place or health data: either workout reading scope opens them.
	{ method: 'GET', path: '/v7.1/usergear/', scopes: READ_WORKOUTS },
	{ method: 'GET', path: '/v7.1/usergear/{id}/', scopes: READ_WORKOUTS },
	{ method: 'POST', path: '/v7.1/usergear/', scopes: ['workouts:write'] },
	{ method: 'PUT', path: '/v7.1/usergear/{id}/', scopes: ['workouts:write'] },
	{ method: 'DELETE', path: '/v7.1/usergear/{id}/', scopes: ['workouts:write'] },
	{ method: 'GET', path: '/v7.1/route/', scopes: ['routes:read'], logs: true },
	{ method: 'GET', path: '/v7.1/route/{id}/', scopes: ['routes:read'], logs: true },
	{ method: 'GET', path: '/v7.1/route/{id}/gpx/', scopes: ['routes:read'], logs: true },
	{ method: 'GET', path: '/v7.1/route/{id}/fit/', scopes: ['routes:read'], logs: true },
	{ method: 'POST', path: '/v7.1/route/', scopes: ['routes:write'] },
	{ method: 'PUT', path: '/v7.1/route/{id}/', scopes: ['routes:write'] },
	{ method: 'DELETE', path: '/v7.1/route/{id}/', scopes: ['routes:write'] },
];

/** `/v7.1/route/{id}/` → a pattern for the path after /api, with or without the trailing slash. */
const compiled = APP_ENDPOINTS.map((endpoint) => ({
	endpoint,
	pattern: new RegExp(`^${endpoint.path.replace(/\/$/, '').replaceAll('{id}', '\\d{1,9}')}/?$`),
}));

export function findAppEndpoint(method: string, path: string): AppEndpoint | null {
	return (
		compiled.find((entry) => entry.endpoint.method === method && entry.pattern.test(path))?.endpoint ?? null
	);
}

const LOCATION_KEYS = new Set([
	'position',
	'positions',
	'start_location',
	'end_location',
	'starting_location',
]);

/** A workout answer without any place in it: for apps the member gave workouts:read:nolocation. */
export function withoutLocation(value: unknown): unknown {
	if (Array.isArray(value)) return value.map(withoutLocation);
	if (value === null || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value)
			.filter(([key]) => !LOCATION_KEYS.has(key) && key !== 'lat' && key !== 'lng')
			.map(([key, inner]) => [key, withoutLocation(inner)]),
	);
}

function bearerChallenge(error: string, scope?: string): Record<string, string> {
	return {
		'WWW-Authenticate': `Bearer realm="mapstride", error="${error}"${scope ? `, scope="${scope}"` : ''}`,
	};
}

/**
 * Knows an app's call from `Authorization: Bearer msa_…` plus `Api-Key: <client id>`: the member
 * it acts for becomes the viewer, but only on the endpoints above and only with a matching scope.
 */
export const readAppToken: MiddlewareHandler<ApiEnv> = async (c, next) => {
	const header = c.req.header('authorization');
	const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : '';
	if (!isAppAccessToken(token)) return next();
	const deps = c.var.deps;
	const access = await authenticateAppToken(deps, token, c.req.header('api-key'));
	if (!access)
		throw new AppError(
			'unauthenticated',
			'The access token is invalid, expired or revoked, or the Api-Key is not its app.',
			{
				detail: 'invalid_token',
				headers: bearerChallenge('invalid_token'),
			},
		);
	const path = c.req.path.replace(/^\/api/, '');
	const endpoint = findAppEndpoint(c.req.method, path);
	if (!endpoint)
		throw new AppError('forbidden', 'Apps may not call this endpoint.', {
			detail: 'insufficient_scope',
			headers: bearerChallenge('insufficient_scope'),
		});
	const used = endpoint.scopes.find((scope) => access.scopes.includes(scope));
	if (!used)
		throw new AppError('forbidden', `This endpoint needs the scope ${endpoint.scopes.join(' or ')}.`, {
			detail: 'insufficient_scope',
			headers: bearerChallenge('insufficient_scope', endpoint.scopes.join(' ')),
		});
	c.set('viewer', access.viewer);
	c.set('appAccess', access);
	await next();
	if (c.res.status >= 400) return;
	if (endpoint.logs)
		await logAppDataAccess(deps, access, { scope: used, method: endpoint.method, path: endpoint.path });
	if (
		used === 'workouts:read:nolocation' &&
		c.res.headers.get('content-type')?.startsWith('application/json')
	) {
		const body = withoutLocation(await c.res.json());
		const headers = new Headers(c.res.headers);
		headers.delete('content-length');
		c.res = new Response(JSON.stringify(body), { status: c.res.status, headers });
	}
};
