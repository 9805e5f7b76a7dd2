import { createAccountApi } from '../account/server/api';
import { createLocationPrivacyApi } from '../account/server/location-privacy';
import { createAnalyticsApi } from '../analytics/server/api';
import { createAuthApi } from '../auth/server/api';
import { createBillingApi } from '../billing/server/api';
import { billingJobs, billingSchedules } from '../billing/server/jobs';
import { createChallengesApi } from '../challenges/server/api';
import { createConnectedAppsApi } from '../connected-apps/server/api';
import { createDeviceCloudsApi } from '../connected-apps/server/device-api';
import { deviceJobs, deviceSchedules } from '../connected-apps/server/device-sync';
import { createReplaceable } from '../core/replaceable';
import type { AppDeps } from '../core/server/deps';
import { createGearApi } from '../gear/server/api';
import { createGoalsApi } from '../goals/server/api';
import { housekeepingJobs, housekeepingSchedules } from '../jobs/server/housekeeping';
import type { JobDefinitions, JobSchedule } from '../jobs/server/service';
import { createLocationsApi } from '../locations/server/api';
import { createLoyaltyApi } from '../loyalty/server/api';
import { createMailApi } from '../mail/server/api';
import { mailJobs, mailSchedules } from '../mail/server/jobs';
import { createPrivacyApi } from '../privacy/server/api';
import { privacyJobs, privacySchedules } from '../privacy/server/jobs';
import { getRegionFolders } from '../regions/server/catalogue';
import { watchRegionFolders } from '../regions/server/watch';
import { createRoutesApi } from '../routes/server/api';
import type { RoutingEngine } from '../routing/engine';
import { createRoutingApi, type RoutingApiOptions } from '../routing/server/api';
import { createHeightLookup } from '../routing/server/heights';
import { loadEngine } from '../routing/server/regions';
import { siteApi } from '../site/server/api';
import { createSocialApi } from '../social/server/api';
import { createStatsApi } from '../stats/server/api';
import { createSupportApi } from '../support/server/api';
import { createSurveysApi } from '../surveys/server/api';
import { createTilesApp } from '../tiles/server/api';
import { loadTileService, type TileService } from '../tiles/server/service';
import { createWeatherApi } from '../weather/server/api';
import { createWorkoutsApi } from '../workouts/server/api';
import { createWorkoutDetailApi } from '../workouts/server/detail-api';
import { workoutJobs, workoutSchedules } from '../workouts/server/jobs';
import { sweepWorkoutUploads } from '../workouts/server/resumable-uploads';
import { createWorkoutUploadsApi } from '../workouts/server/upload-api';
import type { SubApp } from './context';

/** Every domain's background job kinds and recurring schedules, listed once; runtime.ts runs them. */
export const backgroundJobs: { definitions: JobDefinitions; schedules: JobSchedule[] } = {
	definitions: {
		...housekeepingJobs,
		...billingJobs,
		...privacyJobs,
		...workoutJobs,
		...deviceJobs,
		...mailJobs,
	},
	schedules: [
		...housekeepingSchedules,
		...billingSchedules,
		...privacySchedules,
		...mailSchedules,
		...deviceSchedules,
		...workoutSchedules,
	],
};

/**
 * Every domain's API sub-app, listed once. Domains that need start-up work (loading the routing
 * graphs) start it here.
 */
export async function loadApiModules(
	deps: AppDeps,
): Promise<{ routes: SubApp[]; tiles: SubApp; close: () => Promise<void> }> {
	const { config, logger } = deps;
	// Regions load in the background: a first start builds the graphs (seconds), later starts read
	// the cache. Routing requests wait for it; nothing else does. Regions added or removed with
	// `npm run regions` while the server runs are loaded again, and the new engine and base map
	// take over once they have loaded (unchanged regions are kept in memory, not read again).
	const regionFolders = getRegionFolders(config.dataDir);
	const onLoadError = (what: string) => (error: unknown) =>
		logger.error({ err: error }, `${what} failed to load`);
	const loadRouting = (previous: RoutingEngine | null) =>
		loadEngine({
			regionsDir: regionFolders,
			cacheDir: `${config.dataDir}/routing-cache`,
			elevationUrl: config.elevationUrl,
			fetchedDemDir: `${config.dataDir}/dem`,
			log: (message) => logger.info(message),
			previous,
			warmRoutes: previous ? 20 : undefined,
		});
	const engine = config.routingUrl
		? null
		: createReplaceable(loadRouting(null), onLoadError('routing regions'));
	engine?.get().catch(onLoadError('routing regions'));
	// The built-in base map is read and indexed in the background too, only when a map uses it.
	const servesTiles = [config.tiles.url, ...config.mapLayers.map((layer) => layer.url)].some((url) =>
		url.startsWith('/tiles/'),
	);
	const loadTiles = (previous: TileService | null) =>
		loadTileService({
			regionsDir: regionFolders,
			cacheDir: `${config.dataDir}/tile-cache`,
			log: (message) => logger.info(message),
			previous,
		});
	const tileService = servesTiles ? createReplaceable(loadTiles(null), onLoadError('map tiles')) : null;
	tileService?.get().catch(onLoadError('map tiles'));
	const watcher =
		engine || tileService
			? watchRegionFolders(regionFolders, () => {
					logger.info('regions: the extracts changed; loading the regions again');
					if (engine) void engine.replace(engine.get().then(loadRouting, () => loadRouting(null)));
					if (tileService) void tileService.replace(tileService.get().then(loadTiles, () => loadTiles(null)));
				})
			: null;
	// Uploads abandoned while the server was down (or a process died mid-write) leave the disk now.
	sweepWorkoutUploads(deps).catch((error) => logger.warn({ err: error }, 'upload sweep failed'));
	const routing: RoutingApiOptions = {
		engine: engine ? engine.get : null,
		routingUrl: config.routingUrl ?? null,
	};
	const routes: SubApp[] = [
		createAuthApi(),
		createAccountApi(),
		createLocationPrivacyApi(),
		// A saved route's heights come from the elevation data /routing/height answers from.
		createRoutesApi({ heights: createHeightLookup(routing) }),
		siteApi,
		createRoutingApi(routing),
		createLocationsApi(),
		createWorkoutsApi(),
		createWorkoutDetailApi(),
		createWorkoutUploadsApi(),
		createGearApi(),
		createWeatherApi(),
		createGoalsApi(),
		createStatsApi(),
		createSocialApi(),
		createChallengesApi(),
		createConnectedAppsApi(),
		createDeviceCloudsApi(),
		createBillingApi(),
		createPrivacyApi(),
		createSupportApi(),
		createAnalyticsApi(),
		createSurveysApi(),
		createLoyaltyApi(),
		createMailApi(),
	];
	return {
		routes,
		tiles: createTilesApp(tileService ? tileService.get : null),
		close: async () => watcher?.stop(),
	};
}
