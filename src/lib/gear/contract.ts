import * as v from 'valibot';
import { idText } from '../core/integers';
import { singleLineText } from '../core/text';

/** What gear can be: shoes wear out by the kilometre, bikes by the chain and tyres. */
export const GEAR_KINDS = ['shoes', 'bike'] as const;
export type GearKind = (typeof GEAR_KINDS)[number];
export const GEAR_KIND_LABELS: Record<GearKind, string> = { shoes: 'Shoes', bike: 'Bike' };

export const MAX_GEAR_TEXT = 80;
/** Pieces of gear one member may keep, retired ones included. */
export const MAX_GEAR_PER_MEMBER = 200;
/** Metres: far past any shoe or bike (the same ceiling as one workout's distance). */
export const MAX_GEAR_DISTANCE = 100_000_000;

/** A piece of gear as the API and the gear page show it; distances in metres. */
export type GearView = {
	id: number;
	kind: GearKind;
	brand: string;
	model: string;
	nickname: string;
	start_distance: number;
	alert_distance: number | null;
	retired: boolean;
	/** Start distance plus every workout that names it. */
	distance_worn: number;
	workout_count: number;
	/** True once the distance worn reaches the alert distance. */
	alert_reached: boolean;
	version: number;
	created_datetime: string;
	updated_datetime: string;
	_links: Record<string, { href: string; id?: string }[]>;
};

/** The words a form or a list shows for a piece of gear: its nickname, else brand and model. */
export function gearLabel(gear: Pick<GearView, 'nickname' | 'brand' | 'model' | 'kind'>): string {
	return gear.nickname || [gear.brand, gear.model].filter(Boolean).join(' ') || GEAR_KIND_LABELS[gear.kind];
}

const Text = (label: string) => v.pipe(singleLineText(label, MAX_GEAR_TEXT), v.trim());
const Distance = (name: string) =>
	v.pipe(
		v.number(`${name} is a distance in metres.`),
		v.finite(`${name} is a distance in metres.`),
		v.minValue(0, `${name} may not be negative.`),
		v.maxValue(MAX_GEAR_DISTANCE, `${name} must be at most ${MAX_GEAR_DISTANCE} metres.`),
	);
const Version = v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(2_000_000_000));

/** A new piece of gear; it needs at least one of nickname, brand or model to be told apart. */
export const GearCreateSchema = v.pipe(
	v.strictObject({
		kind: v.picklist(GEAR_KINDS, 'kind is shoes or bike.'),
		brand: v.optional(Text('The brand'), ''),
		model: v.optional(Text('The model'), ''),
		nickname: v.optional(Text('The nickname'), ''),
		start_distance: v.optional(Distance('start_distance'), 0),
		alert_distance: v.optional(v.nullable(Distance('alert_distance')), null),
		retired: v.optional(v.boolean('retired is true or false.'), false),
	}),
	v.check(
		(gear) => Boolean(gear.brand || gear.model || gear.nickname),
		'Give the gear a nickname, a brand or a model.',
	),
);
export type GearCreateInput = v.InferOutput<typeof GearCreateSchema>;

/** A change: any of the fields, and the version it was made on (or If-Match). */
export const GearUpdateSchema = v.strictObject({
	kind: v.optional(v.picklist(GEAR_KINDS, 'kind is shoes or bike.')),
	brand: v.optional(Text('The brand')),
	model: v.optional(Text('The model')),
	nickname: v.optional(Text('The nickname')),
	start_distance: v.optional(Distance('start_distance')),
	alert_distance: v.optional(v.nullable(Distance('alert_distance'))),
	retired: v.optional(v.boolean('retired is true or false.')),
	version: v.optional(Version),
});
export type GearUpdateInput = v.InferOutput<typeof GearUpdateSchema>;

export const GearIdParamSchema = v.object({
	id: idText('id must be a gear id'),
});

export const GearListQuerySchema = v.object({
	retired: v.optional(v.picklist(['true', 'false'], 'retired is true or false.')),
});

/** How a workout names its gear: an id, the link `/v7.1/usergear/3/`, or null for none. */
export const GearRef = v.nullable(
	v.pipe(
		v.union([
			v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(999_999_999)),
			v.pipe(
				v.string(),
				v.regex(
					/^(?:\/v7\.1\/usergear\/)?(\d{1,9})\/?$/,
					'gear is an id or a link such as /v7.1/usergear/3/.',
				),
				v.transform((text) => Number(/(\d{1,9})\/?$/.exec(text)?.[1])),
			),
		]),
		v.minValue(1, 'gear must be a gear id.'),
	),
);
