import { describe, expect, test } from 'vitest';
import { birthYears, checkBirthdate, safeNextPath } from '../../../src/lib/auth/contract';
import {
	checkPassword,
	hashPassword,
	needsRehash,
	verifyPassword,
} from '../../../src/lib/auth/server/passwords';

describe('checkPassword', () => {
	test.each([
		['', 'blank'],
		['k9#Lm2q', 'too_short'],
		['password', 'common'],
		['Password1!', 'common'],
		['iloveyou1', 'common'],
		['aaaaaaaaaaaa', 'common'],
		['x'.repeat(257), 'too_long'],
	])('%s is refused as %s', (password, code) => {
		expect(checkPassword(password)?.code).toBe(code);
	});

	test.each([
		['tz7#Qm2v'],
		['correct horse battery staple'],
		['Blue-Kettle-Orbit-42'],
		[`${'ü'.repeat(4)}x9Zq!mr`],
	])('%s is accepted without composition rules', (password) => {
		expect(checkPassword(password)).toBeNull();
	});

	test('a password built from the member’s own name is refused', () => {
		expect(checkPassword('adalovelace', ['adalovelace@example.test', 'adalovelace'])?.code).toBe('common');
	});
});

describe('argon2id', () => {
	test('hashes at the configured parameters and verifies without truncating', async () => {
		const long = `${'a1B!'.repeat(20)}tail-one`;
		const hash = await hashPassword(long);
		expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,p=1,t=2\$/);
		expect(needsRehash(hash)).toBe(false);
		expect(await verifyPassword(hash, long)).toBe(true);
		expect(await verifyPassword(hash, `${'a1B!'.repeat(20)}tail-two`)).toBe(false);
		expect(await verifyPassword(null, long)).toBe(false);
		expect(needsRehash('$argon2id$v=19$m=4096,t=1,p=1$c29tZXNhbHQ$aGFzaA')).toBe(true);
	});
});

describe('birthdate rules', () => {
	const today = new Date('2026-06-15T00:00:00Z');
	test('years run from 11 to 120 years ago, newest first', () => {
		const years = birthYears(today);
		expect(years[0]).toBe(2015);
		expect(years.at(-1)).toBe(1906);
		expect(years).toHaveLength(110);
	});
	test.each([
		['2000-02-29', 'ok'],
		['2001-02-29', 'invalid'],
		['2000-13-01', 'invalid'],
		['2016-01-01', 'out_of_range'],
		['1905-12-31', 'out_of_range'],
		['20000101', 'invalid'],
	])('%s is %s', (value, verdict) => {
		expect(checkBirthdate(value, today)).toBe(verdict);
	});
});

describe('safeNextPath', () => {
	test.each([
		['/dashboard?x=1', '/dashboard?x=1'],
		['/account/settings', '/account/settings'],
		['//evil.test/x', '/dashboard'],
		['/\\evil.test', '/dashboard'],
		['https://evil.test', '/dashboard'],
		['javascript:alert(1)', '/dashboard'],
		['/x\ny', '/dashboard'],
		[null, '/dashboard'],
	])('%s → %s', (next, expected) => {
		expect(safeNextPath(next)).toBe(expected);
	});
});
