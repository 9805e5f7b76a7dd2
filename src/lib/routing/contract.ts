import * as v from 'valibot';
import { singleLineText } from '../core/text';

// Request and response shapes of the routing API (Valhalla's shapes), for the server and its tests alike.

export const MAX_LOCATIONS = 20;
export const MAX_HEIGHT_POINTS = 10_000;

const Latitude = v.pipe(v.number(), v.finite(), v.minValue(-90), v.maxValue(90));
const Longitude = v.pipe(v.number(), v.finite(), v.minValue(-180), v.maxValue(180));

export const LocationSchema = v.looseObject({ lat: Latitude, lon: Longitude });

export const CostingSchema = v.picklist(['pedestrian', 'bicycle', 'auto']);

const ModeOptions = v.optional(
	v.looseObject({
		use_highways: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(1))),
		exclude_highways: v.optional(v.boolean()),
	}),
);

export const RouteRequestSchema = v.looseObject({
	locations: v.pipe(v.array(LocationSchema), v.minLength(2), v.maxLength(MAX_LOCATIONS)),
	costing: v.optional(CostingSchema, 'auto'),
	costing_options: v.optional(
		v.looseObject({ pedestrian: ModeOptions, bicycle: ModeOptions, auto: ModeOptions }),
	),
	directions_options: v.optional(
		v.looseObject({ units: v.optional(v.picklist(['kilometers', 'miles', 'km', 'mi']), 'kilometers') }),
	),
	/** Our shorthand for the map option avoidHighways. */
	avoid_highways: v.optional(v.boolean()),
	id: v.optional(v.union([v.string(), v.number()])),
});
export type RouteRequest = v.InferOutput<typeof RouteRequestSchema>;

export const ManeuverSchema = v.object({
	type: v.pipe(v.number(), v.integer()),
	instruction: v.string(),
	length: v.number(),
	time: v.number(),
	begin_shape_index: v.pipe(v.number(), v.integer(), v.minValue(0)),
	end_shape_index: v.pipe(v.number(), v.integer(), v.minValue(0)),
	street_names: v.optional(v.array(v.string())),
	travel_mode: v.string(),
});
export type Maneuver = v.InferOutput<typeof ManeuverSchema>;

export const SummarySchema = v.object({
	length: v.number(),
	time: v.number(),
	min_lat: Latitude,
	min_lon: Longitude,
	max_lat: Latitude,
	max_lon: Longitude,
});
export type Summary = v.InferOutput<typeof SummarySchema>;

export const LegSchema = v.object({
	shape: v.string(),
	maneuvers: v.pipe(v.array(ManeuverSchema), v.minLength(1)),
	summary: SummarySchema,
});
export type Leg = v.InferOutput<typeof LegSchema>;

const BreakdownEntrySchema = v.object({
	type: v.string(),
	/** Metres. */
	length: v.number(),
	percent: v.number(),
});
/** How much of the route runs on each surface (paved, unpaved, unknown) and kind of way (road, path, …). */
export const RouteBreakdownSchema = v.object({
	surface: v.array(BreakdownEntrySchema),
	way_type: v.array(BreakdownEntrySchema),
});
export type RouteBreakdown = v.InferOutput<typeof RouteBreakdownSchema>;

export const RouteResponseSchema = v.object({
	trip: v.object({
		locations: v.array(
			v.object({
				lat: Latitude,
				lon: Longitude,
				type: v.string(),
				original_index: v.number(),
				/** Where the location was placed on the road network, and how many metres it moved. */
				correlated_lat: v.optional(Latitude),
				correlated_lon: v.optional(Longitude),
				snap_distance: v.optional(v.number()),
			}),
		),
		legs: v.pipe(v.array(LegSchema), v.minLength(1)),
		summary: SummarySchema,
		units: v.picklist(['kilometers', 'miles']),
		status: v.literal(0),
		status_message: v.string(),
		language: v.string(),
		/** Our engine's addition; a Valhalla server answers without it. */
		breakdown: v.optional(RouteBreakdownSchema),
	}),
	id: v.optional(v.union([v.string(), v.number()])),
});
export type RouteResponse = v.InferOutput<typeof RouteResponseSchema>;

export const LocateRequestSchema = v.looseObject({
	locations: v.pipe(v.array(LocationSchema), v.minLength(1), v.maxLength(100)),
	costing: v.optional(CostingSchema, 'auto'),
});
export type LocateRequest = v.InferOutput<typeof LocateRequestSchema>;

export const LocateResponseSchema = v.array(
	v.object({
		input_lat: Latitude,
		input_lon: Longitude,
		edges: v.nullable(
			v.array(
				v.object({
					correlated_lat: Latitude,
					correlated_lon: Longitude,
					distance: v.number(),
					percent_along: v.number(),
					side_of_street: v.string(),
					way_name: v.nullable(v.string()),
					road_class: v.string(),
				}),
			),
		),
		nodes: v.nullable(v.array(v.unknown())),
	}),
);
export type LocateResponse = v.InferOutput<typeof LocateResponseSchema>;

export const HeightRequestSchema = v.pipe(
	v.looseObject({
		shape: v.optional(v.pipe(v.array(LocationSchema), v.minLength(1), v.maxLength(MAX_HEIGHT_POINTS))),
		encoded_polyline: v.optional(v.pipe(v.string(), v.minLength(1), v.maxLength(200_000))),
		range: v.optional(v.boolean()),
		resample_distance: v.optional(v.pipe(v.number(), v.minValue(1), v.maxValue(100_000))),
		shape_format: v.optional(v.picklist(['polyline6', 'polyline5'])),
		id: v.optional(v.union([v.string(), v.number()])),
	}),
	v.check(
		(input) => input.shape !== undefined || input.encoded_polyline !== undefined,
		'shape or encoded_polyline is required',
	),
);
export type HeightRequest = v.InferOutput<typeof HeightRequestSchema>;

export const HeightResponseSchema = v.object({
	shape: v.optional(v.array(v.object({ lat: Latitude, lon: Longitude }))),
	encoded_polyline: v.optional(v.string()),
	height: v.optional(v.array(v.nullable(v.number()))),
	range_height: v.optional(v.array(v.tuple([v.number(), v.nullable(v.number())]))),
	id: v.optional(v.union([v.string(), v.number()])),
});
export type HeightResponse = v.InferOutput<typeof HeightResponseSchema>;

export const ErrorResponseSchema = v.object({
	error_code: v.number(),
	error: v.string(),
	status_code: v.number(),
	status: v.string(),
});
export type ErrorResponse = v.InferOutput<typeof ErrorResponseSchema>;

/** The error of an MVP-only endpoint asked by anyone else: which feature it is and where to get it. */
export const PremiumRequiredResponseSchema = v.object({
	...ErrorResponseSchema.entries,
	status_code: v.literal(403),
	feature: v.string(),
	checkout_path: v.string(),
});
export type PremiumRequiredResponse = v.InferOutput<typeof PremiumRequiredResponseSchema>;

export const GeocodeQuerySchema = v.object({
	q: v.pipe(singleLineText('q', 200), v.trim(), v.minLength(1, 'q is required.')),
	format: v.optional(v.picklist(['geojson', 'json']), 'geojson'),
	limit: v.optional(
		v.pipe(v.string(), v.transform(Number), v.number(), v.integer(), v.minValue(1), v.maxValue(50)),
		'10',
	),
});

export const GeocodeFeatureSchema = v.object({
	type: v.literal('Feature'),
	geometry: v.object({ type: v.literal('Point'), coordinates: v.tuple([Longitude, Latitude]) }),
	properties: v.object({
		name: v.string(),
		display_name: v.string(),
		type: v.string(),
		category: v.string(),
		population: v.optional(v.number()),
		country_code: v.optional(v.string()),
	}),
});

export const GeocodeResponseSchema = v.object({
	type: v.literal('FeatureCollection'),
	licence: v.string(),
	features: v.array(GeocodeFeatureSchema),
});
export type GeocodeResponse = v.InferOutput<typeof GeocodeResponseSchema>;

export const CitySearchItemSchema = v.object({
	value: v.pipe(v.string(), v.regex(/^-?\d+(\.\d+)?,-?\d+(\.\d+)?$/)),
	label: v.string(),
	locality: v.string(),
	isCity: v.boolean(),
	isCountry: v.boolean(),
	isRegion: v.boolean(),
	isState: v.boolean(),
});
export const CitySearchResponseSchema = v.array(CitySearchItemSchema);
export type CitySearchItem = v.InferOutput<typeof CitySearchItemSchema>;

/** Nominatim's plain JSON shape (format=json). */
export const GeocodeJsonResponseSchema = v.array(
	v.object({
		lat: v.string(),
		lon: v.string(),
		name: v.string(),
		display_name: v.string(),
		class: v.string(),
		type: v.string(),
		importance: v.number(),
	}),
);
export type GeocodeJsonResponse = v.InferOutput<typeof GeocodeJsonResponseSchema>;

/** Longest loop the round-trip planner draws, in metres. */
export const MAX_ROUND_TRIP_DISTANCE = 200_000;

export const RoundTripRequestSchema = v.object({
	location: v.object({ lat: Latitude, lon: Longitude }),
	costing: v.optional(CostingSchema, 'pedestrian'),
	/** Target length of the loop in metres. */
	distance: v.pipe(v.number(), v.finite(), v.minValue(500), v.maxValue(MAX_ROUND_TRIP_DISTANCE)),
	avoid_highways: v.optional(v.boolean()),
});
export type RoundTripRequest = v.InferOutput<typeof RoundTripRequestSchema>;

export const RoundTripResponseSchema = v.object({
	trips: v.array(
		v.object({
			/** Compass bearing (degrees) the loop heads out on. */
			bearing: v.number(),
			/** Metres. */
			length: v.number(),
			/** Share of the loop that runs over ground it already covered. */
			overlap_percent: v.number(),
			trip: RouteResponseSchema.entries.trip,
		}),
	),
});
export type RoundTripResponse = v.InferOutput<typeof RoundTripResponseSchema>;
