import type { ActivityGroup } from './activity-groups';

/**
 * MET values from the Compendium of Physical Activities. An activity type built from a Compendium
 * activity has that activity's own value and edition (2011 or 2024; see the attribution in
 * activity-types.json); any other type takes its group's entry here, the 2011 Compendium's
 * "general" code for that kind of activity: Ainsworth BE, Haskell WL, Herrmann SD, Meckes N,
 * Bassett DR Jr, Tudor-Locke C, Greer JL, Vezina J, Whitt-Glover MC, Leon AS. "2011 Compendium of
 * Physical Activities: a second update of codes and MET values." Medicine & Science in Sports &
 * Exercise 2011;43(8):1575–1581. Values as tabulated in
 * github.com/andyreagan/compendium-of-physical-activity (compendiumofphysicalactivities.csv,
 * commit b9d1674a20b55ad063dc476ae5603b2151b1e815).
 */
export type CompendiumEntry = { code: string; met: number; description: string; edition: 2011 | 2024 };

export const COMPENDIUM_MET: Record<ActivityGroup, CompendiumEntry> = {
	run: { code: '12150', met: 8.0, description: 'running (Taylor code 200)', edition: 2011 },
	walk: {
		code: '17190',
		met: 3.5,
		description: 'walking, 2.8 to 3.2 mph, level, moderate pace, firm surface',
		edition: 2011,
	},
	ride: { code: '01015', met: 7.5, description: 'bicycling, general', edition: 2011 },
	swim: {
		code: '18310',
		met: 6.0,
		description: 'swimming, leisurely, not lap swimming, general',
		edition: 2011,
	},
	hike: { code: '17080', met: 6.0, description: 'hiking, cross country (Taylor Code 040)', edition: 2011 },
	winter_sport: {
		code: '19160',
		met: 5.3,
		description: 'skiing, downhill, alpine or snowboarding, moderate effort, general, active time only',
		edition: 2011,
	},
	gym: {
		code: '02054',
		met: 3.5,
		description: 'resistance (weight) training, multiple exercises, 8-15 repetitions at varied resistance',
		edition: 2011,
	},
	class: { code: '03015', met: 7.3, description: 'aerobic, general', edition: 2011 },
	golf: { code: '15255', met: 4.8, description: 'golf, general', edition: 2011 },
	basketball: { code: '15055', met: 6.5, description: 'basketball, general', edition: 2011 },
	baseball: {
		code: '15620',
		met: 5.0,
		description: 'softball or baseball, fast or slow pitch, general (Taylor Code 440)',
		edition: 2011,
	},
	yoga: { code: '02150', met: 2.5, description: 'yoga, Hatha', edition: 2011 },
	other_sport: {
		code: '02060',
		met: 5.5,
		description: 'health club exercise, general (Taylor Code 160)',
		edition: 2011,
	},
	generic: { code: '02064', met: 3.8, description: 'home exercise, general', edition: 2011 },
	other: { code: '02064', met: 3.8, description: 'home exercise, general', edition: 2011 },
};

export const JOULES_PER_KCAL = 4184;
/** Used when the member has not given a weight. */
export const DEFAULT_WEIGHT_KG = 70;

/**
 * Energy of an activity by the Compendium's definition of the MET: 1 MET ≈ 1 kcal per kilogram of
 * body weight per hour, so kcal = MET × kg × hours.
 */
export function estimateCalories(entry: CompendiumEntry, durationS: number, weightKg: number) {
	const kcal = entry.met * weightKg * (durationS / 3600);
	return { kcal, joules: kcal * JOULES_PER_KCAL, ...entry };
}
