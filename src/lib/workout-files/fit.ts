import { Decoder, type Mesg, Profile, Stream } from '@garmin/fitsdk';
import { type Container, WorkoutBuilder } from './builder';
import {
	defaultLimits,
	type Lap,
	type NormalisedWorkout,
	type ReadLimits,
	type TrackPoint,
	type Waypoint,
} from './contract';
import { WorkoutFileError } from './errors';
import { mapFitSport, nameFitSport } from './sport';
import { FIT_EPOCH_S, formatUtc } from './time';

const SEMICIRCLE_TO_DEG = 180 / 2 ** 31;

const crcTable = (() => {
	const table = new Uint16Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xa001 : c >>> 1;
		table[n] = c;
	}
	return table;
})();

/**
 * FIT's CRC-16 (the ARC polynomial 0xA001, reflected). Byte-at-a-time with a 256-entry table: it gives
 * the same value as the SDK's nibble-wise `CrcCalculator` (a test checks both on every fixture) at
 * about a fifth of the cost, which matters when the whole file is checked before decoding.
 */
export function calculateFitCrc(bytes: Uint8Array, start: number, end: number): number {
	let crc = 0;
	for (let i = start; i < end; i++) crc = (crc >>> 8) ^ crcTable[(crc ^ bytes[i]) & 0xff];
	return crc;
}

/** True when the bytes start with a FIT file header (size 12 or 14 and the ".FIT" signature). */
export function looksLikeFit(bytes: Uint8Array): boolean {
	return (
		bytes.length >= 12 &&
		(bytes[0] === 12 || bytes[0] === 14) &&
		bytes[8] === 0x2e &&
		bytes[9] === 0x46 &&
		bytes[10] === 0x49 &&
		bytes[11] === 0x54
	);
}

export interface DecoderState {
	/** The last full timestamp seen (FIT seconds), which compressed timestamps count from. */
	last: number;
	/** Accumulated compressed distance in 1/16 m, -1 before the first. */
	acc: number;
}

type RecordDecoder = (
	dv: DataView,
	bytes: Uint8Array,
	pos: number,
	compressedTime: number,
	state: DecoderState,
) => TrackPoint;

export interface Definition {
	global: number;
	le: boolean;
	size: number;
	nums: Uint8Array;
	offsets: Uint16Array;
	types: Uint8Array;
	sizes: Uint8Array;
	decodeRecord?: RecordDecoder;
}

/** JavaScript reading one field's first element, and its "invalid" value; null for a type we do not read. */
function readExpression(
	type: number,
	size: number,
	at: string,
	le: boolean,
): { expr: string; invalid: number | null } | null {
	switch (type) {
		case 0x00:
		case 0x02:
		case 0x0d:
			return { expr: `bytes[${at}]`, invalid: 0xff };
		case 0x0a:
			return { expr: `bytes[${at}]`, invalid: 0 };
		case 0x01:
			return { expr: `dv.getInt8(${at})`, invalid: 0x7f };
		case 0x83:
			return size < 2 ? null : { expr: `dv.getInt16(${at}, ${le})`, invalid: 0x7fff };
		case 0x84:
			return size < 2 ? null : { expr: `dv.getUint16(${at}, ${le})`, invalid: 0xffff };
		case 0x8b:
			return size < 2 ? null : { expr: `dv.getUint16(${at}, ${le})`, invalid: 0 };
		case 0x85:
			return size < 4 ? null : { expr: `dv.getInt32(${at}, ${le})`, invalid: 0x7fffffff };
		case 0x86:
			return size < 4 ? null : { expr: `dv.getUint32(${at}, ${le})`, invalid: 0xffffffff };
		case 0x8c:
			return size < 4 ? null : { expr: `dv.getUint32(${at}, ${le})`, invalid: 0 };
		case 0x88:
			return size < 4 ? null : { expr: `dv.getFloat32(${at}, ${le})`, invalid: null };
		case 0x89:
			return size < 8 ? null : { expr: `dv.getFloat64(${at}, ${le})`, invalid: null };
		default:
			return null;
	}
}

/** Record fields we keep: field number → the local the generated code stores it in. */
const recordFieldVariables: Record<number, string> = {
	253: 'ts',
	0: 'lat',
	1: 'lng',
	2: 'alt',
	78: 'ealt',
	6: 'spd',
	73: 'espd',
	5: 'dist',
	3: 'hr',
	4: 'cad',
	53: 'frac',
	7: 'pow',
	13: 'temp',
};

const compiledDecoders = new Map<string, RecordDecoder>();
/** A hostile file could define thousands of distinct record layouts: compile only so many, cache only so many. */
const MAX_COMPILED_PER_FILE = 32;
const MAX_CACHED_DECODERS = 256;

/** How many compiled record readers are cached (for tests of the caps). */
export function countCompiledDecoders(): number {
	return compiledDecoders.size;
}

/**
 * The same decoding as the compiled readers, interpreted field by field. Used once a file has used up
 * its compile budget, and by the tests as the reference the compiled code must match.
 */
export function decodeRecordInterpreted(
	def: Definition,
	dv: DataView,
	bytes: Uint8Array,
	pos: number,
	compressedTime: number,
	state: DecoderState,
): TrackPoint {
	let ts = compressedTime;
	const v: Record<string, number> = {};
	let cdist = Number.NaN;
	for (let k = 0; k < def.nums.length; k++) {
		const num = def.nums[k];
		const off = pos + def.offsets[k];
		if (num === 8) {
			if (def.sizes[k] !== 3) continue;
			const raw3 = bytes[off] | (bytes[off + 1] << 8) | (bytes[off + 2] << 16);
			if (raw3 !== 0xffffff) {
				v.spd = (raw3 & 0xfff) * 10;
				const raw = raw3 >>> 12;
				if (state.acc < 0) state.acc = raw;
				else state.acc += (raw - (state.acc & 0xfff)) & 0xfff;
				cdist = state.acc / 16;
			}
			continue;
		}
		const variable = recordFieldVariables[num];
		if (variable === undefined) continue;
		const value = readValue(dv, off, def.types[k], def.sizes[k], def.le);
		if (Number.isNaN(value)) continue;
		if (variable === 'ts') {
			ts = value;
			state.last = value;
		} else v[variable] = value;
	}
	const p: TrackPoint = {};
	if (ts >= 0) p.time = (ts + FIT_EPOCH_S) * 1000;
	if (v.lat !== undefined && v.lng !== undefined) {
		p.lat = v.lat * SEMICIRCLE_TO_DEG;
		p.lng = v.lng * SEMICIRCLE_TO_DEG;
	}
	const a = v.ealt ?? v.alt;
	if (a !== undefined) p.elevation = a / 5 - 500;
	if (v.dist !== undefined) p.distance = v.dist / 100;
	else if (!Number.isNaN(cdist)) p.distance = cdist;
	const sp = v.espd ?? v.spd;
	if (sp !== undefined) p.speed = sp / 1000;
	if (v.hr !== undefined) p.heartRate = v.hr;
	if (v.cad !== undefined) p.cadence = v.frac !== undefined ? v.cad + v.frac / 128 : v.cad;
	if (v.pow !== undefined) p.power = v.pow;
	if (v.temp !== undefined) p.temperature = v.temp;
	return p;
}

/**
 * Turns a record definition into straight-line code: one typed read per field at a fixed offset,
 * no per-field dispatch. This is what lifts decoding past a million records a second. The generated
 * source holds only numbers from the definition (offsets, types, the byte order), never file text,
 * and identical definitions share one function.
 */
function compileRecordDecoder(def: Definition): RecordDecoder {
	const key = `${def.le}|${Array.from(def.nums).join(',')}|${Array.from(def.types).join(',')}|${Array.from(def.sizes).join(',')}`;
	const cached = compiledDecoders.get(key);
	if (cached) return cached;
	const lines: string[] = [
		'let ts = compressedTime, lat = NaN, lng = NaN, alt = NaN, ealt = NaN, spd = NaN, espd = NaN, dist = NaN;',
		'let hr = NaN, cad = NaN, frac = NaN, pow = NaN, temp = NaN, cdist = NaN, v = 0;',
	];
	for (let k = 0; k < def.nums.length; k++) {
		const num = def.nums[k];
		const at = `pos + ${def.offsets[k]}`;
		if (num === 8) {
			if (def.sizes[k] !== 3) continue;
			lines.push(
				`v = bytes[${at}] | (bytes[${at} + 1] << 8) | (bytes[${at} + 2] << 16);`,
				'if (v !== 0xffffff) {',
				'  spd = (v & 0xfff) * 10;',
				'  const raw = v >>> 12;',
				'  if (state.acc < 0) state.acc = raw; else state.acc += (raw - (state.acc & 0xfff)) & 0xfff;',
				'  cdist = state.acc / 16;',
				'}',
			);
			continue;
		}
		const variable = recordFieldVariables[num];
		if (variable === undefined) continue;
		const read = readExpression(def.types[k], def.sizes[k], at, def.le);
		if (read === null) continue;
		const valid = read.invalid === null ? 'Number.isFinite(v)' : `v !== ${read.invalid}`;
		if (variable === 'ts') lines.push(`v = ${read.expr};`, `if (${valid}) { ts = v; state.last = v; }`);
		else lines.push(`v = ${read.expr};`, `if (${valid}) ${variable} = v;`);
	}
	lines.push(
		'const p = {};',
		'if (ts >= 0) p.time = (ts + 631065600) * 1000;',
		'if (lat === lat && lng === lng) { p.lat = lat * SEMI; p.lng = lng * SEMI; }',
		'const a = ealt === ealt ? ealt : alt;',
		'if (a === a) p.elevation = a / 5 - 500;',
		'if (dist === dist) p.distance = dist / 100;',
		'else if (cdist === cdist) p.distance = cdist;',
		'const s = espd === espd ? espd : spd;',
		'if (s === s) p.speed = s / 1000;',
		'if (hr === hr) p.heartRate = hr;',
		'if (cad === cad) p.cadence = frac === frac ? cad + frac / 128 : cad;',
		'if (pow === pow) p.power = pow;',
		'if (temp === temp) p.temperature = temp;',
		'return p;',
	);
	const decode = new Function(
		'SEMI',
		`return function decodeRecord(dv, bytes, pos, compressedTime, state) {\n${lines.join('\n')}\n};`,
	)(SEMICIRCLE_TO_DEG) as RecordDecoder;
	if (compiledDecoders.size >= MAX_CACHED_DECODERS) compiledDecoders.clear();
	compiledDecoders.set(key, decode);
	return decode;
}

const invalidByType: Record<number, number> = {
	0: 0xff,
	1: 0x7f,
	2: 0xff,
	131: 0x7fff,
	132: 0xffff,
	133: 0x7fffffff,
	134: 0xffffffff,
	10: 0,
	139: 0,
	140: 0,
	13: 0xff,
};

/** Reads the first element of a field by its base type; NaN for the type's "invalid" value or a type we do not read. */
function readValue(dv: DataView, off: number, type: number, size: number, le: boolean): number {
	let value: number;
	switch (type) {
		case 0x00:
		case 0x02:
		case 0x0a:
		case 0x0d:
			value = dv.getUint8(off);
			break;
		case 0x01:
			value = dv.getInt8(off);
			break;
		case 0x83:
			if (size < 2) return Number.NaN;
			value = dv.getInt16(off, le);
			break;
		case 0x84:
		case 0x8b:
			if (size < 2) return Number.NaN;
			value = dv.getUint16(off, le);
			break;
		case 0x85:
			if (size < 4) return Number.NaN;
			value = dv.getInt32(off, le);
			break;
		case 0x86:
		case 0x8c:
			if (size < 4) return Number.NaN;
			value = dv.getUint32(off, le);
			break;
		case 0x88:
			if (size < 4) return Number.NaN;
			value = dv.getFloat32(off, le);
			return Number.isFinite(value) ? value : Number.NaN;
		case 0x89:
			if (size < 8) return Number.NaN;
			value = dv.getFloat64(off, le);
			return Number.isFinite(value) ? value : Number.NaN;
		default:
			return Number.NaN;
	}
	return value === invalidByType[type] ? Number.NaN : value;
}

function readString(bytes: Uint8Array, off: number, size: number): string {
	let end = off;
	while (end < off + size && bytes[end] !== 0) end++;
	return new TextDecoder().decode(bytes.subarray(off, end));
}

interface SessionTotals {
	sport?: number;
	timer?: number;
	elapsed?: number;
	start?: number;
}

/** One FIT file's records in a byte stream; `cutOff` when the stream ends before the file does. */
interface FitFileRange {
	start: number;
	end: number;
	cutOff?: boolean;
}

/**
 * The device clock's offset from UTC, from an activity's timestamp and local_timestamp (both FIT
 * seconds): only whole quarter hours within ±14 h count, so an unset clock (decades off) or a 0 placeholder
 * says nothing.
 */
function clockOffsetS(utc: number, local: number): number | undefined {
	if (Number.isNaN(utc) || Number.isNaN(local) || local === 0) return undefined;
	const offset = local - utc;
	return Math.abs(offset) <= 14 * 3600 && offset % 900 === 0 ? offset : undefined;
}

/** A cut-off recording's last record can carry a crashing app's garbage clock (decades ahead). */
const CUT_OFF_TIME_JUMP_MS = 24 * 3600 * 1000;

function failCorrupt(why: string, details: Record<string, unknown> = {}): never {
	throw new WorkoutFileError('fit_corrupt', `This FIT file is damaged (${why}).`, details);
}

/**
 * Checks every FIT file in the byte stream (a FIT upload may chain several) and returns their byte
 * ranges. Header size, ".FIT" signature, declared length, header CRC and file CRC are all checked
 * before any record is decoded.
 */
export function checkFitIntegrity(
	bytes: Uint8Array,
	trailing: { bytes: number } = { bytes: 0 },
	options: { keepCutOff?: boolean } = {},
): FitFileRange[] {
	const files: FitFileRange[] = [];
	let offset = 0;
	while (offset < bytes.length) {
		const headerSize = bytes[offset];
		if (files.length > 0 && !looksLikeFit(bytes.subarray(offset))) {
			// Bytes after a complete, checksummed file are padding or a damaged extra: keep what is whole.
			trailing.bytes = bytes.length - offset;
			break;
		}
		if (offset + 12 > bytes.length) {
			throw new WorkoutFileError('truncated', 'This FIT file is incomplete: it ends inside its header.');
		}
		if (!looksLikeFit(bytes.subarray(offset))) {
			throw new WorkoutFileError('fit_corrupt', 'This FIT file is damaged (its header is not a FIT header).');
		}
		const dataSize =
			(bytes[offset + 4] |
				(bytes[offset + 5] << 8) |
				(bytes[offset + 6] << 16) |
				(bytes[offset + 7] << 24)) >>>
			0;
		const dataStart = offset + headerSize;
		const dataEnd = dataStart + dataSize;
		if (dataEnd + 2 > bytes.length) {
			// A recording app that stopped mid-write leaves a file shorter than its header says; its records up
			// to the break are still the member's run, so the reader may keep them (unchecked: no CRC to test).
			if (options.keepCutOff && dataStart < bytes.length) {
				files.push({ start: dataStart, end: bytes.length, cutOff: true });
				break;
			}
			throw new WorkoutFileError(
				'truncated',
				'This FIT file is incomplete: it is shorter than its header says. Copy it from the device again.',
				{ declared: dataEnd + 2, actual: bytes.length },
			);
		}
		if (headerSize === 14) {
			const headerCrc = bytes[offset + 12] | (bytes[offset + 13] << 8);
			if (headerCrc !== 0 && headerCrc !== calculateFitCrc(bytes, offset, offset + 12)) {
				throw new WorkoutFileError('fit_checksum', 'This FIT file is damaged (header checksum).');
			}
		}
		const fileCrc = bytes[dataEnd] | (bytes[dataEnd + 1] << 8);
		if (fileCrc !== calculateFitCrc(bytes, offset, dataEnd)) {
			throw new WorkoutFileError('fit_checksum', 'This FIT file is damaged (checksum)');
		}
		files.push({ start: dataStart, end: dataEnd });
		offset = dataEnd + 2;
	}
	return files;
}

/**
 * Decodes the messages a workout needs (file id, sport, session, lap, record, activity) straight
 * from the bytes, skipping all others by their defined size. Scale and offset follow the FIT profile
 * (altitude /5 − 500 m, speed /1000 m/s, distance /100 m, positions in semicircles). Enhanced speed
 * and altitude win over the 16-bit fields; compressed speed/distance and compressed timestamps are
 * expanded as the FIT protocol defines.
 */
export function readFit(
	bytes: Uint8Array,
	container: Container,
	limits: ReadLimits = {},
	options: { interpret?: boolean } = {},
): NormalisedWorkout {
	const trailing = { bytes: 0 };
	const files = checkFitIntegrity(bytes, trailing, { keepCutOff: true });
	const b = new WorkoutBuilder('fit', container, limits);
	if (trailing.bytes > 0)
		b.warnOnce(`${trailing.bytes} bytes after the end of the FIT data were not readable and were ignored.`);
	let compiled = 0;
	const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const lapEnds: number[] = [];
	const sessions: SessionTotals[] = [];
	let sportFromSportMesg: number | undefined;
	let totals = { distance: 0, elapsed: 0, timer: 0, ascent: 0, descent: 0, calories: 0 };
	const has = {
		distance: false,
		elapsed: false,
		timer: false,
		ascent: false,
		descent: false,
		calories: false,
	};
	let maxHr: number | undefined;
	let avgHr: number | undefined;
	const maxWaypoints = limits.maxPoints ?? defaultLimits.maxPoints;

	let cutOff: { kept: number; last: number | undefined } | undefined;
	for (const file of files) {
		if (!file.cutOff) {
			decodeFile(file);
			continue;
		}
		const pointsBefore = b.points.length;
		try {
			decodeFile(file);
		} catch (error) {
			// Where a cut-off file stops making sense is where the recording ended.
			if (!(error instanceof WorkoutFileError) || error.code !== 'fit_corrupt') throw error;
		}
		if (b.points.length === 0) {
			throw new WorkoutFileError(
				'truncated',
				'This FIT file is incomplete: it ends before its first record. Copy it from the device again.',
			);
		}
		cutOff = { kept: b.points.length - pointsBefore, last: b.points[b.points.length - 1]?.time };
	}

	function decodeFile(file: FitFileRange): void {
		const defs: Array<Definition | undefined> = new Array(16);
		const state: DecoderState = { last: -1, acc: -1 };
		let pos = file.start;
		const end = file.end;
		while (pos < end) {
			const header = bytes[pos++];
			if ((header & 0x80) === 0 && (header & 0x40) !== 0) {
				// definition message
				if (pos + 5 > end) failCorrupt('a definition runs past the end');
				const le = bytes[pos + 1] === 0;
				const global = le ? bytes[pos + 2] | (bytes[pos + 3] << 8) : (bytes[pos + 2] << 8) | bytes[pos + 3];
				const count = bytes[pos + 4];
				pos += 5;
				if (pos + count * 3 > end) failCorrupt('a definition runs past the end');
				const nums = new Uint8Array(count);
				const offsets = new Uint16Array(count);
				const types = new Uint8Array(count);
				const sizes = new Uint8Array(count);
				let size = 0;
				for (let k = 0; k < count; k++) {
					nums[k] = bytes[pos];
					sizes[k] = bytes[pos + 1];
					types[k] = bytes[pos + 2];
					offsets[k] = size;
					size += bytes[pos + 1];
					pos += 3;
				}
				if ((header & 0x20) !== 0) {
					if (pos + 1 > end) failCorrupt('a definition runs past the end');
					const devCount = bytes[pos++];
					if (pos + devCount * 3 > end) failCorrupt('a definition runs past the end');
					for (let k = 0; k < devCount; k++) {
						size += bytes[pos + 1];
						pos += 3;
					}
				}
				defs[header & 0x0f] = { global, le, size, nums, offsets, types, sizes };
				continue;
			}
			let local: number;
			let compressedTime = -1;
			if ((header & 0x80) !== 0) {
				local = (header >> 5) & 0x03;
				if (state.last < 0) failCorrupt('a compressed timestamp before any full one');
				const offset5 = header & 0x1f;
				compressedTime = (state.last & ~0x1f) + offset5;
				if (offset5 < (state.last & 0x1f)) compressedTime += 0x20;
				state.last = compressedTime;
			} else {
				local = header & 0x0f;
			}
			const def = defs[local];
			if (def === undefined) failCorrupt('a message without a definition', { at: pos - 1 });
			if (pos + def.size > end) failCorrupt('a message runs past the end');
			const g = def.global;
			if (g === 21) {
				// A timer stop (auto-pause, manual pause) ends a segment: no distance is counted across it.
				let event = Number.NaN;
				let eventType = Number.NaN;
				for (let k = 0; k < def.nums.length; k++) {
					const num = def.nums[k];
					if (num === 0 || num === 1 || num === 253) {
						const value = readValue(dv, pos + def.offsets[k], def.types[k], def.sizes[k], def.le);
						if (num === 0) event = value;
						else if (num === 1) eventType = value;
						else if (!Number.isNaN(value)) state.last = value;
					}
				}
				if (event === 0 && (eventType === 1 || eventType === 4)) b.breakSegment();
				pos += def.size;
				continue;
			}
			if (g !== 20 && g !== 18 && g !== 19 && g !== 0 && g !== 12 && g !== 34 && g !== 31 && g !== 32) {
				// Still track timestamps so later compressed timestamps resolve correctly.
				for (let k = 0; k < def.nums.length; k++) {
					if (def.nums[k] === 253) {
						const t = readValue(dv, pos + def.offsets[k], def.types[k], def.sizes[k], def.le);
						if (!Number.isNaN(t)) state.last = t;
					}
				}
				pos += def.size;
				continue;
			}
			if (g === 20) {
				if (def.decodeRecord === undefined && compiled < MAX_COMPILED_PER_FILE && !options.interpret) {
					def.decodeRecord = compileRecordDecoder(def);
					compiled++;
				}
				const point = def.decodeRecord
					? def.decodeRecord(dv, bytes, pos, compressedTime, state)
					: decodeRecordInterpreted(def, dv, bytes, pos, compressedTime, state);
				if (file.cutOff && isCrashClock(point)) return;
				b.addPoint(point);
			} else {
				readOtherMessage(g, pos, def);
			}
			pos += def.size;
		}
	}

	function isCrashClock(point: TrackPoint): boolean {
		const previous = b.points[b.points.length - 1]?.time;
		return point.time !== undefined && previous !== undefined && point.time - previous > CUT_OFF_TIME_JUMP_MS;
	}

	function readOtherMessage(g: number, pos: number, def: Definition): void {
		const { nums, offsets, types, sizes, le } = def;
		const field = (num: number): number => {
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === num) return readValue(dv, pos + offsets[k], types[k], sizes[k], le);
			}
			return Number.NaN;
		};
		const timeOf = (num: number): number | undefined => {
			const t = field(num);
			return Number.isNaN(t) ? undefined : (t + FIT_EPOCH_S) * 1000;
		};
		if (g === 0) {
			const manufacturer = field(1);
			const product = field(2);
			let productName: string | undefined;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 8 && types[k] === 0x07) productName = readString(bytes, pos + offsets[k], sizes[k]);
			}
			const maker = Number.isNaN(manufacturer)
				? undefined
				: ((Profile.types.manufacturer as Record<number, string>)[manufacturer] ??
					`manufacturer ${manufacturer}`);
			if (maker !== undefined && b.creator === undefined) {
				b.creator = productName || (Number.isNaN(product) ? maker : `${maker} ${product}`);
			}
		} else if (g === 12) {
			const sport = field(0);
			if (!Number.isNaN(sport)) sportFromSportMesg ??= sport;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 3 && types[k] === 0x07)
					b.name ??= readString(bytes, pos + offsets[k], sizes[k]) || undefined;
			}
		} else if (g === 31) {
			// A course file names itself and its sport in the course message.
			const sport = field(4);
			if (!Number.isNaN(sport)) sportFromSportMesg ??= sport;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 5 && types[k] === 0x07)
					b.name ??= readString(bytes, pos + offsets[k], sizes[k]) || undefined;
			}
		} else if (g === 32) {
			// Course points (turns, water, summits) are the course's waypoints, as in GPX.
			const lat = field(2) * SEMICIRCLE_TO_DEG;
			const lng = field(3) * SEMICIRCLE_TO_DEG;
			if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180) || b.waypoints.length >= maxWaypoints) return;
			const waypoint: Waypoint = { lat, lng };
			const time = timeOf(1);
			if (time !== undefined) waypoint.time = time;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 6 && types[k] === 0x07) {
					const name = readString(bytes, pos + offsets[k], sizes[k]);
					if (name) waypoint.name = name;
				}
			}
			b.waypoints.push(waypoint);
		} else if (g === 34) {
			b.recordedUtcOffsetS ??= clockOffsetS(field(253), field(5));
		} else if (g === 19) {
			const lap: Lap = { firstPoint: 0, endPoint: 0 };
			const start = timeOf(2);
			if (start !== undefined) lap.startTime = start;
			setScaled(lap, 'elapsedS', field(7), 1000);
			setScaled(lap, 'timerS', field(8), 1000);
			setScaled(lap, 'distanceM', field(9), 100);
			setScaled(lap, 'calories', field(11), 1);
			setScaled(lap, 'avgHeartRate', field(15), 1);
			setScaled(lap, 'maxHeartRate', field(16), 1);
			const endTime = timeOf(253);
			lapEnds.push(
				endTime ??
					(start !== undefined && lap.elapsedS !== undefined ? start + lap.elapsedS * 1000 : Number.NaN),
			);
			b.laps.push(lap);
		} else if (g === 18) {
			const session: SessionTotals = {};
			const sport = field(5);
			if (!Number.isNaN(sport)) session.sport = sport;
			const start = timeOf(2);
			if (start !== undefined) session.start = start;
			const add = (key: keyof typeof totals, raw: number, scale: number) => {
				if (Number.isNaN(raw)) return;
				totals[key] += raw / scale;
				has[key] = true;
			};
			add('distance', field(9), 100);
			add('elapsed', field(7), 1000);
			add('timer', field(8), 1000);
			add('ascent', field(22), 1);
			add('descent', field(23), 1);
			add('calories', field(11), 1);
			const timer = field(8);
			if (!Number.isNaN(timer)) session.timer = timer / 1000;
			const hrMax = field(17);
			if (!Number.isNaN(hrMax)) maxHr = Math.max(maxHr ?? 0, hrMax);
			const hrAvg = field(16);
			if (!Number.isNaN(hrAvg)) avgHr = sessions.length === 0 ? hrAvg : undefined;
			sessions.push(session);
		}
	}

	finishFit(b, { sessions, sportFromSportMesg, lapEnds });
	totals = { ...totals };
	for (const key of Object.keys(totals) as Array<keyof typeof totals>) {
		if (!has[key]) continue;
		const value = totals[key];
		if (key === 'distance') b.deviceTotals.distanceM = value;
		else if (key === 'elapsed') b.deviceTotals.elapsedS = value;
		else if (key === 'timer') b.deviceTotals.timerS = value;
		else if (key === 'ascent') b.deviceTotals.ascentM = value;
		else if (key === 'descent') b.deviceTotals.descentM = value;
		else b.deviceTotals.calories = value;
	}
	// A session heart rate of 0 means no strap was worn.
	if (maxHr) b.deviceTotals.maxHeartRate = maxHr;
	if (avgHr && sessions.length === 1) b.deviceTotals.avgHeartRate = avgHr;
	if (cutOff) b.warnOnce(describeCutOff(cutOff.kept, cutOff.last, b.deviceTotals));
	return b.finish();
}

/** Tells the member what of a cut-off recording was kept, beside what the file's own summary claims. */
function describeCutOff(
	kept: number,
	last: number | undefined,
	totals: NormalisedWorkout['deviceTotals'],
): string {
	const upTo = last === undefined ? '' : ` up to ${formatUtc(last).slice(11, 19)} UTC`;
	const claimed: string[] = [];
	if (totals.elapsedS !== undefined) claimed.push(`${Math.round(totals.elapsedS / 60)} min`);
	if (totals.distanceM !== undefined) claimed.push(`${(totals.distanceM / 1000).toFixed(2)} km`);
	const summary = claimed.length > 0 ? ` Its own summary speaks of ${claimed.join(' and ')}.` : '';
	return `This FIT file is incomplete: the app that recorded it stopped before finishing it. The ${kept.toLocaleString('en-US')} points that could be read${upTo} were kept.${summary} Copy the file from the device again if it holds more.`;
}

function setScaled(
	target: Lap,
	key: 'elapsedS' | 'timerS' | 'distanceM' | 'calories' | 'avgHeartRate' | 'maxHeartRate',
	raw: number,
	scale: number,
): void {
	if (!Number.isNaN(raw)) target[key] = raw / scale;
}

/** Shared by both FIT paths: sport from the longest session, laps tied to points by time. */
function finishFit(
	b: WorkoutBuilder,
	info: { sessions: SessionTotals[]; sportFromSportMesg: number | undefined; lapEnds: number[] },
): void {
	let main: SessionTotals | undefined;
	for (const s of info.sessions) if (main === undefined || (s.timer ?? 0) > (main.timer ?? 0)) main = s;
	const sport = main?.sport ?? info.sportFromSportMesg;
	if (sport !== undefined) {
		b.sport = nameFitSport(sport);
		b.activityType = mapFitSport(sport);
	}
	if (info.sessions.length > 1) {
		const names = [
			...new Set(info.sessions.map((s) => (s.sport === undefined ? 'unknown' : nameFitSport(s.sport)))),
		];
		b.warnOnce(
			`This file holds ${info.sessions.length} sessions (${names.join(', ')}); they were read as one workout.`,
		);
	}
	const firstStart = info.sessions.find((s) => s.start !== undefined)?.start;
	if (firstStart !== undefined) b.startTime = firstStart;
	assignLapPoints(b.points, b.laps, info.lapEnds);
}

/** Ties each lap to the points recorded between its start time and its end time. */
function assignLapPoints(points: TrackPoint[], laps: Lap[], lapEnds: number[]): void {
	const firstIndexAtOrAfter = (t: number, strict: boolean): number => {
		let lo = 0;
		let hi = points.length;
		while (lo < hi) {
			const mid = (lo + hi) >>> 1;
			const pt = points[mid].time ?? Number.NEGATIVE_INFINITY;
			if (strict ? pt <= t : pt < t) lo = mid + 1;
			else hi = mid;
		}
		return lo;
	};
	let previousEnd = 0;
	for (let i = 0; i < laps.length; i++) {
		const lap = laps[i];
		const first = lap.startTime === undefined ? previousEnd : firstIndexAtOrAfter(lap.startTime, false);
		const endTime = lapEnds[i];
		const end = Number.isNaN(endTime) ? points.length : firstIndexAtOrAfter(endTime, true);
		lap.firstPoint = Math.min(first, points.length);
		lap.endPoint = Math.max(lap.firstPoint, Math.min(end, points.length));
		previousEnd = lap.endPoint;
	}
}

type SdkMessage = Record<string, unknown>;

function numberOf(value: unknown): number | undefined {
	return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function timeOfSdk(value: unknown): number | undefined {
	return value instanceof Date ? value.getTime() : undefined;
}

/**
 * The same workout through Garmin's official decoder. Slower, and kept as the fallback should the
 * fast decoder meet something it does not understand, and as the reference the tests compare with.
 */
export function readFitWithSdk(
	bytes: Uint8Array,
	container: Container,
	limits: ReadLimits = {},
): NormalisedWorkout {
	const trailing = { bytes: 0 };
	const files = checkFitIntegrity(bytes, trailing);
	const whole = bytes.subarray(0, files[files.length - 1].end + 2);
	const decoder = new Decoder(Stream.fromByteArray(Array.from(whole)));
	const b = new WorkoutBuilder('fit', container, limits);
	const records: SdkMessage[] = [];
	const breaksBefore = new Set<number>();
	const { messages, errors } = decoder.read({
		mergeHeartRates: false,
		expandComponents: true,
		applyScaleAndOffset: true,
		mesgListener: (mesgNum: number, mesg: Mesg) => {
			const message = mesg as SdkMessage;
			if (mesgNum === Profile.MesgNum.RECORD) records.push(message);
			else if (
				mesgNum === Profile.MesgNum.EVENT &&
				message.event === 'timer' &&
				(message.eventType === 'stop' || message.eventType === 'stopAll')
			) {
				breaksBefore.add(records.length);
			}
		},
	});
	if (errors.length > 0) failCorrupt(String((errors[0] as Error).message ?? errors[0]).slice(0, 80));
	if (trailing.bytes > 0)
		b.warnOnce(`${trailing.bytes} bytes after the end of the FIT data were not readable and were ignored.`);
	const sportIds = Profile.types.sport as Record<number, string>;
	const sportByName = new Map(Object.entries(sportIds).map(([id, name]) => [name, Number(id)]));
	for (let index = 0; index < records.length; index++) {
		const r = records[index];
		if (breaksBefore.has(index)) b.breakSegment();
		const p: TrackPoint = {};
		const t = timeOfSdk(r.timestamp);
		if (t !== undefined) p.time = t;
		const lat = numberOf(r.positionLat);
		const lng = numberOf(r.positionLong);
		if (lat !== undefined && lng !== undefined) {
			p.lat = lat * SEMICIRCLE_TO_DEG;
			p.lng = lng * SEMICIRCLE_TO_DEG;
		}
		const ele = numberOf(r.enhancedAltitude) ?? numberOf(r.altitude);
		if (ele !== undefined) p.elevation = ele;
		const distance = numberOf(r.distance);
		if (distance !== undefined) p.distance = distance;
		const speed = numberOf(r.enhancedSpeed) ?? numberOf(r.speed);
		if (speed !== undefined) p.speed = speed;
		const hr = numberOf(r.heartRate);
		if (hr !== undefined) p.heartRate = hr;
		const cadence = numberOf(r.cadence);
		if (cadence !== undefined) p.cadence = cadence + (numberOf(r.fractionalCadence) ?? 0);
		const power = numberOf(r.power);
		if (power !== undefined) p.power = power;
		const temperature = numberOf(r.temperature);
		if (temperature !== undefined) p.temperature = temperature;
		b.addPoint(p);
	}
	const lapEnds: number[] = [];
	for (const l of (messages.lapMesgs ?? []) as SdkMessage[]) {
		const lap: Lap = { firstPoint: 0, endPoint: 0 };
		const start = timeOfSdk(l.startTime);
		if (start !== undefined) lap.startTime = start;
		const assign = (
			key: 'elapsedS' | 'timerS' | 'distanceM' | 'calories' | 'avgHeartRate' | 'maxHeartRate',
			v: unknown,
		) => {
			const n = numberOf(v);
			if (n !== undefined) lap[key] = n;
		};
		assign('elapsedS', l.totalElapsedTime);
		assign('timerS', l.totalTimerTime);
		assign('distanceM', l.totalDistance);
		assign('calories', l.totalCalories);
		assign('avgHeartRate', l.avgHeartRate);
		assign('maxHeartRate', l.maxHeartRate);
		lapEnds.push(timeOfSdk(l.timestamp) ?? Number.NaN);
		b.laps.push(lap);
	}
	const sessions: SessionTotals[] = [];
	const sum = (key: string) => {
		let total = 0;
		let any = false;
		for (const s of (messages.sessionMesgs ?? []) as SdkMessage[]) {
			const n = numberOf(s[key]);
			if (n !== undefined) {
				total += n;
				any = true;
			}
		}
		return any ? total : undefined;
	};
	for (const s of (messages.sessionMesgs ?? []) as SdkMessage[]) {
		const session: SessionTotals = {};
		const sport = typeof s.sport === 'string' ? sportByName.get(s.sport) : numberOf(s.sport);
		if (sport !== undefined) session.sport = sport;
		const start = timeOfSdk(s.startTime);
		if (start !== undefined) session.start = start;
		const timer = numberOf(s.totalTimerTime);
		if (timer !== undefined) session.timer = timer;
		sessions.push(session);
	}
	const totals = b.deviceTotals;
	const set = (key: keyof typeof totals, v: number | undefined) => {
		if (v !== undefined) totals[key] = v;
	};
	set('distanceM', sum('totalDistance'));
	set('elapsedS', sum('totalElapsedTime'));
	set('timerS', sum('totalTimerTime'));
	set('ascentM', sum('totalAscent'));
	set('descentM', sum('totalDescent'));
	set('calories', sum('totalCalories'));
	const sessionMesgs = (messages.sessionMesgs ?? []) as SdkMessage[];
	const maxHr = Math.max(0, ...sessionMesgs.map((s) => numberOf(s.maxHeartRate) ?? 0));
	if (maxHr) totals.maxHeartRate = maxHr;
	const avgHr = sessionMesgs.length === 1 ? numberOf(sessionMesgs[0].avgHeartRate) : undefined;
	if (avgHr) totals.avgHeartRate = avgHr;
	const activityMesg = ((messages.activityMesgs ?? []) as SdkMessage[])[0];
	const activityTime = timeOfSdk(activityMesg?.timestamp);
	if (activityTime !== undefined)
		b.recordedUtcOffsetS = clockOffsetS(
			activityTime / 1000 - FIT_EPOCH_S,
			numberOf(activityMesg?.localTimestamp) ?? Number.NaN,
		);
	const sportMesg = ((messages.sportMesgs ?? []) as SdkMessage[])[0];
	const courseMesg = ((messages.courseMesgs ?? []) as SdkMessage[])[0];
	const sportFromSportMesg =
		typeof sportMesg?.sport === 'string'
			? sportByName.get(sportMesg.sport)
			: typeof courseMesg?.sport === 'string'
				? sportByName.get(courseMesg.sport)
				: undefined;
	if (typeof courseMesg?.name === 'string' && courseMesg.name) b.name ??= courseMesg.name;
	const maxWaypoints = limits.maxPoints ?? defaultLimits.maxPoints;
	for (const point of (messages.coursePointMesgs ?? []) as SdkMessage[]) {
		const lat = (numberOf(point.positionLat) ?? Number.NaN) * SEMICIRCLE_TO_DEG;
		const lng = (numberOf(point.positionLong) ?? Number.NaN) * SEMICIRCLE_TO_DEG;
		if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180) || b.waypoints.length >= maxWaypoints) continue;
		const waypoint: Waypoint = { lat, lng };
		const time = timeOfSdk(point.timestamp);
		if (time !== undefined) waypoint.time = time;
		if (typeof point.name === 'string' && point.name) waypoint.name = point.name;
		b.waypoints.push(waypoint);
	}
	finishFit(b, { sessions, sportFromSportMesg, lapEnds });
	return b.finish();
}
