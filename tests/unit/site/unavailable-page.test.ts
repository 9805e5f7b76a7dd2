import { describe, expect, test } from 'vitest';
import { databaseUnavailablePage } from '../../../src/lib/site/server/unavailable';

describe('a page while the database is away', () => {
	test('is a 503 with Retry-After that tells nothing of the error', async () => {
		const terminated = Object.assign(new Error('terminating connection due to administrator command'), {
			code: '57P01',
		});
		const page = databaseUnavailablePage(new Error('Failed query: select …', { cause: terminated }));
		expect(page?.status).toBe(503);
		expect(page?.headers.get('retry-after')).toBe('5');
		expect(page?.headers.get('cache-control')).toBe('no-store');
		const html = (await page?.text()) ?? '';
		expect(html).toContain('Try again in a few seconds');
		expect(html).not.toContain('administrator');
		expect(html).not.toContain('select');
	});

	test('leaves every other error alone, so a bug stays a 500', () => {
		expect(databaseUnavailablePage(new TypeError('x is undefined'))).toBeNull();
		expect(databaseUnavailablePage(Object.assign(new Error('duplicate key'), { code: '23505' }))).toBeNull();
	});
});
