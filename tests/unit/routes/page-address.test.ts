import { describe, expect, test } from 'vitest';
import { linkTokenQuery, readRoutePageAddress } from '../../../src/lib/routes/page-address';

describe('route page addresses', () => {
	test('read the route id and the link token, refusing ids that are not route ids', () => {
		const url = new URL('https://x.test/routes/view/12?token=abc_-9');
		expect(readRoutePageAddress('12', url)).toEqual({ id: 12, token: 'abc_-9' });
		for (const bad of [undefined, '', '12a', '-1', '1234567890', '1.5'])
			expect(readRoutePageAddress(bad, url).id).toBeNull();
		expect(readRoutePageAddress('3', new URL('https://x.test/r?token=')).token).toBeNull();
		expect(
			readRoutePageAddress('3', new URL(`https://x.test/r?token=${'a'.repeat(300)}`)).token,
		).toHaveLength(100);
	});

	test('keep the token on links only for link-only routes', () => {
		expect(linkTokenQuery({ privacy: 6 }, 'a b')).toBe('?token=a%20b');
		expect(linkTokenQuery({ privacy: 6 }, null)).toBe('');
		for (const privacy of [0, 1, 3]) expect(linkTokenQuery({ privacy }, 'secret')).toBe('');
	});
});
