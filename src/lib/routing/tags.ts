// Per-mode tag rules: which OSM ways a pedestrian, cyclist or driver may use, in which direction and how fast.

export type Mode = 'pedestrian' | 'bicycle' | 'auto';
export const MODES: readonly Mode[] = ['pedestrian', 'bicycle', 'auto'];

export type Tags = Record<string, string>;

/** Speeds in km/h per direction; 0 means not usable that way. */
export interface WayAccess {
	forward: number;
	backward: number;
	/** Open only to reach places on the way itself (access=destination, customers, delivery). */
	destinationOnly: boolean;
	/** Usable, but the mode should take another way where one exists (walkers on a trunk without a sidewalk). */
	discouraged: boolean;
}

// Road classes, kept as small integers in the graph; "highway" here means motorways and trunks (avoidHighways).
export const ROAD_CLASSES = [
	'other',
	'motorway',
	'motorway_link',
	'trunk',
	'trunk_link',
	'primary',
	'primary_link',
	'secondary',
	'secondary_link',
	'tertiary',
	'tertiary_link',
	'unclassified',
	'residential',
	'living_street',
	'service',
	'road',
	'track',
	'path',
	'footway',
	'cycleway',
	'bridleway',
	'pedestrian',
	'steps',
	'corridor',
	'platform',
] as const;
const CLASS_INDEX = new Map<string, number>(ROAD_CLASSES.map((c, i) => [c, i]));

/** Set on a road class when the way is part of a roundabout. */
export const ROUNDABOUT_FLAG = 0x80;

export function getRoadClass(tags: Tags): number {
	const roundabout = tags.junction === 'roundabout' || tags.junction === 'circular';
	return (CLASS_INDEX.get(tags.highway ?? '') ?? 0) | (roundabout ? ROUNDABOUT_FLAG : 0);
}

export function getRoadClassName(roadClass: number): string {
	return ROAD_CLASSES[roadClass & ~ROUNDABOUT_FLAG] ?? 'other';
}

export function isHighwayClass(roadClass: number): boolean {
	const base = roadClass & ~ROUNDABOUT_FLAG;
	return base >= 1 && base <= 4;
}

export function isRoundaboutClass(roadClass: number): boolean {
	return (roadClass & ROUNDABOUT_FLAG) !== 0;
}

const FOOT_SPEED: Record<string, number> = {
	trunk: 5,
	trunk_link: 5,
	primary: 5,
	primary_link: 5,
	secondary: 5,
	secondary_link: 5,
	tertiary: 5,
	tertiary_link: 5,
	unclassified: 5,
	residential: 5,
	living_street: 5,
	service: 5,
	road: 5,
	track: 5,
	path: 5,
	footway: 5,
	pedestrian: 5,
	bridleway: 4,
	cycleway: 5,
	steps: 3,
	corridor: 5,
	platform: 5,
};

const BIKE_SPEED: Record<string, number> = {
	primary: 18,
	primary_link: 18,
	secondary: 18,
	secondary_link: 18,
	tertiary: 18,
	tertiary_link: 18,
	unclassified: 18,
	residential: 18,
	living_street: 12,
	service: 14,
	road: 16,
	track: 12,
	path: 12,
	cycleway: 20,
};
// Usable by bicycle only when explicitly allowed (bicycle=yes/designated/permissive).
const BIKE_IF_ALLOWED: Record<string, number> = {
	footway: 10,
	pedestrian: 10,
	bridleway: 10,
	trunk: 18,
	trunk_link: 18,
	steps: 3,
	corridor: 8,
	platform: 8,
};

const CAR_SPEED: Record<string, number> = {
	motorway: 100,
	motorway_link: 60,
	trunk: 80,
	trunk_link: 50,
	primary: 65,
	primary_link: 45,
	secondary: 55,
	secondary_link: 40,
	tertiary: 45,
	tertiary_link: 35,
	unclassified: 35,
	residential: 30,
	living_street: 10,
	service: 15,
	road: 25,
};

const ALLOW = new Set(['yes', 'designated', 'permissive', 'official']);
// Usable to reach a place on the way, not to pass through: routing charges DESTINATION_ONLY_FACTOR.
const DESTINATION = new Set(['destination', 'customers', 'delivery']);
const DENY = new Set([
	'no',
	'private',
	'agricultural',
	'forestry',
	'discouraged',
	'use_sidepath',
	'restricted',
]);

type AccessRule = 'allow' | 'destination' | 'deny';

/** The most specific access tag present decides; undefined when none says anything. */
function readAccessRule(tags: Tags, keys: string[]): AccessRule | undefined {
	for (let i = keys.length - 1; i >= 0; i--) {
		const value = tags[keys[i]];
		if (value === undefined) continue;
		if (ALLOW.has(value)) return 'allow';
		if (DESTINATION.has(value)) return 'destination';
		if (DENY.has(value)) return 'deny';
	}
	return undefined;
}

/** Whether the tags open the way (true), close it (false) or say nothing (undefined). */
function readAccess(tags: Tags, keys: string[]): boolean | undefined {
	const rule = readAccessRule(tags, keys);
	return rule === undefined ? undefined : rule !== 'deny';
}

// Access keys per mode, least specific first.
const ACCESS_KEYS: Record<Mode, string[]> = {
	pedestrian: ['access', 'foot'],
	bicycle: ['access', 'vehicle', 'bicycle'],
	auto: ['access', 'vehicle', 'motor_vehicle', 'motorcar'],
};

/** -1 reverse-only, 0 both ways, 1 forward-only. */
function readOneway(tags: Tags, mode: Mode): -1 | 0 | 1 {
	if (mode === 'pedestrian') {
		const foot = tags['oneway:foot'];
		if (foot === 'yes') return 1;
		if (foot === '-1') return -1;
		return 0;
	}
	if (mode === 'bicycle') {
		const bike = tags['oneway:bicycle'];
		if (bike === 'no' || bike === '0') return 0;
		if (bike === 'yes' || bike === '1') return 1;
		if (bike === '-1') return -1;
		const cycleway = tags.cycleway ?? '';
		if (cycleway.startsWith('opposite')) return 0;
	}
	const oneway = tags.oneway;
	if (oneway === 'yes' || oneway === '1' || oneway === 'true') return 1;
	if (oneway === '-1' || oneway === 'reverse') return -1;
	if (oneway === 'no' || oneway === '0' || oneway === 'false') return 0;
	if (tags.junction === 'roundabout' || tags.junction === 'circular') return 1;
	if (mode === 'auto' && (tags.highway === 'motorway' || tags.highway === 'motorway_link')) return 1;
	return 0;
}

function readMaxspeed(value: string | undefined): number | undefined {
	if (!value) return undefined;
	const match = /^(\d+(?:\.\d+)?)\s*(mph)?$/.exec(value.trim());
	if (!match) return undefined;
	const speed = Number(match[1]) * (match[2] ? 1.609344 : 1);
	return speed > 0 ? speed : undefined;
}

// Hiking grades a bicycle cannot ride: from demanding mountain hiking up the path needs hands or a rope.
const BIKE_UNRIDEABLE_SAC = new Set([
	'demanding_mountain_hiking',
	'alpine_hiking',
	'demanding_alpine_hiking',
	'difficult_alpine_hiking',
]);

/**
 * Whether the trail is too hard to ride: a sac_scale from demanding_mountain_hiking up, or an mtb:scale of 3
 * ("3", "3+", "4-" and so on) or more. Mapstride plans for touring and road bicycles only and offers no
 * mountain-biking mode, so such trails are closed to every bicycle; a mountain-biking mode would open them.
 */
function isTooHardToRide(tags: Tags): boolean {
	if (BIKE_UNRIDEABLE_SAC.has(tags.sac_scale ?? '')) return true;
	const mtb = /^(\d+)/.exec(tags['mtb:scale'] ?? '');
	return mtb !== null && Number(mtb[1]) >= 3;
}

const CYCLE_LANE = new Set(['lane', 'track', 'opposite_lane', 'opposite_track', 'shared_lane']);

/** Whether the road carries a lane or track for bicycles on either side. */
function hasCycleLane(tags: Tags): boolean {
	return ['cycleway', 'cycleway:right', 'cycleway:left', 'cycleway:both'].some((key) =>
		CYCLE_LANE.has(tags[key] ?? ''),
	);
}

const NO_SIDEWALK = new Set(['no', 'none']);
// Main roads a walker follows only when no footway or sidewalk leads the same way (GraphHopper and Valhalla
// likewise weigh walking on big roads without a sidewalk).
const WALK_BESIDE_TRAFFIC = new Set(['trunk', 'trunk_link', 'primary', 'primary_link']);

/** Whether the road has a sidewalk on its carriageway (sidewalk=both/left/right/yes, or per side). */
function hasSidewalk(tags: Tags): boolean {
	const present = (value: string | undefined) =>
		value !== undefined && value !== 'no' && value !== 'none' && value !== 'separate';
	return (
		present(tags.sidewalk) ||
		present(tags['sidewalk:both']) ||
		present(tags['sidewalk:left']) ||
		present(tags['sidewalk:right'])
	);
}

/** Decides whether and how fast a way can be travelled by the mode; null when not at all. */
export function getWayAccess(tags: Tags, mode: Mode): WayAccess | null {
	const highway = tags.highway;
	if (!highway) return null;
	// A way under construction is tagged highway=construction; `construction=*` beside a real class only
	// tells what the way is becoming (a primary being widened to a trunk stays open).
	if (highway === 'construction' || highway === 'proposed' || highway === 'abandoned') return null;
	if (tags.area === 'yes') return null;
	let speed: number | undefined;
	let discouraged = false;
	const accessKeys = ACCESS_KEYS[mode];
	if (mode === 'pedestrian') {
		const allowed = readAccess(tags, accessKeys);
		speed = FOOT_SPEED[highway];
		if (allowed === false) return null;
		const footSigned = tags.foot === 'yes' || tags.foot === 'designated';
		const trunk = highway === 'trunk' || highway === 'trunk_link';
		if (trunk && NO_SIDEWALK.has(tags.sidewalk ?? '') && !footSigned) return null;
		discouraged = WALK_BESIDE_TRAFFIC.has(highway) && !hasSidewalk(tags) && !footSigned;
		if (speed === undefined) {
			if (allowed !== true || highway === 'motorway' || highway === 'motorway_link') return null;
			speed = 5;
		}
	} else if (mode === 'bicycle') {
		const allowed = readAccess(tags, accessKeys);
		if (allowed === false) return null;
		if (isTooHardToRide(tags)) return null;
		speed = BIKE_SPEED[highway];
		if (speed === undefined) {
			const explicit = readAccess(tags, ['bicycle']);
			const trunkWithLane = (highway === 'trunk' || highway === 'trunk_link') && hasCycleLane(tags);
			if (explicit !== true && !trunkWithLane) return null;
			speed = BIKE_IF_ALLOWED[highway] ?? 10;
		}
	} else {
		const allowed = readAccess(tags, accessKeys);
		if (allowed === false) return null;
		speed = CAR_SPEED[highway];
		if (speed === undefined) {
			if (readAccess(tags, ['motor_vehicle', 'motorcar']) !== true) return null;
			speed = 15;
		}
		const max = readMaxspeed(tags.maxspeed);
		if (max !== undefined) speed = Math.min(max * 0.9, speed * 1.3);
		if (tags.service === 'parking_aisle' || tags.service === 'drive-through') speed = Math.min(speed, 10);
	}
	const oneway = readOneway(tags, mode);
	return {
		forward: oneway === -1 ? 0 : speed,
		backward: oneway === 1 ? 0 : speed,
		destinationOnly: readAccessRule(tags, accessKeys) === 'destination',
		discouraged,
	};
}

/** Surface kinds kept per segment for the route's surface breakdown. */
export const SURFACES = ['unknown', 'paved', 'unpaved'] as const;
export type Surface = (typeof SURFACES)[number];

const PAVED = new Set([
	'paved',
	'asphalt',
	'chipseal',
	'concrete',
	'concrete:plates',
	'concrete:lanes',
	'paving_stones',
	'sett',
	'cobblestone',
	'unhewn_cobblestone',
	'metal',
	'wood',
	'rubber',
	'tartan',
]);
const UNPAVED = new Set([
	'unpaved',
	'compacted',
	'gravel',
	'fine_gravel',
	'pebblestone',
	'rock',
	'dirt',
	'earth',
	'ground',
	'grass',
	'grass_paver',
	'mud',
	'sand',
	'woodchips',
	'snow',
	'ice',
	'salt',
]);
// Without a `surface` tag, the way's kind says what it most likely is, as OSM's wiki describes each class:
// `tracktype` grades a track (and the odd road that carries one) from grade1, solid, to grade5, soft; a
// track without one, a path and a bridleway are trails of earth or gravel; footways, cycleways, pedestrian
// streets, steps and every road are built. Only a way of no known class stays unknown.
const UNPAVED_CLASSES = new Set(['track', 'path', 'bridleway']);

/** Index into SURFACES: the `surface` tag when it is known, else `tracktype`, else what the way's class implies. */
export function getSurface(tags: Tags): number {
	const surface = tags.surface;
	if (surface !== undefined) {
		if (PAVED.has(surface)) return 1;
		if (UNPAVED.has(surface)) return 2;
	}
	const grade = tags.tracktype;
	if (grade !== undefined && /^grade[1-5]$/.test(grade)) return grade === 'grade1' ? 1 : 2;
	const roadClass = getRoadClassName(getRoadClass(tags));
	if (roadClass === 'other') return 0;
	return UNPAVED_CLASSES.has(roadClass) ? 2 : 1;
}

/** What kind of way a road class is, as a member reads a route: road, cycleway, path, track or steps. */
export function getWayType(roadClass: number): 'road' | 'cycleway' | 'path' | 'track' | 'steps' {
	const name = getRoadClassName(roadClass);
	if (name === 'cycleway') return 'cycleway';
	if (name === 'track') return 'track';
	if (name === 'steps') return 'steps';
	if (
		name === 'path' ||
		name === 'footway' ||
		name === 'bridleway' ||
		name === 'pedestrian' ||
		name === 'corridor' ||
		name === 'platform'
	) {
		return 'path';
	}
	return 'road';
}
