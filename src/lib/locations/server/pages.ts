import { existsSync } from 'node:fs';
import path from 'node:path';
import pino from 'pino';
import { getConfig } from '../../core/config';
import type { AppDeps } from '../../core/server/deps';
import { type DbHandle, openDb } from '../../db/client';
import { listRoutes } from '../../routes/server/lists';
import type { CityRoutesResponse } from '../contract';
import { type City, findNearestCity, listRoutesNearCity, loadAllCountries } from './service';

/** At least this many US cities are pre-rendered (the 1,000 most populous). */
export const PRERENDERED_US_CITIES = 1000;
/** Elsewhere, each served country's most populous cities. */
export const PRERENDERED_OTHER_CITIES = 100;
/** How many routes a city page bakes into its HTML. */
export const CITY_PAGE_ROUTES = 10;
/** Public routes scanned at build time to find the cities that have any. */
const MAX_ROUTES_SCANNED = 5000;

/**
 * Pages read routes through the same service the API uses. On-demand pages use the running
 * server's database; the build opens the configured one if there is one to open (a PostgreSQL URL,
 * or an embedded database that already exists and is not in use) and otherwise bakes no routes:
 * the route-list island fills them in after load either way.
 */
type PageDeps = Pick<AppDeps, 'db' | 'clock'>;
let buildDb: Promise<DbHandle | null> | undefined;
let idleTimer: NodeJS.Timeout | undefined;

export async function getPageDeps(prerendering: boolean): Promise<PageDeps | null> {
	if (!prerendering) {
		const { getRuntime } = await import('../../api/runtime');
		return (await getRuntime()).deps;
	}
	buildDb ??= openBuildDb();
	const handle = await buildDb;
	if (!handle) return null;
	// Close once the build stops asking, so the embedded database's lock is released cleanly.
	clearTimeout(idleTimer);
	idleTimer = setTimeout(() => {
		buildDb = undefined;
		handle.close().catch(() => {});
	}, 5000);
	return { db: handle.db, clock: () => new Date() };
}

async function openBuildDb(): Promise<DbHandle | null> {
	// A first `npm start` creates the embedded database while it builds; it has no routes yet.
	if (process.env.MAPSTRIDE_BUILD_WITHOUT_DB === '1') return null;
	const config = getConfig();
	const url = config.databaseUrl;
	const embedded = url?.startsWith('file://') ? url.slice('file://'.length) : path.join(config.dataDir, 'db');
	if (!url?.startsWith('postgres') && (url?.startsWith('memory://') || !existsSync(embedded))) return null;
	try {
		return await openDb({ databaseUrl: url, dataDir: config.dataDir, log: () => {} });
	} catch (error) {
		pino().warn(
			{ err: error },
			'City pages are built without routes: the database could not be opened; the route list loads after page load instead',
		);
		return null;
	}
}

/** Routes baked into a city page; an empty page when no database is at hand. */
export async function readCityPageRoutes(
	city: City,
	prerendering: boolean,
): Promise<CityRoutesResponse | null> {
	const deps = await getPageDeps(prerendering);
	if (!deps) return null;
	try {
		return await listRoutesNearCity(deps, city, { limit: CITY_PAGE_ROUTES });
	} catch (error) {
		if (!prerendering) throw error;
		pino().warn({ err: error }, 'Could not read routes for a city page at build time');
		return null;
	}
}

/** The cities pre-rendered at build: the most populous, plus every city that has a public route. */
export async function listPrerenderedCities(): Promise<City[]> {
	const chosen = new Set<City>();
	for (const country of await loadAllCountries()) {
		const count = country.code === 'us' ? PRERENDERED_US_CITIES : PRERENDERED_OTHER_CITIES;
		for (const city of country.cities.slice(0, count)) chosen.add(city);
	}
	for (const city of await listCitiesWithRoutes()) chosen.add(city);
	return [...chosen];
}

async function listCitiesWithRoutes(): Promise<City[]> {
	const deps = await getPageDeps(true);
	if (!deps) return [];
	const cities = new Set<City>();
	try {
		for (let offset = 0; offset < MAX_ROUTES_SCANNED; offset += 100) {
			const page = await listRoutes(deps, null, { limit: 100, offset } as Parameters<typeof listRoutes>[2]);
			for (const route of page.routes) {
				const city = await findNearestCity(route.startLat, route.startLng, 25_000);
				if (city) cities.add(city);
			}
			if (offset + 100 >= page.totalCount) break;
		}
	} catch (error) {
		pino().warn({ err: error }, 'Could not list the cities that have routes at build time');
	}
	return [...cities];
}
