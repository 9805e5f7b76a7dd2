import { describe, expect, test } from 'vitest';
import { findCityTimeZones } from '../../../src/lib/account/server/time-zone-cities';

const US = { country: 'US', region: null };

describe('findCityTimeZones', () => {
	test.each([
		['Harrisburg', 'Harrisburg, Pennsylvania, US', 'America/New_York'],
		['Seattle', 'Seattle, Washington, US', 'America/Los_Angeles'],
		['Denver', 'Denver, Colorado, US', 'America/Denver'],
		['Andorra la Vella', 'Andorra la Vella, Andorra', 'Europe/Andorra'],
	])('finds %s in its own zone', (term, label, zone) => {
		expect(findCityTimeZones(term, 8, US)[0]).toEqual({ label, time_zone: zone });
	});

	test('offers each city once, however many records share its label', () => {
		const found = findCityTimeZones('Springfield', 8, US);
		expect(found.length).toBeGreaterThan(1);
		expect(new Set(found.map((city) => `${city.label}|${city.time_zone}`)).size).toBe(found.length);
	});

	test('keeps to the limit and names no countries or states, which can span zones', () => {
		const found = findCityTimeZones('Pennsylvania', 3, US);
		expect(found.length).toBeLessThanOrEqual(3);
		expect(found.map((city) => city.label)).not.toContain('Pennsylvania, US');
	});
});
