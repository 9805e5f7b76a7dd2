import * as v from 'valibot';
import { halBody } from '../api/hal-links';
import { idText, wholeNumberText } from '../core/integers';
import { multiLineText, singleLineText } from '../core/text';
import { isListedTimeZone } from '../core/time-zones';
import { GearRef } from '../gear/contract';
import { MAX_PERCEIVED_EFFORT, MIN_PERCEIVED_EFFORT } from './perceived-effort';

/** Workout privacy: the item levels of the privacy toggle. A member's new workouts start "only me". */
export const WorkoutPrivacy = { onlyMe: 0, friends: 1, everyone: 3 } as const;
export type WorkoutPrivacyValue = (typeof WorkoutPrivacy)[keyof typeof WorkoutPrivacy];
export const WORKOUT_PRIVACY_VALUES = [0, 1, 3] as const;
export const WORKOUT_PRIVACY_LABELS: Record<WorkoutPrivacyValue, string> = {
	0: 'Only me',
	1: 'Friends',
	3: 'Everyone',
};

export const WORKOUT_PAGE_SIZE = 20;
export const MAX_WORKOUT_PAGE_SIZE = 100;
export const MAX_WORKOUT_OFFSET = 100_000;
export const MAX_WORKOUT_NAME = 200;
export const MAX_WORKOUT_NOTES = 5000;
export const MAX_WORKOUT_SOURCE = 100;
/** Samples per channel of a workout's time series sent as JSON (a file import may hold more). */
export const MAX_SERIES_SAMPLES = 100_000;

/** The representations of a workout: lists and details without the series, or with it. */
export const WORKOUT_FIELD_SETS = ['summary', 'time_series'] as const;
export type WorkoutFieldSet = (typeof WORKOUT_FIELD_SETS)[number];

const NumberString = (min: number, max: number, name: string) =>
	v.pipe(
		v.string(),
		v.regex(/^\d{1,12}(\.\d{1,9})?$/, `${name} must be a number.`),
		v.transform(Number),
		v.minValue(min, `${name} must be at least ${min}.`),
		v.maxValue(max, `${name} must be at most ${max}.`),
	);

/** ISO 8601 with a time and an offset (`Z` or `±hh:mm`), as the v7.1 API writes and reads them. */
const ISO_DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
export const DateTimeText = (name: string) =>
	v.pipe(
		v.string(),
		v.regex(
			ISO_DATETIME,
			`${name} is an ISO 8601 date and time with an offset, such as 2026-05-01T07:30:00+00:00.`,
		),
		v.transform((text) => new Date(text)),
		v.check(
			(date) =>
				!Number.isNaN(date.getTime()) && date.getUTCFullYear() >= 1900 && date.getUTCFullYear() <= 2200,
			`${name} is not a real date between 1900 and 2200.`,
		),
	);
/** A calendar day, `YYYY-MM-DD`. */
const DateText = (name: string) =>
	v.pipe(
		v.string(),
		v.regex(/^\d{4}-\d{2}-\d{2}$/, `${name} is a date such as 2026-05-01.`),
		v.check((text) => {
			const date = new Date(`${text}T00:00:00Z`);
			return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(text);
		}, `${name} is not a real date.`),
	);

export const TimeZoneText = v.pipe(
	v.string(),
	v.maxLength(64, 'start_locale_timezone is a time zone name such as Europe/Paris.'),
	v.check(isListedTimeZone, 'start_locale_timezone is not a time zone we know, such as Europe/Paris.'),
);

/** An id given as a number, a string of digits or the HAL link `/v7.1/<kind>/<id>/`. */
const IdOrLink = (kind: string, min: number, max: number) =>
	v.pipe(
		v.union([
			v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(max)),
			v.pipe(
				v.string(),
				v.regex(
					new RegExp(`^(?:/v7\\.1/${kind}/)?(\\d{1,7})/?$`),
					`${kind} is an id or a link such as /v7.1/${kind}/3/.`,
				),
				v.transform((text) => Number(/(\d{1,7})\/?$/.exec(text)?.[1])),
			),
		]),
		v.minValue(min, `${kind} must be at least ${min}.`),
		v.maxValue(max, `${kind} must be at most ${max}.`),
	);

export const ActivityTypeRef = IdOrLink('activity_type', 1, 9_999_999);
export const PrivacyRef = v.pipe(
	IdOrLink('privacy_option', 0, 9),
	v.picklist(WORKOUT_PRIVACY_VALUES, 'privacy is 0 (only me), 1 (friends) or 3 (everyone).'),
);

const Amount = (max: number) => v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(max));

/** The totals and ranges of a workout, SI units (metres, joules, seconds, m/s, bpm, rpm, watts). */
export const AggregatesInputSchema = v.strictObject({
	distance_total: v.optional(Amount(100_000_000)),
	metabolic_energy_total: v.optional(Amount(1e10)),
	active_time_total: v.optional(Amount(10_000_000)),
	elapsed_time_total: v.optional(Amount(10_000_000)),
	steps_total: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(100_000_000))),
	heartrate_min: v.optional(Amount(300)),
	heartrate_max: v.optional(Amount(300)),
	heartrate_avg: v.optional(Amount(300)),
	speed_min: v.optional(Amount(1000)),
	speed_max: v.optional(Amount(1000)),
	speed_avg: v.optional(Amount(1000)),
	cadence_min: v.optional(Amount(1000)),
	cadence_max: v.optional(Amount(1000)),
	cadence_avg: v.optional(Amount(1000)),
	power_min: v.optional(Amount(10_000)),
	power_max: v.optional(Amount(10_000)),
	power_avg: v.optional(Amount(10_000)),
});
export type AggregatesInput = v.InferOutput<typeof AggregatesInputSchema>;
export const AGGREGATE_FIELDS = Object.keys(AggregatesInputSchema.entries) as (keyof AggregatesInput)[];

const Offset = v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(10_000_000));
const Samples = <T extends v.GenericSchema>(value: T) =>
	v.optional(
		v.pipe(
			v.array(v.tuple([Offset, value])),
			v.maxLength(MAX_SERIES_SAMPLES, `A time series may hold at most ${MAX_SERIES_SAMPLES} samples.`),
		),
	);

/** The v7.1 time series: `[seconds since start, value]` pairs per channel. */
export const TimeSeriesInputSchema = v.strictObject({
	position: Samples(
		v.strictObject({
			lat: v.pipe(v.number(), v.finite(), v.minValue(-90), v.maxValue(90)),
			lng: v.pipe(v.number(), v.finite(), v.minValue(-180), v.maxValue(180)),
			elevation: v.optional(v.pipe(v.number(), v.finite(), v.minValue(-1000), v.maxValue(10_000))),
		}),
	),
	heartrate: Samples(Amount(300)),
	speed: Samples(Amount(1000)),
	cadence: Samples(Amount(1000)),
	power: Samples(Amount(10_000)),
	distance: Samples(Amount(100_000_000)),
});
export type TimeSeriesInput = v.InferOutput<typeof TimeSeriesInputSchema>;

/** The recording devices and features a workout may credit; shown to its owner only. */
export const Attribution = v.pipe(
	v.string(),
	v.regex(
		/^(ua_footpod(_[a-z0-9]{1,20})?|tizen_watch|tizen_ua_watch|apple_watch|gait_coaching)$/,
		'attribution is one of ua_footpod (or a ua_footpod_ variant), tizen_watch, tizen_ua_watch, apple_watch, gait_coaching.',
	),
);

const Name = v.pipe(singleLineText('The name', MAX_WORKOUT_NAME), v.trim());

/** How hard a workout felt, 1 (very easy) to 10 (all out); null takes it back. */
export const PerceivedEffortSchema = v.nullable(
	v.pipe(
		v.number('How hard it felt (perceived_effort) is a number from 1 to 10, or null.'),
		v.integer('How hard it felt (perceived_effort) is a whole number from 1 to 10.'),
		v.minValue(MIN_PERCEIVED_EFFORT, 'How hard it felt (perceived_effort) is from 1 to 10.'),
		v.maxValue(MAX_PERCEIVED_EFFORT, 'How hard it felt (perceived_effort) is from 1 to 10.'),
	),
);
const Notes = v.pipe(multiLineText('The notes', MAX_WORKOUT_NOTES), v.trim());
const Source = v.pipe(singleLineText('The source', MAX_WORKOUT_SOURCE), v.trim());

/** A value a client echoes back from our own answer; we never read it. */
const EchoedValue = v.optional(
	v.union([v.number(), v.pipe(v.string(), v.maxLength(100)), v.boolean(), v.null()]),
);

/**
 * What a workout answer carries that is always the server's: MapMyFitness clients send them back
 * on save, so they are accepted and then ignored.
 */
const WORKOUT_ECHOED_FIELDS = {
	created_datetime: EchoedValue,
	updated_datetime: EchoedValue,
	has_time_series: EchoedValue,
	is_verified: EchoedValue,
	user_display_name: EchoedValue,
};

/**
 * The aggregates MapMyFitness clients also send at the top level of a workout, a copy of the ones
 * in `aggregates`.
 */
export const TOP_LEVEL_AGGREGATES = [
	'active_time_total',
	'elapsed_time_total',
	'distance_total',
	'metabolic_energy_total',
	'speed_avg',
	'heartrate_avg',
] as const satisfies readonly (keyof AggregatesInput)[];
const TOP_LEVEL_AGGREGATE_ENTRIES = Object.fromEntries(
	TOP_LEVEL_AGGREGATES.map((field) => [field, AggregatesInputSchema.entries[field]]),
) as Pick<typeof AggregatesInputSchema.entries, (typeof TOP_LEVEL_AGGREGATES)[number]>;

/** Copies agree when they differ by no more than rounding: a thousandth, or a ten-thousandth of the value. */
const agrees = (a: number, b: number) =>
	Math.abs(a - b) <= Math.max(1e-3, 1e-4 * Math.max(Math.abs(a), Math.abs(b)));

/**
 * Folds the top-level copies into `aggregates`: a copy that `aggregates` lacks fills it in, one that
 * disagrees with it is refused, naming the field.
 */
function foldTopLevelAggregates<
	T extends { aggregates?: AggregatesInput } & Partial<Record<(typeof TOP_LEVEL_AGGREGATES)[number], number>>,
>() {
	return v.rawTransform<T, Omit<T, (typeof TOP_LEVEL_AGGREGATES)[number]>>(({ dataset, addIssue, NEVER }) => {
		const body = { ...dataset.value };
		let aggregates = body.aggregates;
		let failed = false;
		for (const field of TOP_LEVEL_AGGREGATES) {
			const copy = body[field];
			delete body[field];
			if (copy === undefined) continue;
			const inner = aggregates?.[field];
			if (inner === undefined) aggregates = { ...aggregates, [field]: copy };
			else if (!agrees(inner, copy)) {
				addIssue({
					message: `${field} (${copy}) disagrees with aggregates.${field} (${inner}); send the same value in both, or one of them.`,
					path: [{ type: 'object', origin: 'value', input: dataset.value, key: field, value: copy }],
				});
				failed = true;
			}
		}
		if (failed) return NEVER;
		return aggregates === undefined ? body : { ...body, aggregates };
	});
}

/** The references a workout write takes in `_links`, next to their plain fields, and the owner (the caller). */
const WORKOUT_REFERENCES = {
	activity_type: { kind: 'activity_type', field: 'activity_type' },
	privacy: { kind: 'privacy_option', field: 'privacy' },
	gear: { kind: 'usergear', field: 'gear' },
	user: { kind: 'user' },
} as const;
const WORKOUT_ECHOED_LINKS = ['self', 'documentation'] as const;

/** A workout logged by hand or sent by a client; owner, counts and hashes are the server's. */
export const WorkoutSaveSchema = v.pipe(
	halBody(
		{
			name: Name,
			start_datetime: DateTimeText('start_datetime'),
			start_locale_timezone: v.optional(TimeZoneText),
			activity_type: ActivityTypeRef,
			privacy: v.optional(PrivacyRef),
			notes: v.optional(Notes, ''),
			perceived_effort: v.optional(PerceivedEffortSchema),
			source: v.optional(Source, ''),
			attribution: v.optional(Attribution),
			aggregates: v.optional(AggregatesInputSchema, {}),
			...TOP_LEVEL_AGGREGATE_ENTRIES,
			time_series: v.optional(TimeSeriesInputSchema),
			/** The owner's shoes or bike worn (id or link), or null. */
			gear: v.optional(GearRef),
			...WORKOUT_ECHOED_FIELDS,
		},
		WORKOUT_REFERENCES,
		WORKOUT_ECHOED_LINKS,
	),
	foldTopLevelAggregates(),
);
export type WorkoutSaveInput = v.InferOutput<typeof WorkoutSaveSchema>;

/** A change: any of the editable fields, and the version it was made on (or If-Match). */
export const WorkoutUpdateSchema = v.pipe(
	halBody(
		{
			name: v.optional(Name),
			start_datetime: v.optional(DateTimeText('start_datetime')),
			start_locale_timezone: v.optional(TimeZoneText),
			activity_type: v.optional(ActivityTypeRef),
			privacy: v.optional(PrivacyRef),
			notes: v.optional(Notes),
			perceived_effort: v.optional(PerceivedEffortSchema),
			aggregates: v.optional(AggregatesInputSchema),
			...TOP_LEVEL_AGGREGATE_ENTRIES,
			gear: v.optional(GearRef),
			version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_000_000_000))),
			...WORKOUT_ECHOED_FIELDS,
		},
		WORKOUT_REFERENCES,
		WORKOUT_ECHOED_LINKS,
	),
	foldTopLevelAggregates(),
);
export type WorkoutUpdateInput = v.InferOutput<typeof WorkoutUpdateSchema>;

export const WorkoutListQuerySchema = v.object({
	limit: v.optional(wholeNumberText(1, MAX_WORKOUT_PAGE_SIZE, 'limit')),
	offset: v.optional(wholeNumberText(0, MAX_WORKOUT_OFFSET, 'offset')),
	user: v.optional(wholeNumberText(1, 2_000_000_000, 'user')),
	activity_type: v.optional(wholeNumberText(1, 9_999_999, 'activity_type')),
	started_after: v.optional(DateTimeText('started_after')),
	started_before: v.optional(DateTimeText('started_before')),
	order_by: v.optional(v.picklist(['-start_datetime', 'start_datetime'])),
});
export type WorkoutListQuery = v.InferOutput<typeof WorkoutListQuerySchema>;

/** The most workouts one allWorkouts answer holds; a calendar asks for a year at a time. */
export const MAX_ALL_WORKOUTS = 10_000;
/** Activity filters as the selector sends them: every type, none at all, or a list of ids. */
export const ALL_ACTIVITIES = 'all';
export const NO_ACTIVITIES = 'none';

export const AllWorkoutsQuerySchema = v.object({
	started_after: v.optional(DateTimeText('started_after')),
	started_before: v.optional(DateTimeText('started_before')),
	activity_types: v.optional(
		v.pipe(
			v.string(),
			v.regex(
				/^(all|none|\d{1,7}(,\d{1,7}){0,49})$/,
				'activity_types is all, none, or up to 50 activity type ids separated by commas.',
			),
		),
	),
	limit: v.optional(wholeNumberText(1, MAX_ALL_WORKOUTS, 'limit')),
	offset: v.optional(wholeNumberText(0, MAX_WORKOUT_OFFSET, 'offset')),
});
export type AllWorkoutsQuery = v.InferOutput<typeof AllWorkoutsQuerySchema>;

export const WorkoutItemQuerySchema = v.object({
	field_set: v.optional(v.picklist(WORKOUT_FIELD_SETS)),
});

export const WorkoutIdParamSchema = v.object({
	id: idText('id must be a workout id'),
});

export const BulkImportIdParamSchema = v.object({
	id: idText('id must be an import id'),
});

/** A file import may name, place and share the workout; the file decides the rest. */
export const WorkoutImportQuerySchema = v.object({
	name: v.optional(Name),
	privacy: v.optional(v.pipe(v.picklist(['0', '1', '3']), v.transform(Number))),
	activity_type: v.optional(wholeNumberText(1, 9_999_999, 'activity_type')),
	time_zone: v.optional(TimeZoneText),
});
export type WorkoutImportQuery = v.InferOutput<typeof WorkoutImportQuerySchema>;

export const UserStatsParamSchema = v.object({
	id: idText('id must be a member id'),
});

/** Totals per activity type over a period (whole days, UTC, both ends included) or all time. */
export const UserStatsQuerySchema = v.pipe(
	v.object({
		include_summary_stats: v.optional(
			v.pipe(
				v.picklist(['true', 'false', 'True', 'False', '1', '0']),
				v.transform((text) => text === 'true' || text === 'True' || text === '1'),
			),
		),
		start_date: v.optional(DateText('start_date')),
		end_date: v.optional(DateText('end_date')),
		activity_type: v.optional(wholeNumberText(1, 9_999_999, 'activity_type')),
	}),
	v.check(
		(query) => !query.start_date || !query.end_date || query.start_date <= query.end_date,
		'start_date must not be after end_date.',
	),
);
export type UserStatsQuery = v.InferOutput<typeof UserStatsQuerySchema>;

/** What the calorie estimate needs: the activity, how long, and (else the member's) weight. */
const CaloriesFields = {
	activity_type: ActivityTypeRef,
	duration: v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(1_000_000)),
	weight: v.optional(v.pipe(v.number(), v.finite(), v.minValue(20), v.maxValue(400))),
};
export const CaloriesBodySchema = v.strictObject(CaloriesFields);
export const CaloriesQuerySchema = v.object({
	activity_type: wholeNumberText(1, 9_999_999, 'activity_type'),
	duration: NumberString(0, 1_000_000, 'duration'),
	weight: v.optional(NumberString(20, 400, 'weight')),
});
export type CaloriesInput = v.InferOutput<typeof CaloriesBodySchema>;

export const ActivityTypeParamSchema = v.object({
	id: v.pipe(v.string(), v.regex(/^\d{1,7}$/, 'id must be an activity type id')),
});
export const ActivityTypeListQuerySchema = v.object({
	limit: v.optional(wholeNumberText(1, 2000, 'limit')),
	offset: v.optional(wholeNumberText(0, 100_000, 'offset')),
	parent: v.optional(wholeNumberText(1, 9_999_999, 'parent')),
});

/** One activity type as the v7.1 API shows it. */
export type ActivityTypeView = {
	id: number;
	name: string;
	has_children: boolean;
	group: string;
	_links: Record<string, { href: string; id: string }[]>;
};

/** Where the workout forms keep the activity type list in the browser, and for how long. */
export const ACTIVITY_TYPES_STORAGE_KEY = 'mapstride:activity-types';
export const ACTIVITY_TYPES_CACHE_DAYS = 30;

/** Keep the part of a recording between two offsets, in seconds from its start (both kept). */
export const WorkoutCutSchema = v.pipe(
	v.strictObject({
		start_offset_s: v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(10_000_000)),
		end_offset_s: v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(10_000_000)),
		version: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_000_000_000))),
	}),
	v.check((cut) => cut.end_offset_s > cut.start_offset_s, 'end_offset_s must be after start_offset_s.'),
);
export type WorkoutCutInput = v.InferOutput<typeof WorkoutCutSchema>;

/** The file formats a recorded workout downloads as. */
export const WORKOUT_EXPORT_FORMATS = ['gpx', 'tcx', 'fit'] as const;
export type WorkoutExportFormat = (typeof WORKOUT_EXPORT_FORMATS)[number];
/** `original` is the file as the owner uploaded it; only the owner may download it. */
export const WORKOUT_DOWNLOAD_FORMATS = [...WORKOUT_EXPORT_FORMATS, 'original'] as const;
export type WorkoutDownloadFormat = (typeof WORKOUT_DOWNLOAD_FORMATS)[number];
export const WorkoutExportQuerySchema = v.object({
	format: v.optional(v.picklist(WORKOUT_DOWNLOAD_FORMATS, 'format is gpx, tcx, fit or original.'), 'gpx'),
});

/** What the cut page's error line says when the server gives no code of its own. */
export const CUT_DEFAULT_ERROR_CODE = 'UNKNOWN_ERROR';

/** A workout photo as uploaded: phones write 2–8 MB JPEGs; larger files are refused before reading. */
export const WORKOUT_PHOTO_MAX_BYTES = 12 * 1024 * 1024;
export const WORKOUT_PHOTOS_PER_WORKOUT = 10;
export const WorkoutPhotoSizeSchema = v.picklist(['large', 'thumbnail']);
export type WorkoutPhotoSize = v.InferOutput<typeof WorkoutPhotoSizeSchema>;

/** One file's outcome in a bulk import (a Strava or Garmin export zip). */
export type BulkImportFile = {
	file: string;
	outcome: 'imported' | 'duplicate' | 'failed';
	reason?: string;
	workout_id?: number;
};
export type BulkImportStatus = 'queued' | 'running' | 'done' | 'failed';
/** A bulk import's progress: how many of its workout files are done, and how each went. */
export type BulkImportProgress = {
	id: number;
	status: BulkImportStatus;
	total: number;
	processed: number;
	imported: number;
	skipped_duplicates: number;
	failed: number;
	error: string | null;
	created_datetime: string;
	finished_datetime: string | null;
	files: BulkImportFile[];
};

/** Where resumable (tus 1.0) uploads of device files are created; each upload's URL is below it. */
export const WORKOUT_UPLOADS_PATH = '/api/workout_uploads/';

/**
 * The Upload-Metadata of a resumable upload: the file's name, an optional Idempotency-Key (the same
 * key on a new upload of the same file answers with the workout the first one made), and the same
 * choices a file import takes in its query.
 */
export const WorkoutUploadMetadataSchema = v.object({
	filename: v.pipe(singleLineText('The file name', 255), v.minLength(1, 'filename is the file name.')),
	idempotency_key: v.optional(
		v.pipe(
			v.string(),
			v.regex(/^[A-Za-z0-9_-]{8,100}$/, 'idempotency_key is 8 to 100 letters, digits, - or _.'),
		),
	),
	...WorkoutImportQuerySchema.entries,
});
export type WorkoutUploadMetadata = v.InferOutput<typeof WorkoutUploadMetadataSchema>;

export const WorkoutUploadIdParamSchema = v.object({
	id: v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, 'id is an upload id of 32 hexadecimal digits.')),
});

const HalLinks = v.array(v.object({ href: v.string(), id: v.optional(v.string()) }));

/** A resumable upload as its owner sees it: how far its bytes are, and how its import went. */
export const WorkoutUploadViewSchema = v.object({
	id: v.string(),
	status: v.picklist(['receiving', 'importing', 'imported', 'duplicate', 'refused']),
	size: v.number(),
	/** Bytes the server holds. */
	offset: v.number(),
	file_name: v.string(),
	created_datetime: v.string(),
	expires_datetime: v.string(),
	/** The workout the file became (`imported`) or the copy the member already had (`duplicate`). */
	workout: v.optional(
		v.object({
			id: v.number(),
			name: v.string(),
			/** What the member should know about the file's data, such as times it did not really have. */
			notice: v.optional(v.string()),
			/** The consents the member has not given that its track or heart rate wait for. */
			held_back: v.optional(v.array(v.string())),
		}),
	),
	/** Why the file was refused: the status and error the one-request import would have answered. */
	refusal: v.optional(v.object({ status: v.number(), error: v.string(), message: v.string() })),
	_links: v.object({ self: HalLinks, workout: v.optional(HalLinks) }),
});
export type WorkoutUploadView = v.InferOutput<typeof WorkoutUploadViewSchema>;
