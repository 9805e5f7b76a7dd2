import * as v from 'valibot';

const privacyLevel = v.picklist([0, 1, 3], 'Select a valid choice. Use 0, 1 or 3.');

/**
 * PUT user/{id}/: only these fields may change. Anything else — id, username, email, password,
 * premium status — is refused with 400 (a strict object), so a client cannot slip them in.
 */
export const UserUpdateSchema = v.strictObject({
	first_name: v.optional(
		v.pipe(v.string(), v.trim(), v.minLength(1, 'First name is required.'), v.maxLength(60)),
	),
	last_name: v.optional(
		v.pipe(v.string(), v.trim(), v.minLength(1, 'Last name is required.'), v.maxLength(60)),
	),
	display_name: v.optional(v.pipe(v.string(), v.trim(), v.maxLength(80))),
	gender: v.optional(
		v.nullable(
			v.picklist(['F', 'M'], 'Select a valid choice. That choice is not one of the available choices.'),
		),
	),
	birthdate: v.optional(v.pipe(v.string(), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Invalid date.'))),
	location: v.optional(
		v.strictObject({
			country: v.optional(v.pipe(v.string(), v.regex(/^([A-Za-z]{2})?$/, 'Select a valid choice.'))),
			region: v.optional(v.pipe(v.string(), v.maxLength(80))),
			locality: v.optional(v.pipe(v.string(), v.maxLength(80))),
		}),
	),
	time_zone: v.optional(v.pipe(v.string(), v.maxLength(64))),
	display_measurement_system: v.optional(
		v.picklist(
			['metric', 'imperial'],
			'Select a valid choice. That choice is not one of the available choices.',
		),
	),
	preferred_language: v.optional(
		v.pipe(v.string(), v.regex(/^[a-z]{2}(-[a-z]{2})?$/, 'Select a valid choice.')),
	),
	height: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0.5), v.maxValue(2.8)))),
	weight: v.optional(v.nullable(v.pipe(v.number(), v.minValue(10), v.maxValue(500)))),
	goal_statement: v.optional(v.pipe(v.string(), v.maxLength(500))),
	introduction: v.optional(v.pipe(v.string(), v.maxLength(2000))),
	privacy: v.optional(
		v.strictObject({
			profile: v.optional(privacyLevel),
			workout: v.optional(privacyLevel),
			route: v.optional(privacyLevel),
			email_search: v.optional(privacyLevel),
		}),
	),
});
export type UserUpdate = v.InferOutput<typeof UserUpdateSchema>;

export const PromotionalPreferenceSchema = v.object({
	privacy_standard: v.optional(v.pipe(v.string(), v.maxLength(40)), 'default'),
	region: v.optional(v.pipe(v.string(), v.maxLength(8)), 'US'),
	preference_type: v.optional(v.picklist(['ua-marketing-opt-in']), 'ua-marketing-opt-in'),
	choice: v.boolean('choice must be true or false'),
	_links: v.optional(
		v.object({ user: v.optional(v.array(v.object({ id: v.union([v.string(), v.number()]) }))) }),
	),
});
export type PromotionalPreferenceInput = v.InferOutput<typeof PromotionalPreferenceSchema>;

/** Profile photo rules. */
export const PHOTO_MAX_BYTES = 1_000_000;
export const PHOTO_MAX_PIXELS = 25_000_000;
