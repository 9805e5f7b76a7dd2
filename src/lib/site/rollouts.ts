/**
 * Rollouts switch features on for a share of members. The list shape (rollout_name,
 * variant_name) is what islands and the bootup configuration carry.
 */
export type Rollout = { rollout_name: RolloutName; variant_name: string };

export type RolloutName = 'customer_survey' | 'loyalty_pilot' | 'ads' | 'alternate_maps_type';

type RolloutDefinition = {
	name: RolloutName;
	/** The variant a bucketed member gets. */
	variant: string;
	/** Share of members, 0-100, who get `variant`; everyone else gets CONTROL. */
	percent: number;
	/** MVP members pay to be ad-free, so some rollouts never reach them. */
	excludesPremium?: boolean;
};

export const CONTROL = 'control';

export const ROLLOUTS: readonly RolloutDefinition[] = [
	{ name: 'customer_survey', variant: 'show_survey', percent: 10 },
	{ name: 'loyalty_pilot', variant: 'enabled', percent: 5 },
	{ name: 'ads', variant: 'enabled', percent: 50, excludesPremium: true },
	{ name: 'alternate_maps_type', variant: 'enabled', percent: 50 },
];

/** 32-bit FNV-1a: small, dependency-free and the same in the browser and on the server. */
export function hashString(input: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < input.length; i++) {
		hash ^= input.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	return hash >>> 0;
}

/** The member's bucket 0-99 for one rollout; salting with the rollout name keeps rollouts independent. */
export function bucketFor(rolloutName: string, userId: number | string): number {
	return hashString(`${rolloutName}:${userId}`) % 100;
}

type RolloutSubject = { id: number | string; isPremium?: boolean } | null;

/**
 * The rollouts that apply to a member. Visitors who are not signed in always get CONTROL so that
 * a page looks the same before and after the hint cookie is read.
 */
export function assignRollouts(
	subject: RolloutSubject,
	definitions: readonly RolloutDefinition[] = ROLLOUTS,
): Rollout[] {
	return definitions.map((definition) => {
		const included =
			subject !== null &&
			!(definition.excludesPremium && subject.isPremium) &&
			bucketFor(definition.name, subject.id) < definition.percent;
		return { rollout_name: definition.name, variant_name: included ? definition.variant : CONTROL };
	});
}

/** The variant of one rollout in a list, CONTROL when the list does not mention it. */
export function getRolloutVariant(rollouts: readonly Rollout[], name: RolloutName): string {
	return rollouts.find((rollout) => rollout.rollout_name === name)?.variant_name ?? CONTROL;
}
