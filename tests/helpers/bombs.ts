import { crc32, deflateSync, gzipSync } from 'node:zlib';

/**
 * Decompression bombs made at run time (nothing large is committed): one gzip of `inflatedBytes`
 * of GPX-looking text, and the same deflate stream wrapped as a one-entry zip, once with honest
 * header sizes and once claiming 100 bytes.
 */
export function makeBombs(inflatedBytes: number) {
	const raw = Buffer.alloc(inflatedBytes, 0x20);
	raw.write('<?xml version="1.0"?><gpx version="1.1" creator="bomb"><trk><trkseg>', 0);
	const gzip = gzipSync(raw, { level: 9 });
	// A gzip member is a 10-byte header, a raw deflate stream, then CRC-32 and size: the zip reuses both.
	const deflated = gzip.subarray(10, gzip.length - 8);
	const crc = gzip.readUInt32LE(gzip.length - 8);
	return {
		gzip: new Uint8Array(gzip),
		zip: zipOneEntry('ride.gpx', deflated, crc, inflatedBytes),
		lyingZip: zipOneEntry('ride.gpx', deflated, crc, 100),
	};
}

function zipOneEntry(name: string, deflated: Uint8Array, crc: number, declaredSize: number): Uint8Array {
	const fileName = Buffer.from(name);
	const local = Buffer.alloc(30);
	local.writeUInt32LE(0x04034b50, 0);
	local.writeUInt16LE(20, 4);
	local.writeUInt16LE(8, 8);
	local.writeUInt32LE(crc, 14);
	local.writeUInt32LE(deflated.length, 18);
	local.writeUInt32LE(declaredSize, 22);
	local.writeUInt16LE(fileName.length, 26);
	const central = Buffer.alloc(46);
	central.writeUInt32LE(0x02014b50, 0);
	central.writeUInt16LE(20, 4);
	central.writeUInt16LE(20, 6);
	central.writeUInt16LE(8, 10);
	central.writeUInt32LE(crc, 16);
	central.writeUInt32LE(deflated.length, 20);
	central.writeUInt32LE(declaredSize, 24);
	central.writeUInt16LE(fileName.length, 28);
	const centralAt = local.length + fileName.length + deflated.length;
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(1, 8);
	end.writeUInt16LE(1, 10);
	end.writeUInt32LE(central.length + fileName.length, 12);
	end.writeUInt32LE(centralAt, 16);
	return new Uint8Array(Buffer.concat([local, fileName, deflated, central, fileName, end]));
}

function pngFile(width: number, height: number, bitDepth: number, colourType: number, idat: Buffer) {
	const chunk = (type: string, data: Buffer) => {
		const length = Buffer.alloc(4);
		length.writeUInt32BE(data.length);
		const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
		const crc = Buffer.alloc(4);
		crc.writeUInt32BE(crc32(body) >>> 0);
		return Buffer.concat([length, body, crc]);
	};
	const header = Buffer.alloc(13);
	header.writeUInt32BE(width, 0);
	header.writeUInt32BE(height, 4);
	header.set([bitDepth, colourType, 0, 0, 0], 8);
	return new Uint8Array(
		Buffer.concat([
			Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
			chunk('IHDR', header),
			chunk('IDAT', idat),
			chunk('IEND', Buffer.alloc(0)),
		]),
	);
}

/** A PNG whose header claims a huge RGB image; its few bytes decompress to almost nothing. */
export function pngClaiming(width: number, height: number): Uint8Array {
	return pngFile(width, height, 8, 2, deflateSync(Buffer.alloc(1000)));
}

/**
 * A PNG of `width` × `height` one-bit pixels with every row present: a few hundred kilobytes that
 * really decode to hundreds of megapixels.
 */
export function makePngBomb(width: number, height: number): Uint8Array {
	return pngFile(
		width,
		height,
		1,
		0,
		deflateSync(Buffer.alloc((Math.ceil(width / 8) + 1) * height), { level: 9 }),
	);
}
