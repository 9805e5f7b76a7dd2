import type { MiddlewareHandler } from 'hono';
import { getConfig } from '../core/config';

/** Pages meant to be framed by other sites (route embeds); everything else refuses framing. */
const EMBEDDABLE = /^\/(embed\/|routes\/view\/embedded\/)/;
const BUILD_ASSET = /^\/_astro\//;

/**
 * Sent as HTTP headers because a <meta> CSP cannot carry frame-ancestors. Script hashes come from
 * Astro's CSP meta tag on each page; both policies apply, so this one leaves script-src to it.
 * Hashed build assets (`/_astro/`) are scripts, styles and images, never documents: they get only
 * nosniff (and HSTS), since the document headers would do nothing there and each would cost every
 * script download a few hundred bytes of its page's script budget.
 */
export function buildSecurityHeaders(pathname: string, isProduction: boolean): Record<string, string> {
	const headers: Record<string, string> = { 'X-Content-Type-Options': 'nosniff' };
	if (isProduction) headers['Strict-Transport-Security'] = 'max-age=31536000; includeSubDomains';
	if (BUILD_ASSET.test(pathname)) return headers;
	const frameAncestors = EMBEDDABLE.test(pathname) ? '*' : "'none'";
	Object.assign(headers, {
		'Content-Security-Policy': `frame-ancestors ${frameAncestors}; object-src 'none'; base-uri 'none'; form-action 'self'`,
		'Referrer-Policy': 'strict-origin-when-cross-origin',
		'Cross-Origin-Opener-Policy': 'same-origin',
		'Permissions-Policy': 'geolocation=(self), camera=(), microphone=(), payment=(self)',
	});
	if (frameAncestors === "'none'") headers['X-Frame-Options'] = 'DENY';
	return headers;
}

// Built once per kind of path: this runs on every response.
let prebuilt:
	| { framed: [string, string][]; unframed: [string, string][]; asset: [string, string][] }
	| undefined;

export const applySecurityHeaders: MiddlewareHandler = async (c, next) => {
	await next();
	if (!prebuilt) {
		const isProduction = getConfig().env === 'production';
		prebuilt = {
			framed: Object.entries(buildSecurityHeaders('/embed/', isProduction)),
			unframed: Object.entries(buildSecurityHeaders('/', isProduction)),
			asset: Object.entries(buildSecurityHeaders('/_astro/', isProduction)),
		};
	}
	const headers = BUILD_ASSET.test(c.req.path)
		? prebuilt.asset
		: EMBEDDABLE.test(c.req.path)
			? prebuilt.framed
			: prebuilt.unframed;
	for (const [name, value] of headers) {
		const existing = c.res.headers.get(name);
		if (existing === null) c.header(name, value);
		else if (name === 'Content-Security-Policy' && !existing.includes('frame-ancestors')) {
			// On-demand pages carry Astro's hashed policy as a header; add the header-only directives to it.
			// A page that widened form-action itself (the OAuth consent screen) keeps its own.
			const added = existing.includes('form-action') ? value.replace(/; form-action [^;]*/, '') : value;
			c.header(name, `${existing.trim().replace(/;$/, '')}; ${added}`);
		}
	}
};
