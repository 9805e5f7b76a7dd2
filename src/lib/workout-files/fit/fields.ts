/** FIT positions are semicircles: 2³¹ of them make 180°. */
export const SEMICIRCLE_TO_DEG = 180 / 2 ** 31;

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
export function readValue(dv: DataView, off: number, type: number, size: number, le: boolean): number {
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

export function readString(bytes: Uint8Array, off: number, size: number): string {
	let end = off;
	while (end < off + size && bytes[end] !== 0) end++;
	return new TextDecoder().decode(bytes.subarray(off, end));
}
