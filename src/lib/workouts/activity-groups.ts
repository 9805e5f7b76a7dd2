/**
 * Activity groups: every activity type belongs to one, which decides its colour and icon in the
 * product. A type's group is its root type's, except golf, basketball, baseball and yoga, which
 * are groups of their own wherever they sit in the tree.
 */
export const ACTIVITY_GROUPS = [
	'generic',
	'gym',
	'class',
	'hike',
	'ride',
	'run',
	'walk',
	'swim',
	'winter_sport',
	'other_sport',
	'golf',
	'basketball',
	'baseball',
	'yoga',
	'other',
] as const;
export type ActivityGroup = (typeof ACTIVITY_GROUPS)[number];

/**
 * Whether a group's workouts are read by speed (km/h, mph), as cyclists and skiers expect, rather than pace
 * (time per km or mile), as everyone on foot does. The one rule every page that shows a rate follows.
 */
export function showsSpeed(group: ActivityGroup): boolean {
	return group === 'ride' || group === 'winter_sport';
}

/** Whether totals over the chosen groups read by speed: only when every one of them does. */
export function showsSpeedFor(groups: readonly ActivityGroup[] | 'all'): boolean {
	return groups !== 'all' && groups.length > 0 && groups.every(showsSpeed);
}

const GROUP_OF_ID: Record<number, ActivityGroup> = {
	1: 'generic',
	8: 'gym',
	12: 'gym',
	14: 'gym',
	17: 'gym',
	18: 'gym',
	59: 'gym',
	23: 'class',
	22: 'hike',
	24: 'hike',
	11: 'ride',
	19: 'ride',
	453: 'ride',
	634: 'ride',
	16: 'run',
	25: 'run',
	9: 'walk',
	204: 'walk',
	15: 'swim',
	20: 'swim',
	10: 'winter_sport',
	13: 'winter_sport',
	21: 'other_sport',
	145: 'golf',
	259: 'basketball',
	134: 'baseball',
	78: 'yoga',
};

/** Types that are their own group wherever they sit. */
const SELF_GROUPED = new Set([145, 259, 134, 78]);

/**
 * The group of a type, given its id and the ids of its ancestors from parent to root. The parent
 * chain is walked upwards so a type whose root is not a group id of its own still lands in the
 * nearest ancestor's group.
 */
export function groupOfActivityType(id: number, ancestors: readonly number[]): ActivityGroup {
	if (SELF_GROUPED.has(id)) return GROUP_OF_ID[id];
	for (const candidate of [...ancestors].reverse()) {
		const group = GROUP_OF_ID[candidate];
		if (group) return group;
	}
	return GROUP_OF_ID[id] ?? 'other';
}
