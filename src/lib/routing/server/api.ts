import { type Context, Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import type { ApiEnv } from '../../api/context';
import {
	CHECKOUT_PATH,
	checkFeature,
	PREMIUM_FEATURE_NAMES,
	type PremiumFeature,
} from '../../billing/features';
import {
	ErrorResponseSchema,
	GeocodeQuerySchema,
	HeightRequestSchema,
	LocateRequestSchema,
	MAX_LOCATIONS,
	type PremiumRequiredResponse,
	PremiumRequiredResponseSchema,
	RoundTripRequestSchema,
	RoundTripResponseSchema,
	RouteRequestSchema,
} from '../contract.ts';
import { RoutingEngine, RoutingError } from '../engine.ts';
import { planRoundTrips } from '../round-trip.ts';
import { readSearchHome, searchHomeFor } from './search-home.ts';

export interface RoutingApiOptions {
	/**
	 * The in-process engine; a promise while regions load at boot, or a getter of the current one when
	 * added or removed regions replace it while the server runs.
	 */
	engine?: RoutingEngine | Promise<RoutingEngine> | (() => Promise<RoutingEngine>) | null;
	/** Valhalla-compatible server to forward routing requests to (ROUTING_URL); wins over the engine. */
	routingUrl?: string | null;
	/** Upstream timeout in ms (default 10,000). */
	timeoutMs?: number;
	/** Injected for tests. */
	fetch?: typeof fetch;
}

const STATUS_TEXT: Record<number, string> = {
	400: 'Bad Request',
	403: 'Forbidden',
	413: 'Payload Too Large',
	502: 'Bad Gateway',
	503: 'Service Unavailable',
	504: 'Gateway Timeout',
};

type ErrorStatus = 400 | 403 | 413 | 502 | 503 | 504;

function sendError(c: Context, code: number, message: string, status: ErrorStatus = 400) {
	return c.json(
		{ error_code: code, error: message, status_code: status, status: STATUS_TEXT[status] },
		status,
	);
}

/**
 * Refuses an MVP feature to a visitor or a member without MVP, before any routing work. Mounted alone (tests,
 * tools) no one is signed in, so the feature is refused there too.
 */
function requireFeature(feature: PremiumFeature) {
	return async (c: Context, next: () => Promise<void>) => {
		if (checkFeature((c as Context<ApiEnv>).var.viewer, feature)) return next();
		const body: PremiumRequiredResponse = {
			error_code: 0,
			error: `${PREMIUM_FEATURE_NAMES[feature]} is part of MVP. Get MVP at ${CHECKOUT_PATH}.`,
			status_code: 403,
			status: STATUS_TEXT[403],
			feature,
			checkout_path: CHECKOUT_PATH,
		};
		return c.json(body, 403);
	};
}

// Valhalla's codes for the request problems a client can fix.
function describeRouteIssue(input: unknown, issues: v.BaseIssue<unknown>[]): [number, string] {
	const locations = (input as { locations?: unknown })?.locations;
	if (!Array.isArray(locations)) return [110, 'Insufficiently specified required parameter: locations'];
	if (locations.length < 2) return [120, 'Insufficient number of locations provided: at least 2 are needed'];
	if (locations.length > MAX_LOCATIONS) {
		return [150, `Exceeded max locations: at most ${MAX_LOCATIONS} are allowed, got ${locations.length}`];
	}
	const path = issues[0]?.path?.map((item) => item.key).join('.') ?? '';
	if (path.startsWith('costing'))
		return [
			125,
			`No costing method found for '${String((input as { costing?: unknown }).costing)}' (use pedestrian, bicycle or auto)`,
		];
	if (path.startsWith('locations')) return [130, `Failed to parse location ${path}: ${issues[0].message}`];
	return [100, `Invalid request${path ? ` at ${path}` : ''}: ${issues[0]?.message ?? 'unknown problem'}`];
}

const MAX_BODY = 1024 * 1024;

async function readJson(
	c: Context,
): Promise<{ ok: true; value: unknown } | { ok: false; tooLarge?: boolean }> {
	try {
		if (c.req.method === 'GET') {
			const json = c.req.query('json');
			if (json === undefined) return { ok: false };
			return { ok: true, value: JSON.parse(json) };
		}
		if (Number(c.req.header('content-length') ?? 0) > MAX_BODY) return { ok: false, tooLarge: true };
		const text = await c.req.text();
		if (text.length > MAX_BODY) return { ok: false, tooLarge: true };
		return { ok: true, value: JSON.parse(text) };
	} catch {
		return { ok: false };
	}
}

/** The routing and geocoding endpoints, relative to /api; the house mounts them with app.route('/', api). */
export function createRoutingApi(options: RoutingApiOptions): Hono {
	const app = new Hono();
	const timeoutMs = options.timeoutMs ?? 10_000;
	const doFetch = options.fetch ?? fetch;
	const upstream = options.routingUrl ? options.routingUrl.replace(/\/+$/, '') : null;

	const placesOnly = new RoutingEngine({ regions: [] });
	let loadFailure: string | null = null;
	// A failed boot load answers 503 with its reason instead of failing every request differently.
	const getEngine = async (): Promise<RoutingEngine | null> => {
		if (!options.engine) return null;
		try {
			return await (typeof options.engine === 'function' ? options.engine() : options.engine);
		} catch (error) {
			loadFailure = (error as Error).message;
			return null;
		}
	};

	const forward = async (c: Context, action: string, body: unknown) => {
		try {
			const response = await doFetch(`${upstream}/${action}`, {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(body),
				signal: AbortSignal.timeout(timeoutMs),
			});
			const text = await response.text();
			let parsed: unknown;
			try {
				parsed = JSON.parse(text);
			} catch {
				return sendError(c, 0, `Routing server answered ${response.status} without JSON`, 502);
			}
			if (response.status >= 500) {
				return sendError(c, 0, `Routing server failed (${response.status}): ${text.slice(0, 200)}`, 502);
			}
			return c.json(parsed as object, response.status === 200 ? 200 : 400);
		} catch (error) {
			const name = (error as Error).name;
			if (name === 'TimeoutError' || name === 'AbortError') {
				return sendError(c, 0, `Routing server did not answer within ${timeoutMs} ms`, 504);
			}
			return sendError(c, 0, `Routing server is unreachable: ${(error as Error).message}`, 503);
		}
	};

	const handle = <S extends v.GenericSchema>(
		action: 'route' | 'locate' | 'height' | 'round_trip',
		schema: S,
		run: (engine: RoutingEngine, input: v.InferOutput<S>) => unknown,
	) => {
		return async (c: Context) => {
			const body = await readJson(c);
			if (!body.ok) {
				if (body.tooLarge) return sendError(c, 100, 'Request body is larger than 1 MiB', 413);
				return sendError(c, 100, 'Failed to parse json request');
			}
			const parsed = v.safeParse(schema, body.value);
			if (!parsed.success) {
				const [code, message] =
					action === 'route'
						? describeRouteIssue(body.value, parsed.issues)
						: [
								action === 'height' ? 310 : 110,
								`Invalid request: ${parsed.issues[0].message}${
									parsed.issues[0].path ? ` at ${parsed.issues[0].path.map((p) => p.key).join('.')}` : ''
								}`,
							];
				return sendError(c, code, message);
			}
			// A Valhalla server plans no round trips: they need the built-in engine.
			if (upstream && action !== 'round_trip') return forward(c, action, body.value);
			const engine = await getEngine();
			if (!engine) {
				const reason = loadFailure
					? `Routing engine failed to load: ${loadFailure}`
					: 'Routing is not configured: no regions loaded and no ROUTING_URL';
				return sendError(c, 0, reason, 503);
			}
			try {
				return c.json(run(engine, parsed.output) as object);
			} catch (error) {
				if (error instanceof RoutingError) return sendError(c, error.code, error.message);
				throw error;
			}
		};
	};

	const route = handle('route', RouteRequestSchema, (engine, input) => engine.route(input));
	const locate = handle('locate', LocateRequestSchema, (engine, input) => engine.locate(input));
	const height = handle('height', HeightRequestSchema, (engine, input) => engine.height(input));
	app.post('/routing/route', route);
	app.get('/routing/route', route);
	app.post('/routing/locate', locate);
	app.get('/routing/locate', locate);
	app.post('/routing/height', height);
	app.get('/routing/height', height);
	const roundTrip = handle('round_trip', RoundTripRequestSchema, (engine, input) =>
		planRoundTrips(engine, input),
	);
	const answer = (schema: v.GenericSchema, description: string) => ({
		description,
		content: { 'application/json': { schema: resolver(schema) } },
	});
	const roundTripDocs = (method: 'POST' | 'GET') =>
		describeRoute({
			summary: 'Loops that start and end at one point, near a target length (MVP)',
			...(method === 'POST'
				? {
						requestBody: {
							required: true,
							content: { 'application/json': { schema: resolver(RoundTripRequestSchema) } },
						},
					}
				: {
						parameters: [
							{
								in: 'query',
								name: 'json',
								required: true,
								description: 'The request body as JSON text',
								schema: { type: 'string' },
							},
						],
					}),
			responses: {
				200: answer(RoundTripResponseSchema, 'Up to three loops, least repeated way first'),
				400: answer(ErrorResponseSchema, 'The request is not valid'),
				403: answer(
					PremiumRequiredResponseSchema,
					'Round trips are part of MVP; the answer names the checkout',
				),
				413: answer(ErrorResponseSchema, 'The body is larger than 1 MiB'),
				503: answer(ErrorResponseSchema, 'No routing engine is loaded'),
			},
		});
	const gate = requireFeature('round_trip_routes');
	app.post('/routing/round_trip', roundTripDocs('POST'), gate, roundTrip);
	app.get('/routing/round_trip', roundTripDocs('GET'), gate, roundTrip);

	app.get('/geocode/search', async (c) => {
		const parsed = v.safeParse(GeocodeQuerySchema, {
			q: c.req.query('q') ?? '',
			format: c.req.query('format'),
			limit: c.req.query('limit'),
		});
		if (!parsed.success) {
			return sendError(
				c,
				100,
				`Invalid search: ${parsed.issues[0].message} at ${parsed.issues[0].path?.[0]?.key}`,
			);
		}
		// Cities need no map region, so search works even when routing is forwarded elsewhere.
		const engine = (await getEngine()) ?? placesOnly;
		const collection = engine.searchGeocode(parsed.output.q, parsed.output.limit);
		if (parsed.output.format === 'geojson') return c.json(collection);
		const count = collection.features.length;
		return c.json(
			collection.features.map((feature, i) => ({
				lat: String(feature.geometry.coordinates[1]),
				lon: String(feature.geometry.coordinates[0]),
				name: feature.properties.name,
				display_name: feature.properties.display_name,
				class: feature.properties.category,
				type: feature.properties.type,
				importance: Math.round((1 - i / Math.max(1, count)) * 1000) / 1000,
			})),
		);
	});

	const searchForCity = async (c: Context) => {
		const term = (c.req.query('term') ?? '').slice(0, 100);
		const engine = (await getEngine()) ?? placesOnly;
		if (term.trim().length < 3) return c.json([]);
		// Mounted in the house API the caller may be a member; alone (tests, tools) only the cookie is known.
		const { deps, viewer } = (c as Context<ApiEnv>).var;
		const cookie = c.req.header('cookie');
		const home = deps ? await searchHomeFor(deps, viewer ?? null, cookie) : readSearchHome(cookie);
		return c.json(engine.searchCities(term, 10, home));
	};
	app.get('/_api/search_for_city/', searchForCity);
	app.get('/_api/search_for_city', searchForCity);

	app.onError((error, c) => {
		console.error('routing api error', error);
		return sendError(c, 0, 'The routing engine failed on this request', 400);
	});
	return app;
}
