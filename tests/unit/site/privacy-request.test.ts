import { describe, expect, it } from 'vitest';
import { isPrivacyRequestEligible, parseGeo, readGeoCookie } from '~/lib/site/privacy-request';

describe('privacy request eligibility', () => {
	it.each(['US-CA', 'US-CO', 'US-CT', 'US-MT', 'US-OR', 'US-TX', 'US-UT', 'US-VA', 'us-ca'])(
		'shows the link in %s',
		(value) => {
			expect(isPrivacyRequestEligible(parseGeo(value))).toBe(true);
		},
	);

	it.each(['US-NY', 'US', 'CA-ON', 'GB-CA', 'MX-TX', '', 'US-', 'USA-CA', 'US-CA-X'])(
		'hides the link for %j',
		(value) => {
			expect(isPrivacyRequestEligible(parseGeo(value))).toBe(false);
		},
	);

	it('hides the link when the location is unknown', () => {
		expect(isPrivacyRequestEligible(null)).toBe(false);
	});

	it('reads the geo cookie among others', () => {
		expect(readGeoCookie('a=1; ms_geo=US-TX; b=2')).toEqual({ country: 'US', region: 'TX' });
		expect(readGeoCookie('ms_geo=US%2DCA')).toEqual({ country: 'US', region: 'CA' });
		expect(readGeoCookie('other=US-CA')).toBeNull();
		expect(readGeoCookie(undefined)).toBeNull();
	});
});
