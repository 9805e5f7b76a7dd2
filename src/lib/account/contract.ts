import * as v from 'valibot';
import { halBody } from '../api/hal-links';
import { idText } from '../core/integers';
import { multiLineText, singleLineText } from '../core/text';
import { isListedTimeZone } from '../core/time-zones';

/** A member id as a path or query string gives it. */
export const MemberIdText = (name: string) => idText(`${name} must be a member id`);

const privacyLevel = v.picklist([0, 1, 3], 'Select a valid choice. Use 0, 1 or 3.');

/**
 * PUT user/{id}/: only these fields may change. Anything else — id, username, email, password,
 * premium status — is refused with 400 (a strict object), so a client cannot slip them in. A client
 * may send back the user's links: `_links.self` must name the member of the path.
 */
export const UserUpdateSchema = halBody(
	{
		first_name: v.optional(
			v.pipe(singleLineText('First name', 60), v.trim(), v.minLength(1, 'First name is required.')),
		),
		last_name: v.optional(
			v.pipe(singleLineText('Last name', 60), v.trim(), v.minLength(1, 'Last name is required.')),
		),
		display_name: v.optional(v.pipe(singleLineText('Display name', 80), v.trim())),
		gender: v.optional(
			v.nullable(
				v.picklist(['F', 'M'], 'Select a valid choice. That choice is not one of the available choices.'),
			),
		),
		birthdate: v.optional(
			v.pipe(singleLineText('Birthdate', 10), v.regex(/^\d{4}-\d{2}-\d{2}$/, 'Invalid date.')),
		),
		location: v.optional(
			v.strictObject({
				country: v.optional(
					v.pipe(singleLineText('Country', 2), v.regex(/^([A-Za-z]{2})?$/, 'Select a valid choice.')),
				),
				region: v.optional(singleLineText('Region', 80)),
				locality: v.optional(singleLineText('Locality', 80)),
			}),
		),
		time_zone: v.optional(
			v.pipe(
				singleLineText('Time zone', 64),
				v.check(isListedTimeZone, 'Select a valid choice. That choice is not one of the available choices.'),
			),
		),
		display_measurement_system: v.optional(
			v.picklist(
				['metric', 'imperial'],
				'Select a valid choice. That choice is not one of the available choices.',
			),
		),
		week_start_day: v.optional(
			v.pipe(
				v.number('week_start_day is a day number: 0 (Sunday) to 6 (Saturday).'),
				v.integer('week_start_day is a day number: 0 (Sunday) to 6 (Saturday).'),
				v.minValue(0, 'week_start_day is a day number: 0 (Sunday) to 6 (Saturday).'),
				v.maxValue(6, 'week_start_day is a day number: 0 (Sunday) to 6 (Saturday).'),
			),
		),
		preferred_language: v.optional(
			v.pipe(
				singleLineText('Preferred language', 5),
				v.regex(/^[a-z]{2}(-[a-z]{2})?$/, 'Select a valid choice.'),
			),
		),
		height: v.optional(v.nullable(v.pipe(v.number(), v.minValue(0.5), v.maxValue(2.8)))),
		weight: v.optional(v.nullable(v.pipe(v.number(), v.minValue(10), v.maxValue(500)))),
		goal_statement: v.optional(multiLineText('Goal statement', 500)),
		introduction: v.optional(multiLineText('Introduction', 2000)),
		privacy: v.optional(
			v.strictObject({
				profile: v.optional(privacyLevel),
				workout: v.optional(privacyLevel),
				route: v.optional(privacyLevel),
				email_search: v.optional(privacyLevel),
			}),
		),
	},
	{ self: { kind: 'user' } },
	['image', 'privacy', 'documentation'],
);
export type UserUpdate = v.InferOutput<typeof UserUpdateSchema>;

export const PromotionalPreferenceSchema = v.object({
	privacy_standard: v.optional(singleLineText('privacy_standard', 40), 'default'),
	region: v.optional(singleLineText('region', 8), 'US'),
	preference_type: v.optional(v.picklist(['ua-marketing-opt-in']), 'ua-marketing-opt-in'),
	choice: v.boolean('choice must be true or false'),
	_links: v.optional(
		v.object({
			user: v.optional(
				v.pipe(
					v.array(v.object({ id: v.union([singleLineText('The user id', 20), v.number()]) })),
					v.maxLength(1),
				),
			),
		}),
	),
});
export type PromotionalPreferenceInput = v.InferOutput<typeof PromotionalPreferenceSchema>;

/** Profile photo rules. */
export const PHOTO_MAX_BYTES = 1_000_000;
export const PHOTO_MAX_PIXELS = 25_000_000;

/** A HAL link as the v7.1 API writes it: the id is a string of digits. */
const LinkSchema = v.object({ href: v.string(), id: v.string(), name: v.optional(v.string()) });

/** What anyone allowed to see a profile gets: no email, birthdate, body measures or settings. */
export const PublicUserSchema = v.object({
	id: v.number(),
	username: v.string(),
	display_name: v.string(),
	first_name: v.string(),
	last_initial: v.string(),
	location: v.object({ locality: v.string(), region: v.string(), country: v.string() }),
	date_joined: v.string(),
	goal_statement: v.string(),
	introduction: v.string(),
	_links: v.object({ self: v.array(LinkSchema), image: v.array(LinkSchema) }),
});
export type PublicUser = v.InferOutput<typeof PublicUserSchema>;

/** The member's own record: GET user/self/, and the login and refresh answers. */
export const SelfUserSchema = v.object({
	...PublicUserSchema.entries,
	email: v.string(),
	email_verified: v.boolean(),
	last_name: v.string(),
	gender: v.nullable(v.string()),
	birthdate: v.nullable(v.string()),
	time_zone: v.string(),
	time_zone_offset: v.number(),
	display_measurement_system: v.string(),
	/** The day the member's weeks start on, 0 Sunday … 6 Saturday. */
	week_start_day: v.number(),
	preferred_language: v.string(),
	height: v.nullable(v.number()),
	weight: v.nullable(v.number()),
	sharing: v.object({ twitter: v.boolean(), facebook: v.boolean() }),
	communication: v.object({ newsletter: v.boolean(), promotions: v.boolean() }),
	is_premium: v.boolean(),
	_links: v.object({
		...PublicUserSchema.entries._links.entries,
		privacy: v.array(LinkSchema),
	}),
});
export type SelfUser = v.InferOutput<typeof SelfUserSchema>;

/** GET /api/_api/time_zone_search/: the words of a city's name, as a member types them into the zone picker. */
export const CityTimeZoneQuerySchema = v.object({
	term: v.pipe(singleLineText('term', 100), v.trim(), v.minLength(3, 'Type at least 3 letters of a city.')),
});

/** A city a zone picker offers, and the zone it lies in ("Harrisburg, Pennsylvania, US", "America/New_York"). */
export const CityTimeZoneSchema = v.object({ label: v.string(), time_zone: v.string() });
export type CityTimeZone = v.InferOutput<typeof CityTimeZoneSchema>;
