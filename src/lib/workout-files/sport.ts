import { ActivityTypeId } from './contract';

type ActivityTypeValue = (typeof ActivityTypeId)[keyof typeof ActivityTypeId];

/** FIT `sport` enum values we map; everything else (including generic 0) is generic. */
const fitSportNames: Record<number, string> = {
	0: 'generic',
	1: 'running',
	2: 'cycling',
	3: 'transition',
	4: 'fitness_equipment',
	5: 'swimming',
	10: 'training',
	11: 'walking',
	12: 'cross_country_skiing',
	13: 'alpine_skiing',
	15: 'rowing',
	17: 'hiking',
	21: 'e_biking',
	37: 'stand_up_paddleboarding',
};

export function nameFitSport(sport: number): string {
	return fitSportNames[sport] ?? `sport_${sport}`;
}

export function mapFitSport(sport: number | undefined): ActivityTypeValue {
	switch (sport) {
		case 1:
			return ActivityTypeId.run;
		case 2:
		case 21:
			return ActivityTypeId.ride;
		case 5:
			return ActivityTypeId.swim;
		case 11:
			return ActivityTypeId.walk;
		case 17:
			return ActivityTypeId.hike;
		default:
			return ActivityTypeId.generic;
	}
}

/**
 * Maps a free-text sport (TCX Sport attribute, GPX <type> as Strava, Garmin and others write it) to
 * our activity type. Order matters: "trail running" is a run, not a hike.
 */
export function mapSportName(name: string | undefined): ActivityTypeValue {
	if (!name) return ActivityTypeId.generic;
	const s = name.toLowerCase();
	if (/\brun|jog/.test(s)) return ActivityTypeId.run;
	if (/bik|cycl|ride/.test(s)) return ActivityTypeId.ride;
	if (/swim/.test(s)) return ActivityTypeId.swim;
	if (/hik|trek/.test(s)) return ActivityTypeId.hike;
	if (/walk/.test(s)) return ActivityTypeId.walk;
	return ActivityTypeId.generic;
}
