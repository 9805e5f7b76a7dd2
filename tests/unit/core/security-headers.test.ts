import { describe, expect, test } from 'vitest';
import { buildSecurityHeaders } from '../../../src/lib/api/security-headers';

describe('security headers (security test 18)', () => {
	test('documents refuse framing and carry the document policies', () => {
		const headers = buildSecurityHeaders('/routes/view/12', false);
		expect(headers['Content-Security-Policy']).toBe(
			"frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'",
		);
		expect(headers['X-Frame-Options']).toBe('DENY');
		expect(headers['X-Content-Type-Options']).toBe('nosniff');
		expect(headers['Cross-Origin-Opener-Policy']).toBe('same-origin');
		expect(headers['Referrer-Policy']).toBe('strict-origin-when-cross-origin');
		expect(headers['Strict-Transport-Security']).toBeUndefined();
	});

	test('only the embed pages may be framed, by anyone', () => {
		for (const path of ['/embed/route/3', '/routes/view/embedded/12']) {
			const headers = buildSecurityHeaders(path, false);
			expect(headers['Content-Security-Policy']).toContain('frame-ancestors *');
			expect(headers['X-Frame-Options']).toBeUndefined();
		}
		expect(buildSecurityHeaders('/routes/view/12/embedded', false)['X-Frame-Options']).toBe('DENY');
	});

	test('hashed build assets get nosniff and HSTS but no document policies', () => {
		expect(buildSecurityHeaders('/_astro/client.Ab12.js', true)).toEqual({
			'X-Content-Type-Options': 'nosniff',
			'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
		});
		expect(buildSecurityHeaders('/x/_astro/page', false)['Content-Security-Policy']).toBeDefined();
	});

	test('production adds HSTS to documents', () => {
		expect(buildSecurityHeaders('/', true)['Strict-Transport-Security']).toBe(
			'max-age=31536000; includeSubDomains',
		);
	});
});
