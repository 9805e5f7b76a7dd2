import { describe, expect, test } from 'vitest';
import {
	ageBand,
	ageOn,
	bmi,
	displayWeight,
	feetAndInchesToMetres,
	formatAgeBand,
	heightInFeetAndInches,
	measurementSystemFor,
	timeZoneOffsetMinutes,
} from '../../../src/lib/account/derived';
import { canView } from '../../../src/lib/account/privacy';
import { isListedTimeZone, listTimeZones } from '../../../src/lib/core/time-zones';
import { measurementSystemForPlace } from '../../../src/lib/core/units';

const today = new Date('2026-06-15T12:00:00Z');

describe('age', () => {
	test.each([
		['1990-06-15', 36],
		['1990-06-16', 35],
		['1990-06-14', 36],
		['2008-02-29', 18],
		['2026-06-15', 0],
		['2027-01-01', null],
		[null, null],
		['15/06/1990', null],
	])('born %s → %s', (birthdate, age) => {
		expect(ageOn(birthdate, today)).toBe(age);
	});

	test.each([
		[null, null],
		[0, 'under18'],
		[17, 'under18'],
		[18, '18to24'],
		[24, '18to24'],
		[25, '25to34'],
		[34, '25to34'],
		[35, '35to44'],
		[44, '35to44'],
		[45, '45to54'],
		[54, '45to54'],
		[55, '55andOver'],
		[99, '55andOver'],
	])('age %s is in band %s', (age, band) => {
		expect(ageBand(age)).toBe(band);
	});
});

describe('height and weight', () => {
	test.each([
		[1.8288, { feet: 6, inches: 0 }],
		[1.7, { feet: 5, inches: 7 }],
		[1.524, { feet: 5, inches: 0 }],
		[1.82, { feet: 6, inches: 0 }],
		[0, null],
		[null, null],
	])('%s m is %j', (metres, expected) => {
		expect(heightInFeetAndInches(metres)).toEqual(expected);
	});

	test('feet and inches go back to metres', () => {
		expect(feetAndInchesToMetres(6, 0)).toBeCloseTo(1.8288, 6);
	});

	test.each([
		[70, 'metric', { value: 70, unit: 'kg' }],
		[70, 'imperial', { value: 154.3, unit: 'lb' }],
		[100, 'imperial', { value: 220.5, unit: 'lb' }],
		[null, 'metric', null],
	] as const)('%s kg shown in %s is %j', (kg, system, expected) => {
		expect(displayWeight(kg, system)).toEqual(expected);
	});
});

describe('BMI', () => {
	// weight for a 1 m tall person equals the BMI, which makes the category edges exact.
	test.each([
		[14.9, 'very severely underweight'],
		[15, 'severely underweight'],
		[15.9, 'severely underweight'],
		[16, 'underweight'],
		[18.4, 'underweight'],
		[18.5, 'normal'],
		[24.9, 'normal'],
		[25, 'overweight'],
		[29.9, 'overweight'],
		[30, 'obese I'],
		[35, 'obese II'],
		[40, 'obese III'],
		[55, 'obese III'],
	])('BMI %s is %s', (value, category) => {
		expect(bmi(value, 1)).toEqual({ value, category });
	});

	test('uses kilograms over metres squared', () => {
		expect(bmi(70, 1.75)).toEqual({ value: 22.9, category: 'normal' });
		expect(bmi(null, 1.75)).toBeNull();
		expect(bmi(70, 0)).toBeNull();
	});
});

describe('measurement rule', () => {
	test.each([
		[{ display_measurement_system: 'imperial' }, 'de-DE', 'imperial'],
		[{ display_measurement_system: 'metric' }, 'en-US', 'metric'],
		[null, 'en-US', 'imperial'],
		[null, 'en-us', 'imperial'],
		[null, 'en-GB', 'metric'],
		[null, 'fr', 'metric'],
	])('member %j in %s sees %s', (member, locale, system) => {
		expect(measurementSystemFor(member, locale)).toBe(system);
	});
});

describe('units for a new member or a visitor', () => {
	test.each([
		[{ country: 'US' }, 'imperial'],
		[{ country: 'us', locale: 'de-DE' }, 'imperial'],
		[{ country: 'GB', locale: 'en-US' }, 'metric'],
		[{ country: 'NL' }, 'metric'],
		[{ locale: 'en-US,en;q=0.9' }, 'imperial'],
		[{ locale: 'es-US;q=0.8' }, 'imperial'],
		[{ locale: 'en-GB,en-US;q=0.5' }, 'metric'],
		[{}, 'metric'],
	])('%j gets %s', (place, system) => {
		expect(measurementSystemForPlace(place)).toBe(system);
	});
});

describe('age band as people read it', () => {
	test.each([
		[10, 'Under 18'],
		[18, '18–24'],
		[40, '35–44'],
		[54, '45–54'],
		[70, '55 and over'],
		[null, '—'],
	])('age %s reads %s', (age, label) => {
		expect(formatAgeBand(ageBand(age))).toBe(label);
	});
});

describe('time zones members choose from', () => {
	test('are the IANA Area/Location zones plus UTC, sorted', () => {
		const zones = listTimeZones();
		expect(zones).toContain('UTC');
		expect(zones).toContain('America/New_York');
		expect(zones).toContain('Europe/London');
		expect([...zones].sort()).toEqual(zones);
	});

	test.each([
		['America/Chicago', true],
		['UTC', true],
		['Asia/Kolkata', true],
		['Asia/Calcutta', true],
		['EST', false],
		['GMT+5', false],
		['Etc/GMT+4', true],
		['Etc/GMT-14', true],
		['Etc/GMT+13', false],
		['Etc/GMT+0', false],
		['Etc/GMT-4:30', false],
		['utc', false],
		['Mars/Olympus', false],
		['Europe/Atlantis', false],
		['', false],
	])('%s is accepted: %s', (zone, accepted) => {
		expect(isListedTimeZone(zone)).toBe(accepted);
	});
});

describe('time zone offset', () => {
	test.each([
		['UTC', '2026-01-15T12:00:00Z', 0],
		['Europe/London', '2026-07-01T12:00:00Z', 60],
		['America/New_York', '2026-01-15T12:00:00Z', -300],
		['Asia/Kolkata', '2026-01-15T12:00:00Z', 330],
		['Not/AZone', '2026-01-15T12:00:00Z', 0],
	])('%s at %s is %s minutes', (zone, at, minutes) => {
		expect(timeZoneOffsetMinutes(zone, new Date(at))).toBe(minutes);
	});
});

describe('canView', () => {
	test.each([
		[1, 1, 0, false, true],
		[2, 1, 0, true, false],
		[2, 1, 1, true, true],
		[2, 1, 1, false, false],
		[null, 1, 1, true, false],
		[null, 1, 3, false, true],
		[2, 1, 3, false, true],
		[2, 1, 6, false, false],
	])('viewer %s, owner %s, level %s, friend %s → %s', (viewer, owner, level, friend, expected) => {
		expect(canView(viewer, owner, level, { isFriend: friend, blocked: false })).toBe(expected);
	});
	test('a block hides a profile at every level from a signed-in member, not from the owner or signed-out visitors', () => {
		for (const level of [0, 1, 3])
			expect(canView(2, 1, level, { isFriend: false, blocked: true })).toBe(false);
		expect(canView(1, 1, 0, { isFriend: false, blocked: true })).toBe(true);
		expect(canView(null, 1, 3, { isFriend: false, blocked: true })).toBe(true);
	});
});
