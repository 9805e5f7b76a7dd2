import { ActivityTypeId } from './contract';
import { WorkoutFileError } from './errors';
import { calculateFitCrc } from './fit';
import { haversineM } from './geo';
import { computeElevationChange } from './metrics';
import { FIT_EPOCH_S } from './time';

/** A planned route as a FIT course: the line, optional heights and the cue notes along it. */
export type FitCourseInput = {
	name: string;
	/** One of ActivityTypeId; decides the FIT sport and the nominal pace. */
	activityType: number;
	points: readonly { lat: number; lng: number; elevation?: number | null }[];
	/** Cue notes; `distance` is metres from the start along the line. */
	cuePoints?: readonly { lat: number; lng: number; distance: number; name: string }[];
	/** When the course starts, ms since the Unix epoch; devices race a virtual partner from here. */
	startTime: number;
	/** Metres per second for the record timestamps; a nominal pace for the sport when absent. */
	speedMps?: number;
};

const DEG_TO_SEMICIRCLE = 2 ** 31 / 180;
/** FIT profile 21.217, the version of @garmin/fitsdk we read with. */
const PROFILE_VERSION = 21217;
const PROTOCOL_VERSION = 0x20;
const MANUFACTURER_DEVELOPMENT = 255;
const FILE_COURSE = 6;
const MAX_NAME_BYTES = 99;
/** Garmin devices show about 15 characters of a course point name; 31 bytes keeps room for UTF-8. */
const COURSE_POINT_NAME_BYTES = 32;

const FIT_SPORT: Record<number, number> = {
	[ActivityTypeId.run]: 1,
	[ActivityTypeId.ride]: 2,
	[ActivityTypeId.swim]: 5,
	[ActivityTypeId.walk]: 11,
	[ActivityTypeId.hike]: 17,
};
/** Nominal paces in m/s (10, 20, 2, 5 and 4 km/h; 8 km/h otherwise). */
const NOMINAL_SPEED: Record<number, number> = {
	[ActivityTypeId.run]: 10 / 3.6,
	[ActivityTypeId.ride]: 20 / 3.6,
	[ActivityTypeId.swim]: 2 / 3.6,
	[ActivityTypeId.walk]: 5 / 3.6,
	[ActivityTypeId.hike]: 4 / 3.6,
};

// FIT base types used below.
const ENUM = 0x00;
const UINT16 = 0x84;
const SINT32 = 0x85;
const UINT32 = 0x86;
const UINT32Z = 0x8c;
const STRING = 0x07;

type FieldDef = [num: number, size: number, baseType: number];

/** The FIT `course_point` type a cue's words suggest; anything unclear is `generic`. */
export function coursePointType(instructions: string): number {
	const text = instructions.toLowerCase();
	if (/\bu-?turn\b/.test(text)) return 23;
	if (/\bsharp(ly)? left\b/.test(text)) return 20;
	if (/\b(slight(ly)?|bear|keep) left\b/.test(text)) return 19;
	if (/\bleft\b/.test(text)) return 6;
	if (/\bsharp(ly)? right\b/.test(text)) return 22;
	if (/\b(slight(ly)?|bear|keep) right\b/.test(text)) return 21;
	if (/\bright\b/.test(text)) return 7;
	if (/\b(straight|continue)\b/.test(text)) return 8;
	return 0;
}

const encoder = new TextEncoder();

/** UTF-8 of `text` without control characters, cut at a character boundary to leave room for the NUL. */
function fitString(text: string, maxBytes: number): Uint8Array {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
	const bytes = encoder.encode(text.replace(/[\u0000-\u001f\u007f]/g, ' ').trim());
	let end = Math.min(bytes.length, maxBytes - 1);
	while (end > 0 && end < bytes.length && (bytes[end] & 0xc0) === 0x80) end--;
	const out = new Uint8Array(Math.max(end + 1, 1));
	out.set(bytes.subarray(0, end));
	return out;
}

/**
 * A FIT course file (file_id type 6): file id, course (name, sport), one lap over the whole line,
 * timer start and stop events, a record per point with position, distance, altitude and a
 * timestamp at a nominal pace, and a course point per cue. Written directly rather than through
 * Garmin's encoder: a course is a handful of fixed layouts, and a 10,000-point route then takes
 * milliseconds instead of seconds on the request path.
 */
export function writeFitCourse(course: FitCourseInput): Uint8Array<ArrayBuffer> {
	const points = course.points;
	if (points.length < 2) throw new WorkoutFileError('cannot_write', 'A course needs at least two points.');
	const startS = Math.floor(course.startTime / 1000) - FIT_EPOCH_S;
	if (!Number.isFinite(startS) || startS < 0 || startS > 0xfffffff0)
		throw new WorkoutFileError('cannot_write', 'A FIT course must start after 1990.');
	const speed =
		course.speedMps && course.speedMps > 0
			? course.speedMps
			: (NOMINAL_SPEED[course.activityType] ?? 8 / 3.6);
	const sport = FIT_SPORT[course.activityType] ?? 0;

	const distances = new Float64Array(points.length);
	const heights: number[] = [];
	if (typeof points[0].elevation === 'number') heights.push(points[0].elevation);
	for (let i = 1; i < points.length; i++) {
		const a = points[i - 1];
		const b = points[i];
		distances[i] = distances[i - 1] + haversineM(a.lat, a.lng, b.lat, b.lng);
		if (typeof b.elevation === 'number') heights.push(b.elevation);
	}
	// The course's total climb is the route's (summariseElevation): the product's one climb count.
	const { gain: ascent, loss: descent } = computeElevationChange(heights, [0], { smooth: false });
	const total = distances[points.length - 1];
	const timeAt = (metres: number) => startS + Math.round(metres / speed);
	const endS = timeAt(total);
	const name = fitString(course.name || 'Route', MAX_NAME_BYTES);
	const cues = (course.cuePoints ?? []).slice(0, 0xfffe);

	const capacity = 512 + name.length + points.length * 19 + cues.length * (20 + COURSE_POINT_NAME_BYTES);
	const bytes = new Uint8Array(capacity);
	const dv = new DataView(bytes.buffer);
	let pos = 14;
	const u8 = (value: number) => {
		bytes[pos++] = value;
	};
	const u16 = (value: number) => {
		dv.setUint16(pos, value, true);
		pos += 2;
	};
	const u32 = (value: number) => {
		dv.setUint32(pos, value >>> 0, true);
		pos += 4;
	};
	const s32 = (value: number) => {
		dv.setInt32(pos, value, true);
		pos += 4;
	};
	const define = (local: number, global: number, fields: FieldDef[]) => {
		u8(0x40 | local);
		u8(0); // reserved
		u8(0); // little-endian
		u16(global);
		u8(fields.length);
		for (const [num, size, type] of fields) {
			u8(num);
			u8(size);
			u8(type);
		}
	};
	const semicircles = (degrees: number) => Math.round(degrees * DEG_TO_SEMICIRCLE);
	/** FIT altitude: (metres + 500) × 5 in a uint16; 0xFFFF means unknown. */
	const altitude = (metres: number | null | undefined) =>
		typeof metres === 'number' && Number.isFinite(metres)
			? Math.max(0, Math.min(0xfffe, Math.round((metres + 500) * 5)))
			: 0xffff;

	define(0, 0, [
		[0, 1, ENUM],
		[1, 2, UINT16],
		[2, 2, UINT16],
		[3, 4, UINT32Z],
		[4, 4, UINT32],
	]);
	u8(0);
	u8(FILE_COURSE);
	u16(MANUFACTURER_DEVELOPMENT);
	u16(0);
	u32(1);
	u32(startS);

	define(1, 31, [
		[4, 1, ENUM],
		[5, name.length, STRING],
	]);
	u8(1);
	u8(sport);
	bytes.set(name, pos);
	pos += name.length;

	const first = points[0];
	const last = points[points.length - 1];
	define(2, 19, [
		[253, 4, UINT32],
		[2, 4, UINT32],
		[3, 4, SINT32],
		[4, 4, SINT32],
		[5, 4, SINT32],
		[6, 4, SINT32],
		[7, 4, UINT32],
		[8, 4, UINT32],
		[9, 4, UINT32],
		[21, 2, UINT16],
		[22, 2, UINT16],
		[0, 1, ENUM],
		[1, 1, ENUM],
		[25, 1, ENUM],
	]);
	u8(2);
	u32(endS);
	u32(startS);
	s32(semicircles(first.lat));
	s32(semicircles(first.lng));
	s32(semicircles(last.lat));
	s32(semicircles(last.lng));
	u32((endS - startS) * 1000);
	u32((endS - startS) * 1000);
	u32(Math.round(total * 100));
	u16(Math.min(0xfffe, Math.round(ascent)));
	u16(Math.min(0xfffe, Math.round(descent)));
	u8(9); // event: lap
	u8(1); // event type: stop
	u8(sport);

	define(3, 21, [
		[253, 4, UINT32],
		[0, 1, ENUM],
		[1, 1, ENUM],
	]);
	u8(3);
	u32(startS);
	u8(0); // timer
	u8(0); // start

	define(4, 20, [
		[253, 4, UINT32],
		[0, 4, SINT32],
		[1, 4, SINT32],
		[5, 4, UINT32],
		[2, 2, UINT16],
	]);
	for (let i = 0; i < points.length; i++) {
		const point = points[i];
		u8(4);
		u32(timeAt(distances[i]));
		s32(semicircles(point.lat));
		s32(semicircles(point.lng));
		u32(Math.round(distances[i] * 100));
		u16(altitude(point.elevation));
	}

	if (cues.length > 0) {
		define(5, 32, [
			[254, 2, UINT16],
			[1, 4, UINT32],
			[2, 4, SINT32],
			[3, 4, SINT32],
			[4, 4, UINT32],
			[5, 1, ENUM],
			[6, COURSE_POINT_NAME_BYTES, STRING],
		]);
		cues.forEach((cue, index) => {
			const along = Math.max(0, Math.min(total, cue.distance));
			u8(5);
			u16(index);
			u32(timeAt(along));
			s32(semicircles(cue.lat));
			s32(semicircles(cue.lng));
			u32(Math.round(along * 100));
			u8(coursePointType(cue.name));
			bytes.set(fitString(cue.name, COURSE_POINT_NAME_BYTES), pos);
			pos += COURSE_POINT_NAME_BYTES;
		});
	}

	u8(3);
	u32(endS);
	u8(0); // timer
	u8(4); // stop all

	const dataSize = pos - 14;
	bytes[0] = 14;
	bytes[1] = PROTOCOL_VERSION;
	dv.setUint16(2, PROFILE_VERSION, true);
	dv.setUint32(4, dataSize, true);
	bytes.set([0x2e, 0x46, 0x49, 0x54], 8);
	dv.setUint16(12, calculateFitCrc(bytes, 0, 12), true);
	dv.setUint16(pos, calculateFitCrc(bytes, 0, pos), true);
	pos += 2;
	return bytes.slice(0, pos);
}
