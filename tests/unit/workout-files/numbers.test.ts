import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseDecimalRange } from '~/lib/workout-files/numbers';
import { formatUtc, parseIsoTime } from '~/lib/workout-files/time';

const viaNumber = (s: string) => {
	const value = s.trim() === '' ? Number.NaN : Number(s) + 0;
	return Number.isFinite(value) ? value : Number.NaN;
};

describe('parseDecimalRange', () => {
	it('gives exactly what Number() gives, for any double written out and for decimal strings', () => {
		fc.assert(
			fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }), (x) => {
				const s = String(x);
				expect(Object.is(parseDecimalRange(s, 0, s.length), viaNumber(s))).toBe(true);
			}),
			{ numRuns: 5000, seed: 1 },
		);
		fc.assert(
			fc.property(fc.stringMatching(/^ ?[-+]?\d{0,20}(\.\d{0,25})? ?$/), (s) => {
				expect(Object.is(parseDecimalRange(s, 0, s.length), viaNumber(s))).toBe(true);
			}),
			{ numRuns: 5000, seed: 2 },
		);
	});

	it('reads inside a larger text, and refuses what is not a number', () => {
		const doc = '<ele>-12.50</ele><ele>1e3</ele><ele>abc</ele><ele> </ele><ele>-0</ele>';
		expect(parseDecimalRange(doc, 5, 11)).toBe(-12.5);
		expect(parseDecimalRange(doc, 22, 25)).toBe(1000);
		expect(parseDecimalRange(doc, 36, 39)).toBeNaN();
		expect(parseDecimalRange(doc, 50, 51)).toBeNaN();
		expect(Object.is(parseDecimalRange(doc, 62, 64), 0)).toBe(true);
	});
});

describe('ISO times', () => {
	it('reads zones, fractions and zone-less times as UTC', () => {
		expect(parseIsoTime('2024-03-01T10:00:00Z')).toBe(Date.UTC(2024, 2, 1, 10));
		expect(parseIsoTime(' 2024-03-01T10:00:00.250Z ')).toBe(Date.UTC(2024, 2, 1, 10, 0, 0, 250));
		expect(parseIsoTime('2024-03-01T10:00:00')).toBe(Date.UTC(2024, 2, 1, 10));
		expect(parseIsoTime('2024-03-01T12:30:00+02:30')).toBe(Date.UTC(2024, 2, 1, 10));
		expect(parseIsoTime('2024-03-01T05:00:00-0500')).toBe(Date.UTC(2024, 2, 1, 10));
		for (const bad of [
			'2024-13-01T10:00:00Z',
			'2024-03-01',
			'yesterday',
			'2024-03-01T10:00:00+2',
			'2024-03-01T10:00:00Zjunk',
		]) {
			expect(parseIsoTime(bad)).toBeNaN();
		}
	});

	it('agrees with Date for any instant and prints +00:00', () => {
		fc.assert(
			fc.property(fc.integer({ min: -2e12, max: 4e12 }), (ms) => {
				const iso = new Date(ms).toISOString();
				expect(parseIsoTime(iso)).toBe(ms);
				expect(parseIsoTime(formatUtc(ms))).toBe(ms);
				expect(formatUtc(ms)).toMatch(/\+00:00$/);
			}),
			{ numRuns: 2000, seed: 3 },
		);
	});
});
