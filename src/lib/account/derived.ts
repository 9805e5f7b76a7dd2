import { zoneOffsetMs } from '../core/dates';
import {
	METRES_PER_FOOT,
	type MeasurementSystem,
	measurementSystemForPlace,
	POUNDS_PER_KG,
} from '../core/units';

/** Values computed from the profile (age, height and weight in the member's units, BMI, the default heart-rate zones); pure, for server and islands. */

/** Whole years between a YYYY-MM-DD birthdate and `today` (UTC); null without a valid birthdate. */
export function ageOn(birthdate: string | null | undefined, today: Date): number | null {
	const match = birthdate ? /^(\d{4})-(\d{2})-(\d{2})$/.exec(birthdate) : null;
	if (!match) return null;
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	let age = today.getUTCFullYear() - year;
	const beforeBirthday =
		today.getUTCMonth() + 1 < month || (today.getUTCMonth() + 1 === month && today.getUTCDate() < day);
	if (beforeBirthday) age -= 1;
	return age >= 0 ? age : null;
}

export const AGE_BANDS = ['under18', '18to24', '25to34', '35to44', '45to54', '55andOver'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

export function ageBand(age: number | null): AgeBand | null {
	if (age === null) return null;
	if (age < 18) return 'under18';
	if (age < 25) return '18to24';
	if (age < 35) return '25to34';
	if (age < 45) return '35to44';
	if (age < 55) return '45to54';
	return '55andOver';
}

const AGE_BAND_LABELS: Record<AgeBand, string> = {
	under18: 'Under 18',
	'18to24': '18–24',
	'25to34': '25–34',
	'35to44': '35–44',
	'45to54': '45–54',
	'55andOver': '55 and over',
};

/** An age band as people read it ("35–44"), wherever one is shown. */
export function formatAgeBand(band: AgeBand | null): string {
	return band === null ? '—' : AGE_BAND_LABELS[band];
}

/** Height in whole feet and inches (inches rounded; 12 inches carry into a foot). */
export function heightInFeetAndInches(
	metres: number | null | undefined,
): { feet: number; inches: number } | null {
	if (metres === null || metres === undefined || !(metres > 0)) return null;
	const totalInches = Math.round((metres / METRES_PER_FOOT) * 12);
	return { feet: Math.floor(totalInches / 12), inches: totalInches % 12 };
}

export function feetAndInchesToMetres(feet: number, inches: number): number {
	return ((feet * 12 + inches) / 12) * METRES_PER_FOOT;
}

/** Weight in the member's display system: kilograms for metric, pounds (1 kg = 2.20462 lb) for imperial. */
export function displayWeight(
	kilograms: number | null | undefined,
	system: 'metric' | 'imperial',
): { value: number; unit: 'kg' | 'lb' } | null {
	if (kilograms === null || kilograms === undefined || !(kilograms > 0)) return null;
	if (system === 'imperial') return { value: Math.round(kilograms * POUNDS_PER_KG * 10) / 10, unit: 'lb' };
	return { value: Math.round(kilograms * 10) / 10, unit: 'kg' };
}

export function poundsToKilograms(pounds: number): number {
	return pounds / POUNDS_PER_KG;
}

/** Each category starts at its minimum BMI. */
export const BMI_CATEGORIES = [
	{ min: 40, name: 'obese III' },
	{ min: 35, name: 'obese II' },
	{ min: 30, name: 'obese I' },
	{ min: 25, name: 'overweight' },
	{ min: 18.5, name: 'normal' },
	{ min: 16, name: 'underweight' },
	{ min: 15, name: 'severely underweight' },
	{ min: 0, name: 'very severely underweight' },
] as const;
export type BmiCategory = (typeof BMI_CATEGORIES)[number]['name'];

export function bmi(
	kilograms: number | null | undefined,
	metres: number | null | undefined,
): { value: number; category: BmiCategory } | null {
	if (!kilograms || !metres || kilograms <= 0 || metres <= 0) return null;
	const value = kilograms / (metres * metres);
	const category = BMI_CATEGORIES.find((entry) => value >= entry.min)?.name ?? 'very severely underweight';
	return { value: Math.round(value * 10) / 10, category };
}

/**
 * A signed-in member sees their own display setting; everyone else gets US units in a
 * US locale and metric elsewhere.
 */
export function measurementSystemFor(
	member: { display_measurement_system?: string | null } | null,
	locale: string,
): MeasurementSystem {
	if (member) return member.display_measurement_system === 'imperial' ? 'imperial' : 'metric';
	return measurementSystemForPlace({ locale });
}

/** Minutes east of UTC for an IANA zone at an instant; 0 for an unknown zone. */
export function timeZoneOffsetMinutes(timeZone: string, at: Date): number {
	try {
		return Math.round(zoneOffsetMs(at, timeZone) / 60_000);
	} catch {
		return 0;
	}
}

/** The default zones, used until a member sets their own zones. */
export const DEFAULT_HEART_RATE_ZONES = [
	{ name: 'zone1', start: 0, end: 108 },
	{ name: 'zone2', start: 109, end: 125 },
	{ name: 'zone3', start: 126, end: 144 },
	{ name: 'zone4', start: 145, end: 162 },
	{ name: 'zone5', start: 163, end: 180 },
] as const;
