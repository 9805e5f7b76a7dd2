import { WorkoutFileError } from '../errors';

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

/** One FIT file's records in a byte stream; `cutOff` when the stream ends before the file does. */
export interface FitFileRange {
	start: number;
	end: number;
	cutOff?: boolean;
}

export function failCorrupt(why: string, details: Record<string, unknown> = {}): never {
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
