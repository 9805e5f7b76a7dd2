import { EARTH_RADIUS_M, haversineM } from '../workout-files/geo';
import type { SeriesSample } from './series';

/** Radius a member may choose for a privacy zone, in metres (200 m to a mile). */
export const ZONE_RADIUS_MIN_M = 200;
export const ZONE_RADIUS_MAX_M = 1600;
/** Distance a member may hide at each end of every workout; 0 turns it off. */
export const HIDE_ENDS_MIN_M = 200;
export const HIDE_ENDS_MAX_M = 1000;
/** Hidden at each end for a member who never chose: location privacy is on by default. */
export const HIDE_ENDS_DEFAULT_M = 200;
/** The most zones one member keeps. */
export const MAX_PRIVACY_ZONES = 10;

/**
 * A hidden circle as stored: never the address itself. The centre sits away from the address and
 * the radius grows by that distance, so everything within the member's chosen radius of the address
 * stays hidden in every direction.
 */
export type PrivacyZone = { lat: number; lng: number; radiusM: number };

/** What the owner chose: their zones and how much of each workout's ends to hide. */
export type LocationPrivacy = { zones: readonly PrivacyZone[]; hideEndsM: number };

const RAD = Math.PI / 180;

/**
 * The circle stored for a zone the member asks for around `point` with `radiusM`. A circle fitted
 * to the visible ends of many workouts finds the stored centre, and their centroid lies about
 * halfway between centre and address, so the centre moves 80–100 % of the radius away in a random
 * direction (chosen once, when the zone is saved): both estimates land well away from the address.
 */
export function placeZone(
	point: { lat: number; lng: number },
	radiusM: number,
	random: () => number = Math.random,
): PrivacyZone {
	const offsetM = radiusM * (0.8 + 0.2 * random());
	const bearing = random() * 2 * Math.PI;
	const dLat = (offsetM * Math.cos(bearing)) / EARTH_RADIUS_M / RAD;
	const dLng = (offsetM * Math.sin(bearing)) / (EARTH_RADIUS_M * Math.cos(point.lat * RAD)) / RAD;
	const lng = ((((point.lng + dLng + 180) % 360) + 360) % 360) - 180;
	const lat = Math.max(-90, Math.min(90, point.lat + dLat));
	// Six decimals (about 0.1 m) is all the series keeps, and all a zone needs.
	const round = (value: number) => Math.round(value * 1e6) / 1e6;
	return { lat: round(lat), lng: round(lng), radiusM: Math.ceil(radiusM + offsetM) };
}

function inAnyZone(sample: SeriesSample, zones: readonly PrivacyZone[]): boolean {
	return isInAnyZone(sample.lat as number, sample.lng as number, zones);
}

/** Whether a place lies inside one of a member's privacy zones (workouts and routes alike). */
export function isInAnyZone(lat: number, lng: number, zones: readonly PrivacyZone[]): boolean {
	return zones.some((zone) => haversineM(lat, lng, zone.lat, zone.lng) <= zone.radiusM);
}

/** A number in [0, 1) fixed by the text: the same workout always hides the same length. */
function unitHash(text: string): number {
	let hash = 0x811c9dc5;
	for (let i = 0; i < text.length; i++) {
		hash ^= text.charCodeAt(i);
		hash = Math.imul(hash, 0x01000193);
	}
	hash ^= hash >>> 16;
	hash = Math.imul(hash, 0x85ebca6b);
	hash ^= hash >>> 13;
	return (hash >>> 0) / 2 ** 32;
}

/** The workout facts trimming needs; `secret` is something only the server knows about it. */
export type TrimSubject = { id: number; ownerId: number; secret: string; samples: readonly SeriesSample[] };

/**
 * The one place that decides which positions of a workout a viewer sees. The owner sees every
 * sample. Anyone else gets the samples with position, elevation, speed and distance removed where
 * they fall inside one of the owner's zones, or within the hidden ends: the start is hidden until
 * the track has left every zone and then gone a further `hideEndsM` plus 0–50 % more (fixed per
 * workout, so one workout's ends are not all at the same distance), and the finish likewise.
 * Time, heart rate, cadence and power stay: they say nothing about where. Speed and distance go
 * with the position because integrating them over the hidden part gives its length, and the
 * distance of the visible samples counts from the first of them for the same reason.
 * Every representation of a workout anyone but its owner can get goes through here.
 */
export function trimForViewer(
	subject: TrimSubject,
	owner: LocationPrivacy,
	viewer: { id: number } | null,
): { samples: SeriesSample[]; hidden: boolean[] } {
	const samples = subject.samples;
	const untouched = () => ({ samples: [...samples], hidden: samples.map(() => false) });
	if (viewer && viewer.id === subject.ownerId) return untouched();
	if (owner.zones.length === 0 && owner.hideEndsM <= 0) return untouched();

	const positioned = samples.map((sample) => sample.lat !== undefined && sample.lng !== undefined);
	const outside = samples.map((sample, i) => positioned[i] && !inAnyZone(sample, owner.zones));
	const visible = outside.slice();
	if (owner.hideEndsM > 0) {
		const extra = (end: string) =>
			owner.hideEndsM * (1 + 0.5 * unitHash(`${subject.secret}:${subject.id}:${end}`));
		hideEnd(samples, positioned, outside, visible, extra('start'), 1);
		hideEnd(samples, positioned, outside, visible, extra('finish'), -1);
	}
	const firstVisible = visible.indexOf(true);
	const lastVisible = visible.lastIndexOf(true);
	const distanceBase = firstVisible >= 0 ? samples[firstVisible].distance : undefined;
	// Samples without a position before the first or after the last visible one are hidden too.
	const hidden = samples.map(
		(_, i) => (positioned[i] && !visible[i]) || firstVisible < 0 || i < firstVisible || i > lastVisible,
	);
	return { samples: samples.map((sample, i) => shownSample(sample, hidden[i], distanceBase)), hidden };
}

/**
 * A sample as shown: without what says where it was (position, elevation, speed, distance) when it
 * is hidden, distance counted from `distanceBase` (and left out without one), no key undefined.
 * Field by field rather than copied and pruned: a long recording has hundreds of thousands of samples.
 */
function shownSample(sample: SeriesSample, hidden: boolean, distanceBase: number | undefined): SeriesSample {
	const shown: SeriesSample = { offsetMs: sample.offsetMs };
	if (sample.heartRate !== undefined) shown.heartRate = sample.heartRate;
	if (sample.cadence !== undefined) shown.cadence = sample.cadence;
	if (sample.power !== undefined) shown.power = sample.power;
	if (hidden) return shown;
	if (sample.lat !== undefined) shown.lat = sample.lat;
	if (sample.lng !== undefined) shown.lng = sample.lng;
	if (sample.elevation !== undefined) shown.elevation = sample.elevation;
	if (sample.speed !== undefined) shown.speed = sample.speed;
	if (sample.distance !== undefined && distanceBase !== undefined)
		shown.distance = sample.distance - distanceBase;
	return shown;
}

/**
 * Hides, walking from one end (`direction` 1 from the start, -1 from the finish), every positioned
 * sample until the track is outside every zone and has covered `distanceM` from there.
 */
function hideEnd(
	samples: readonly SeriesSample[],
	positioned: readonly boolean[],
	outside: readonly boolean[],
	visible: boolean[],
	distanceM: number,
	direction: 1 | -1,
): void {
	const begin = direction === 1 ? 0 : samples.length - 1;
	let i = begin;
	while (i >= 0 && i < samples.length && !outside[i]) i += direction;
	let covered = 0;
	let previous: SeriesSample | null = null;
	for (; i >= 0 && i < samples.length; i += direction) {
		if (!positioned[i]) continue;
		const sample = samples[i];
		if (previous)
			covered += haversineM(
				previous.lat as number,
				previous.lng as number,
				sample.lat as number,
				sample.lng as number,
			);
		previous = sample;
		if (covered >= distanceM) return;
		visible[i] = false;
	}
}
