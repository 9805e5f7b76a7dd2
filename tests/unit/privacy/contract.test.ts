import { describe, expect, test } from 'vitest';
import {
	ageOn,
	CONSENT_MATRICES,
	currentMatrix,
	isDoNotSellPlace,
	meetsMinimumAge,
	PRIVACY_REGIONS,
} from '../../../src/lib/privacy/contract';

describe('age', () => {
	test('a birthday counts from the day itself, not before', () => {
		const today = new Date('2026-06-01T12:00:00Z');
		expect(ageOn('2013-06-01', today)).toBe(13);
		expect(ageOn('2013-06-02', today)).toBe(12);
		expect(ageOn('June 2013', today)).toBeNull();
	});

	test('the minimum age is the region’s: 13 in the US and EU2, 16 in EU1', () => {
		const today = new Date('2026-06-01T12:00:00Z');
		expect(meetsMinimumAge('US', '2013-06-01', today)).toBe(true);
		expect(meetsMinimumAge('US', '2013-06-02', today)).toBe(false);
		expect(meetsMinimumAge('GB', '2013-06-01', today)).toBe(true);
		expect(meetsMinimumAge('DE', '2011-06-01', today)).toBe(false);
		expect(meetsMinimumAge('DE', '2010-06-01', today)).toBe(true);
		// No country given: the US rules.
		expect(meetsMinimumAge(undefined, '2014-01-01', today)).toBe(false);
	});
});

describe('matrices', () => {
	test('every region has a current matrix whose required consents include terms and privacy policy', () => {
		for (const region of PRIVACY_REGIONS) {
			const matrix = currentMatrix(region);
			const required = matrix.consents.filter((entry) => entry.required).map((entry) => entry.key);
			expect(required).toEqual(expect.arrayContaining(['terms', 'privacy_policy']));
			// A consent cannot have changed in a version later than the matrix it is in.
			for (const entry of matrix.consents) expect(entry.since).toBeLessThanOrEqual(matrix.version);
		}
	});

	test('versions of a region are numbered 1, 2, … in order', () => {
		for (const region of PRIVACY_REGIONS) {
			const versions = CONSENT_MATRICES.filter((matrix) => matrix.region === region).map((m) => m.version);
			expect(versions).toEqual(versions.map((_, index) => index + 1));
		}
	});

	test('do-not-sell applies in the eight US opt-out states only', () => {
		for (const state of ['CA', 'CO', 'CT', 'MT', 'OR', 'TX', 'UT', 'VA'])
			expect(isDoNotSellPlace('US', state)).toBe(true);
		expect(isDoNotSellPlace('us', 'ca')).toBe(true);
		expect(isDoNotSellPlace('US', 'NY')).toBe(false);
		expect(isDoNotSellPlace('CA', 'CA')).toBe(false);
		expect(isDoNotSellPlace('US', '')).toBe(false);
	});
});
