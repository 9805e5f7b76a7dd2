import { describe, expect, test } from 'vitest';
import { readClientIp } from '../../../src/lib/api/app';

const spoofed = new Request('http://localhost/', { headers: { 'x-forwarded-for': '203.0.113.9, 10.0.0.1' } });

describe('readClientIp', () => {
	test('ignores X-Forwarded-For unless the proxy is ours, so nobody picks their own address', () => {
		expect(readClientIp(spoofed, false, '198.51.100.7')).toBe('198.51.100.7');
	});

	test('believes the first forwarded address behind a trusted proxy', () => {
		expect(readClientIp(spoofed, true, '10.0.0.1')).toBe('203.0.113.9');
	});

	test('falls back to the socket when a trusted proxy sent no header, and says unknown without one', () => {
		expect(readClientIp(new Request('http://localhost/'), true, '10.0.0.1')).toBe('10.0.0.1');
		expect(readClientIp(new Request('http://localhost/'), false, undefined)).toBe('unknown');
	});
});
