import { Hono } from 'hono';
import { getCookie } from 'hono/cookie';
import packageJson from '../../../../package.json' with { type: 'json' };
import type { Viewer } from '../../auth/contract';
import { findViewerBySessionCookie } from '../../auth/server/session';
import { getConfig } from '../../core/config';
import type { AppDeps } from '../../core/server/deps';
import { getLoyaltyStatus, inLoyaltyPilot } from '../../loyalty/server/service';
import { buildBootup } from '../bootup';
import { GEO_COOKIE, type Geo, parseGeo } from '../privacy-request';

/** The auth middleware of the root app puts the signed-in member here (absent or null for visitors). */
export type SiteApiEnv = { Variables: { viewer?: Viewer | null; deps?: AppDeps } };

/** Geo headers are believed only behind a proxy we run; otherwise the geo cookie it set earlier. */
function readGeo(headers: Headers, cookie: string | undefined): Geo | null {
	const config = getConfig();
	if (config.trustedProxy) {
		const country = headers.get(config.geoHeaders.country);
		if (country) {
			const region = headers.get(config.geoHeaders.region);
			return parseGeo(region ? `${country}-${region}` : country);
		}
	}
	return parseGeo(cookie);
}

/** Site endpoints, relative to /api. */
export const siteApi = new Hono<SiteApiEnv>().get('/site/bootup', async (c) => {
	// Islands ask before they hold an access token; the session cookie then says who is asking, as it does
	// for pages. Only read, never rotated: a refresh here would race the page's own requests.
	const deps = c.get('deps');
	const viewer =
		c.get('viewer') ?? (deps ? await findViewerBySessionCookie(deps, c.req.header('cookie') ?? null) : null);
	const bootup = buildBootup({
		config: deps?.config ?? getConfig(),
		viewer,
		geo: readGeo(c.req.raw.headers, getCookie(c, GEO_COOKIE)),
		version: packageJson.version,
	});
	// Read with the session cookie like the rest, so the profile menu needs no access token for it.
	if (deps && viewer && inLoyaltyPilot(deps.config, viewer)) {
		const { status, pointsBalance } = await getLoyaltyStatus(deps, viewer, viewer.id);
		bootup.loyalty = { status, pointsBalance };
	}
	// Varies by member and location, so no shared cache may keep it.
	c.header('Cache-Control', 'private, no-store');
	return c.json(bootup);
});
