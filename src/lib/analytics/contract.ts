import * as v from 'valibot';
import {
	ANALYTICS_EVENT_NAMES,
	ANALYTICS_EVENT_TYPES,
	MAX_ATTRIBUTES,
	MAX_BATCH_EVENTS,
	WEB_VITAL_NAMES,
} from './events';

/**
 * POST /api/auth/client-events: a batch of the browser's product events. Names come from a fixed
 * list, attributes are short identifiers, numbers and flags, never free text; what still looks
 * personal (an e-mail address, a precise position) is dropped by the service before it is kept.
 */
const ATTRIBUTE_KEY = /^[a-z][a-z0-9_]{0,31}$/;
/** Labels, ids and slugs: no spaces runs, no @, nothing a sentence needs. */
const ATTRIBUTE_TEXT = /^[A-Za-z0-9 _.:/-]{0,64}$/;
const PAGE_TYPE = /^[A-Za-z ]{1,64}$/;

const AttributeValueSchema = v.union([
	v.pipe(v.string(), v.regex(ATTRIBUTE_TEXT, 'Attribute text is a short label of letters, digits and _.:/-')),
	v.pipe(v.number(), v.finite(), v.minValue(-1e9), v.maxValue(1e9)),
	v.boolean(),
	v.null(),
]);

const AttributesSchema = v.pipe(
	v.record(
		v.pipe(v.string(), v.regex(ATTRIBUTE_KEY, 'Attribute names are snake_case.')),
		AttributeValueSchema,
	),
	v.check(
		(attributes) => Object.keys(attributes).length <= MAX_ATTRIBUTES,
		`At most ${MAX_ATTRIBUTES} attributes.`,
	),
);

export const ClientEventSchema = v.object({
	type: v.picklist(ANALYTICS_EVENT_TYPES),
	name: v.picklist([...ANALYTICS_EVENT_NAMES, ...WEB_VITAL_NAMES]),
	/** When it happened in the browser, in milliseconds since 1970. */
	timestamp: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(8.64e15)),
	page_type: v.optional(v.pipe(v.string(), v.regex(PAGE_TYPE, 'A page type label such as Route Details.'))),
	/** A measurement's value (Web Vitals: milliseconds, or the layout shift score). */
	value: v.optional(v.pipe(v.number(), v.finite(), v.minValue(0), v.maxValue(600_000))),
	attributes: v.optional(AttributesSchema, {}),
});
export type ClientEvent = v.InferOutput<typeof ClientEventSchema>;

export const ClientEventBatchSchema = v.object({
	/** The device id cookie's value, sent only once the visitor agreed to analytics. */
	'uacf-id': v.optional(v.nullable(v.pipe(v.string(), v.uuid('uacf-id is the device id, a UUID.')))),
	events: v.pipe(
		v.array(ClientEventSchema),
		v.minLength(1, 'Send at least one event.'),
		v.maxLength(MAX_BATCH_EVENTS, `At most ${MAX_BATCH_EVENTS} events a batch.`),
	),
});
export type ClientEventBatch = v.InferOutput<typeof ClientEventBatchSchema>;

/** The answer: how many of the batch were kept (none without consent). */
export type ClientEventsAnswer = { stored: number };

/** The analytics page's filter: the last N days. */
export const ANALYTICS_PAGE_DAYS = [7, 30, 90] as const;

export type DailyCounts = { day: string; pageViews: number; events: number; devices: number };
export type FunnelStep = { label: string; devices: number };
export type VitalsRow = {
	pageType: string;
	metric: (typeof WEB_VITAL_NAMES)[number];
	p75: number;
	samples: number;
};
export type EventCount = { name: string; count: number };
export type AnalyticsReport = {
	days: number;
	daily: DailyCounts[];
	topEvents: EventCount[];
	funnels: { signup: FunnelStep[]; routes: FunnelStep[] };
	vitals: VitalsRow[];
};
