import type { TrackPoint } from '../contract';
import { FIT_EPOCH_S } from '../time';
import { readValue, SEMICIRCLE_TO_DEG } from './fields';

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
export const MAX_COMPILED_PER_FILE = 32;
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
export function compileRecordDecoder(def: Definition): RecordDecoder {
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
