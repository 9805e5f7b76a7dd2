import { assertReadyForProduction, getConfig } from '../core/config';
import type { AppDeps } from '../core/server/deps';
import { openDb, refreshPlannerStatistics } from '../db/client';
import { seedDemoWorld } from '../db/seed';
import { startJobWorker } from '../jobs/server/service';
import { closeSharedParsePool } from '../workout-files/server/parse-pool';
import { createApi } from './app';
import { createLogger, flushLogger } from './logger';
import { backgroundJobs, loadApiModules } from './modules';

export type Runtime = {
	deps: AppDeps;
	/** Lines the launcher prints once the server listens (the demo login). */
	startupNotes: string[];
	api: ReturnType<typeof createApi>;
	/** The base map's tiles (`/tiles/…`), outside the API. */
	tiles: { fetch: (request: Request) => Response | Promise<Response> };
	close: () => Promise<void>;
};

let booting: Promise<Runtime> | undefined;

/** How long shutdown waits for a background job under way before closing the database under it. */
const JOB_STOP_GRACE_MS = 10_000;

/**
 * Opens the database (migrating it), loads what the API needs and builds the API app, once per
 * process. Nothing happens at import time, so `astro build` never touches a database.
 */
export function getRuntime(): Promise<Runtime> {
	booting ??= bootRuntime();
	return booting;
}

async function bootRuntime(): Promise<Runtime> {
	const config = getConfig();
	assertReadyForProduction(config);
	const logger = createLogger(config.logLevel);
	const handle = await openDb({
		databaseUrl: config.databaseUrl,
		dataDir: config.dataDir,
		embeddedThread: config.embeddedDbThread,
		log: (message) => logger.warn(message),
	});
	const deps: AppDeps = { db: handle.db, config, logger, clock: () => new Date() };
	// Only the embedded default is a playground; a real database is never seeded.
	const startupNotes = !config.databaseUrl && config.env !== 'production' ? await seedDemoWorld(deps) : [];
	// After the demo world is in, so the embedded planner starts out knowing it.
	await refreshPlannerStatistics(deps.db);
	const modules = await loadApiModules(deps);
	const api = createApi(deps, { routes: modules.routes });
	const jobWorker = startJobWorker(deps, backgroundJobs.definitions, {
		schedules: backgroundJobs.schedules,
		listen: handle.listen,
	});
	return {
		deps,
		startupNotes,
		api,
		tiles: modules.tiles,
		close: async () => {
			// A job under way may finish within the grace requests get (scripts/start.mjs); one still
			// running then loses its database below and is claimed again when its lease runs out.
			if (!(await jobWorker.stop({ graceMs: JOB_STOP_GRACE_MS })))
				logger.warn('a background job was still running at shutdown; it will run again');
			await modules.close();
			await closeSharedParsePool();
			await handle.close();
			flushLogger(logger);
		},
	};
}

/** Closes the runtime if it was ever booted; safe to call twice. */
export async function closeRuntime(): Promise<void> {
	if (!booting) return;
	const runtime = await booting.catch(() => null);
	booting = undefined;
	await runtime?.close();
}
