/**
 * The rollouts there are, and what configuration may change of one. Configuration reads these
 * names; what each rollout does lives with the site (`site/rollouts.ts`).
 */
export const ROLLOUT_NAMES = ['customer_survey', 'loyalty_pilot', 'ads', 'alternate_maps_type'] as const;
export type RolloutName = (typeof ROLLOUT_NAMES)[number];

/** What configuration may change of a rollout (the ROLLOUTS setting). */
export type RolloutSetting = { percent?: number; members?: readonly (number | string)[] };
