import * as v from 'valibot';
import { BUILT_IN_TILES_MAX_ZOOM, MAP_TYPES, type MapTileLayer, OSM_ATTRIBUTION } from './map-types';
import { ROLLOUT_NAMES, type RolloutName, type RolloutSetting } from './rollout-names';

/** Site variants change the product's name and wording; see lib/site/variants.ts. */
export const SITE_VARIANTS = ['fitness', 'walk', 'run', 'ride', 'uarun'] as const;

const DEV_SECRET = 'development-secret-do-not-use-in-production-000000';

const port = v.pipe(
	v.optional(v.string(), '4321'),
	v.transform(Number),
	v.integer('PORT must be a whole number'),
	v.minValue(1, 'PORT must be 1-65535'),
	v.maxValue(65535, 'PORT must be 1-65535'),
);

const urlString = (name: string) => v.pipe(v.string(), v.url(`${name} must be a URL`));

/** Tiles come from https:// or from this server (a path, never `//host`); Leaflet fills {z}, {x}, {y} (and {s}, and {r} with `@2x` on high-density screens). */
const TileUrlTemplate = v.pipe(
	v.string(),
	v.maxLength(500),
	v.regex(
		/^(https:\/\/[^\s"'<>]+|\/(?!\/)[^\s"'<>]*)$/,
		'url must start with https:// or / and contain no spaces',
	),
	v.check(
		(url) => ['{z}', '{x}', '{y}'].every((part) => url.includes(part)),
		'url must contain {z}, {x} and {y}',
	),
);

const MapTileLayerSchema = v.strictObject({
	type: v.picklist(MAP_TYPES, `type must be one of ${MAP_TYPES.join(', ')}`),
	url: TileUrlTemplate,
	attribution: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(300))),
	maxZoom: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(22))),
});

/**
 * MAP_TILE_LAYERS: a JSON array of `{ type, url, attribution?, maxZoom? }`, one per map type the
 * map offers, the first being the default. Unset, the map has one layer: TILE_URL as OSM.
 */
const MapTileLayersJson = v.pipe(
	v.string(),
	v.parseJson(undefined, 'MAP_TILE_LAYERS must be JSON'),
	v.array(MapTileLayerSchema, 'MAP_TILE_LAYERS must be a JSON array'),
	v.minLength(1, 'MAP_TILE_LAYERS must list at least one layer'),
	v.check(
		(layers) => new Set(layers.map((layer) => layer.type)).size === layers.length,
		'MAP_TILE_LAYERS lists a map type twice',
	),
);

/**
 * ROLLOUTS: a JSON object from rollout name to `{ percent?, members? }`: the share of members (0-100) who get
 * the rollout, and members (ids or usernames) who get it whatever their share.
 */
const RolloutsJson = v.pipe(
	v.string(),
	v.parseJson(undefined, 'ROLLOUTS must be JSON'),
	v.record(
		v.picklist(ROLLOUT_NAMES, `ROLLOUTS names must be among ${ROLLOUT_NAMES.join(', ')}`),
		v.strictObject({
			percent: v.optional(
				v.pipe(v.number(), v.minValue(0, 'percent must be 0-100'), v.maxValue(100, 'percent must be 0-100')),
			),
			members: v.optional(
				v.pipe(
					v.array(
						v.union(
							[
								v.pipe(v.number(), v.integer(), v.minValue(1)),
								v.pipe(v.string(), v.trim(), v.minLength(1), v.maxLength(100)),
							],
							'members must be member ids or usernames',
						),
					),
					v.maxLength(1000),
				),
			),
		}),
	),
);

const EnvSchema = v.object({
	NODE_ENV: v.optional(v.picklist(['development', 'production', 'test']), 'development'),
	PORT: port,
	HOST: v.optional(v.string(), '127.0.0.1'),
	PUBLIC_URL: v.optional(urlString('PUBLIC_URL')),
	DATA_DIR: v.optional(v.pipe(v.string(), v.minLength(1)), './data'),
	DATABASE_URL: v.optional(
		v.pipe(
			v.string(),
			v.regex(
				/^(postgres(ql)?|file|memory):\/\//,
				'DATABASE_URL must start with postgres://, file:// or memory://',
			),
		),
	),
	SITE_VARIANT: v.optional(
		v.picklist(SITE_VARIANTS, 'SITE_VARIANT must be one of fitness, walk, run, ride, uarun'),
		'fitness',
	),
	TILE_URL: v.optional(v.string(), '/tiles/{z}/{x}/{y}{r}.png'),
	TILE_ATTRIBUTION: v.optional(v.string(), '© OpenStreetMap contributors'),
	MAP_TILE_LAYERS: v.optional(MapTileLayersJson),
	ROLLOUTS: v.optional(RolloutsJson),
	SMTP_URL: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^smtps?:\/\/[^\s]+$/, 'SMTP_URL must look like smtp://host:port or smtps://user:pass@host'),
		),
	),
	MAIL_FROM: v.optional(v.string(), 'Mapstride <no-reply@mapstride.localhost>'),
	ROUTING_URL: v.optional(urlString('ROUTING_URL')),
	ELEVATION_URL: v.optional(
		v.pipe(
			v.string(),
			v.maxLength(500),
			v.regex(
				/^https?:\/\/[^\s"'<>]+\{tile\}[^\s"'<>]*$/,
				'ELEVATION_URL must be an http(s) URL template with {tile} (and maybe {tile_dir}), e.g. https://host/skadi/{tile_dir}/{tile}.hgt.gz',
			),
		),
	),
	OPEN_METEO_ARCHIVE_URL: v.optional(urlString('OPEN_METEO_ARCHIVE_URL')),
	GARMIN_CLIENT_ID: v.optional(
		v.pipe(v.string(), v.regex(/^[\w-]{1,200}$/, 'GARMIN_CLIENT_ID must be a client id')),
	),
	GARMIN_CLIENT_SECRET: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(500))),
	GARMIN_AUTHORIZE_URL: v.optional(urlString('GARMIN_AUTHORIZE_URL'), 'https://connect.garmin.com'),
	GARMIN_TOKEN_URL: v.optional(urlString('GARMIN_TOKEN_URL'), 'https://diauth.garmin.com'),
	GARMIN_API_URL: v.optional(urlString('GARMIN_API_URL'), 'https://apis.garmin.com'),
	STRIPE_SECRET_KEY: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^(sk|rk)_(test|live)_\w+$/, 'STRIPE_SECRET_KEY must look like sk_test_… or sk_live_…'),
		),
	),
	STRIPE_PUBLISHABLE_KEY: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^pk_(test|live)_\w+$/, 'STRIPE_PUBLISHABLE_KEY must look like pk_test_… or pk_live_…'),
		),
	),
	STRIPE_WEBHOOK_SECRET: v.optional(
		v.pipe(v.string(), v.regex(/^whsec_\w+$/, 'STRIPE_WEBHOOK_SECRET must look like whsec_…')),
	),
	BILLING_TEST_MODE: v.optional(v.picklist(['0', '1'], 'BILLING_TEST_MODE must be 1 or 0'), '0'),
	SESSION_SECRET: v.optional(
		v.pipe(v.string(), v.minLength(32, 'SESSION_SECRET must be at least 32 characters')),
		DEV_SECRET,
	),
	TRUSTED_PROXY: v.optional(v.picklist(['true', 'false']), 'false'),
	GEO_COUNTRY_HEADER: v.optional(v.string(), 'x-geo-country'),
	GEO_REGION_HEADER: v.optional(v.string(), 'x-geo-region'),
	SUPPORT_EMAIL: v.optional(v.string(), 'support@mapstride.localhost'),
	API_RATE_LIMIT: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^\d{1,6}$/, 'API_RATE_LIMIT must be a whole number of requests a minute (0: no limit)'),
			v.transform(Number),
		),
		'600',
	),
	SIGNUPS_PER_HOUR: v.optional(
		v.pipe(
			v.string(),
			v.regex(
				/^[1-9]\d{0,5}$/,
				'SIGNUPS_PER_HOUR must be a whole number of signups an hour from one address',
			),
			v.transform(Number),
		),
		'30',
	),
	BODY_STALL_SECONDS: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^[1-9]\d{0,2}$/, 'BODY_STALL_SECONDS must be a whole number of seconds from 1 to 999'),
			v.transform(Number),
		),
		'20',
	),
	LOG_LEVEL: v.optional(v.picklist(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']), 'info'),
	EMBEDDED_DB_THREAD: v.optional(
		v.picklist(['worker', 'main'], 'EMBEDDED_DB_THREAD must be worker or main'),
		'worker',
	),
});

export type Config = {
	env: 'development' | 'production' | 'test';
	port: number;
	host: string;
	publicUrl: string;
	dataDir: string;
	databaseUrl: string | undefined;
	/** Where the embedded database runs: a thread of its own, or the server's (`main`). */
	embeddedDbThread: 'worker' | 'main';
	siteVariant: (typeof SITE_VARIANTS)[number];
	tiles: { url: string; attribution: string };
	/** The map types the route map offers, the default first. */
	mapLayers: MapTileLayer[];
	/** Shares and listed members of rollouts, in place of the built-in defaults. */
	rollouts: Partial<Record<RolloutName, RolloutSetting>>;
	smtpUrl: string | undefined;
	mailFrom: string;
	routingUrl: string | undefined;
	/** SRTM tiles in the skadi layout, fetched when first needed (ELEVATION_URL). */
	elevationUrl: string | undefined;
	/**
	 * Where past weather comes from; unset, workouts show none. Open-Meteo's historical API
	 * (https://archive-api.open-meteo.com/v1/archive, or a self-hosted copy) is the one adapter.
	 */
	weather: { provider: 'open-meteo'; url: string } | null;
	/**
	 * Garmin Connect as a device cloud, when GARMIN_CLIENT_ID and GARMIN_CLIENT_SECRET are set (the URLs
	 * default to Garmin's own). The built-in test device cloud is offered either way.
	 */
	garmin: {
		clientId: string;
		clientSecret: string;
		authorizeBase: string;
		tokenBase: string;
		apiBase: string;
	} | null;
	/**
	 * Card payments: Stripe when STRIPE_SECRET_KEY is set (with the endpoint's STRIPE_WEBHOOK_SECRET,
	 * and the STRIPE_PUBLISHABLE_KEY the checkout's card form loads Stripe.js with), otherwise the
	 * built-in test processor, which charges no real card.
	 */
	stripe: { secretKey: string; webhookSecret: string; publishableKey: string } | null;
	/**
	 * BILLING_TEST_MODE=1: a production server may run on the built-in test processor (a test or
	 * staging deployment); without it production refuses to start with no card processor.
	 */
	billingTestMode: boolean;
	sessionSecret: string;
	/** Only behind a proxy we run may X-Forwarded-For and geo headers be believed. */
	trustedProxy: boolean;
	geoHeaders: { country: string; region: string };
	supportEmail: string;
	logLevel: string;
	/** API requests a minute per caller (member, or address for visitors); 0 turns the limit off. */
	apiRateLimitPerMinute: number;
	/** Signups an hour from one address before 429. */
	signupsPerHour: number;
	/** A request body that stops arriving for this long is cut off with 408. */
	bodyStallSeconds: number;
};

export class ConfigError extends Error {}

/** Reads and validates the environment once; every other module asks this one. */
export function readConfig(env: Record<string, string | undefined> = process.env): Config {
	const result = v.safeParse(EnvSchema, env);
	if (!result.success) {
		const lines = result.issues.map((issue) => `  ${v.getDotPath(issue) ?? 'env'}: ${issue.message}`);
		throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
	}
	const e = result.output;
	return {
		env: e.NODE_ENV,
		port: e.PORT,
		host: e.HOST,
		publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
		dataDir: e.DATA_DIR,
		databaseUrl: e.DATABASE_URL,
		embeddedDbThread: e.EMBEDDED_DB_THREAD,
		siteVariant: e.SITE_VARIANT,
		tiles: { url: e.TILE_URL, attribution: e.TILE_ATTRIBUTION },
		mapLayers: (e.MAP_TILE_LAYERS ?? [{ type: 'OSM', url: e.TILE_URL }]).map((layer) => ({
			type: layer.type,
			url: layer.url,
			attribution:
				layer.attribution ??
				(layer.url === e.TILE_URL
					? e.TILE_ATTRIBUTION
					: layer.url.startsWith('/tiles/')
						? OSM_ATTRIBUTION
						: ''),
			maxZoom: layer.maxZoom ?? (layer.url.startsWith('/tiles/') ? BUILT_IN_TILES_MAX_ZOOM : 19),
		})),
		rollouts: e.ROLLOUTS ?? {},
		smtpUrl: e.SMTP_URL,
		mailFrom: e.MAIL_FROM,
		routingUrl: e.ROUTING_URL,
		elevationUrl: e.ELEVATION_URL,
		weather: e.OPEN_METEO_ARCHIVE_URL ? { provider: 'open-meteo', url: e.OPEN_METEO_ARCHIVE_URL } : null,
		garmin:
			e.GARMIN_CLIENT_ID && e.GARMIN_CLIENT_SECRET
				? {
						clientId: e.GARMIN_CLIENT_ID,
						clientSecret: e.GARMIN_CLIENT_SECRET,
						authorizeBase: e.GARMIN_AUTHORIZE_URL.replace(/\/$/, ''),
						tokenBase: e.GARMIN_TOKEN_URL.replace(/\/$/, ''),
						apiBase: e.GARMIN_API_URL.replace(/\/$/, ''),
					}
				: null,
		stripe: e.STRIPE_SECRET_KEY
			? {
					secretKey: e.STRIPE_SECRET_KEY,
					webhookSecret: e.STRIPE_WEBHOOK_SECRET ?? '',
					publishableKey: e.STRIPE_PUBLISHABLE_KEY ?? '',
				}
			: null,
		billingTestMode: e.BILLING_TEST_MODE === '1',
		sessionSecret: e.SESSION_SECRET,
		trustedProxy: e.TRUSTED_PROXY === 'true',
		geoHeaders: { country: e.GEO_COUNTRY_HEADER.toLowerCase(), region: e.GEO_REGION_HEADER.toLowerCase() },
		supportEmail: e.SUPPORT_EMAIL,
		logLevel: e.LOG_LEVEL,
		apiRateLimitPerMinute: e.API_RATE_LIMIT,
		signupsPerHour: e.SIGNUPS_PER_HOUR,
		bodyStallSeconds: e.BODY_STALL_SECONDS,
	};
}

/**
 * A production server must not run on development defaults. Checked when the server boots, not
 * when pages are pre-rendered (`astro build` runs with NODE_ENV=production and needs no secrets).
 */
export function assertReadyForProduction(
	config: Config,
	env: Record<string, string | undefined> = process.env,
): void {
	if (config.env !== 'production') return;
	const refused: string[] = [];
	if (config.sessionSecret === DEV_SECRET) refused.push('SESSION_SECRET is the development default');
	if (!env.PUBLIC_URL) refused.push('PUBLIC_URL must be set');
	if (config.stripe && !config.stripe.webhookSecret)
		refused.push('STRIPE_WEBHOOK_SECRET must be set with STRIPE_SECRET_KEY');
	if (config.stripe && !config.stripe.publishableKey)
		refused.push('STRIPE_PUBLISHABLE_KEY must be set with STRIPE_SECRET_KEY');
	// The test processor takes card tokens the browser makes: anyone could become MVP for nothing.
	if (!config.stripe && !config.billingTestMode)
		refused.push(
			'STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET and STRIPE_PUBLISHABLE_KEY must be set: the built-in test processor charges no card (set BILLING_TEST_MODE=1 for a test deployment that says so on every checkout)',
		);
	if (refused.length)
		throw new ConfigError(`Refusing development defaults in production:\n  ${refused.join('\n  ')}`);
}

let cached: Config | undefined;

export function getConfig(): Config {
	cached ??= readConfig();
	return cached;
}
