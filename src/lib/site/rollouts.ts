import { checkFeature } from '../billing/features';
import type { RolloutName, RolloutSetting } from '../core/rollout-names';

/**
 * Rollouts switch features on for a share of members. The list shape (rollout_name,
 * variant_name) is what islands and the bootup configuration carry.
 */
export type Rollout = { rollout_name: RolloutName; variant_name: string };

type RolloutDefinition = {
	name: RolloutName;
	/** The variant a bucketed member gets. */
	variant: string;
	/** Share of members, 0-100, who get `variant`; everyone else gets CONTROL. */
	percent: number;
	/** MVP members pay to be ad-free (checkFeature's ad_free), so some rollouts never reach them. */
	excludesPremium?: boolean;
	/** Members (id or username) who get `variant` whatever their bucket, e.g. to try a feature out. */
	members?: readonly (number | string)[];
};

export const CONTROL = 'control';

export const ROLLOUTS: readonly RolloutDefinition[] = [
	{ name: 'customer_survey', variant: 'show_survey', percent: 10 },
	{ name: 'loyalty_pilot', variant: 'enabled', percent: 5 },
	{ name: 'ads', variant: 'enabled', percent: 50, excludesPremium: true },
	// The vector map draws no names yet, so members get it only when configuration says so.
	{ name: 'alternate_maps_type', variant: 'enabled', percent: 0 },
];

/** The rollouts with the configured shares and members in place of the defaults. */
export function configureRollouts(
	settings: Partial<Record<RolloutName, RolloutSetting>>,
	definitions: readonly RolloutDefinition[] = ROLLOUTS,
): RolloutDefinition[] {
	return definitions.map((definition) => ({ ...definition, ...settings[definition.name] }));
}

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

type RolloutSubject = { id: number | string; username?: string; isPremium?: boolean } | null;

function isListed(definition: RolloutDefinition, subject: NonNullable<RolloutSubject>): boolean {
	const username = subject.username?.toLowerCase();
	return (definition.members ?? []).some((member) =>
		typeof member === 'number'
			? String(member) === String(subject.id)
			: member.toLowerCase() === username || member === String(subject.id),
	);
}

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
			(isListed(definition, subject) ||
				(!(
					definition.excludesPremium && checkFeature({ isPremium: Boolean(subject.isPremium) }, 'ad_free')
				) &&
					bucketFor(definition.name, subject.id) < definition.percent));
		return { rollout_name: definition.name, variant_name: included ? definition.variant : CONTROL };
	});
}

/** The variant of one rollout in a list, CONTROL when the list does not mention it. */
export function getRolloutVariant(rollouts: readonly Rollout[], name: RolloutName): string {
	return rollouts.find((rollout) => rollout.rollout_name === name)?.variant_name ?? CONTROL;
}

/**
 * The rollouts one member gets under the configured settings: what the bootup configuration tells their
 * islands, and what a page rendered for them may hand its islands at once.
 */
export function rolloutsFor(
	subject: RolloutSubject,
	settings: Partial<Record<RolloutName, RolloutSetting>> = {},
): Rollout[] {
	return assignRollouts(subject, configureRollouts(settings));
}

/** The variant one member gets of one rollout, so pages and services rendered on the server agree with the bootup. */
export function rolloutVariantFor(
	subject: RolloutSubject,
	name: RolloutName,
	settings: Partial<Record<RolloutName, RolloutSetting>> = {},
): string {
	return getRolloutVariant(rolloutsFor(subject, settings), name);
}
