import type { Hono } from 'hono';
import type { ApiEnv, AppDeps } from './context';

/**
 * Every domain's API sub-app, listed once. Domains that need start-up work (loading the routing
 * graphs) do it here so the server is ready before it listens.
 */
export async function loadApiModules(
	_deps: AppDeps,
): Promise<{ routes: Hono<ApiEnv>[]; close: () => Promise<void> }> {
	const routes: Hono<ApiEnv>[] = [];
	return { routes, close: async () => {} };
}
