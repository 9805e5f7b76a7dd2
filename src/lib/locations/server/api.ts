import { Hono } from 'hono';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import {
	CitiesQuerySchema,
	CityQuerySchema,
	CityRoutesParamSchema,
	CityRoutesQuerySchema,
	LocateQuerySchema,
	StatesQuerySchema,
} from '../contract';
import { getCityInfo, listCities, listCityRoutes, listStates, locatePlace } from './service';

/** Place data changes only with a deploy; route lists change as members save routes. */
const PLACE_CACHE = 'public, max-age=3600';
const ROUTES_CACHE = 'public, max-age=60';

/** The internal regions calls, relative to /api. Every path answers with and without the trailing slash. */
export function createLocationsApi() {
	const app = new Hono<ApiEnv>();
	const both = (path: string) => [`/internal/regions/${path}/`, `/internal/regions/${path}`];

	for (const path of both('states')) {
		app.get(path, validate('query', StatesQuerySchema), async (c) => {
			const body = await listStates(c.req.valid('query').country_code);
			c.header('Cache-Control', PLACE_CACHE);
			return c.json(body);
		});
	}
	for (const path of both('cities')) {
		app.get(path, validate('query', CitiesQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const body = await listCities(query.country_code, query.state_code);
			c.header('Cache-Control', PLACE_CACHE);
			return c.json(body);
		});
	}
	for (const path of both('city')) {
		app.get(path, validate('query', CityQuerySchema), async (c) => {
			const body = await getCityInfo(c.req.valid('query').city_slug);
			c.header('Cache-Control', PLACE_CACHE);
			return c.json(body);
		});
	}
	for (const path of both('city/routes/:id')) {
		app.get(
			path,
			validate('param', CityRoutesParamSchema),
			validate('query', CityRoutesQuerySchema),
			async (c) => {
				const body = await listCityRoutes(c.var.deps, c.req.valid('param').id, c.req.valid('query'));
				c.header('Cache-Control', ROUTES_CACHE);
				return c.json(body);
			},
		);
	}
	/** Which of our pages a search_for_city suggestion leads to. */
	for (const path of both('locate')) {
		app.get(path, validate('query', LocateQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const [lat, lng] = query.location;
			const body = await locatePlace(lat, lng, query.kind, query.name);
			c.header('Cache-Control', PLACE_CACHE);
			return c.json(body);
		});
	}
	return app;
}
