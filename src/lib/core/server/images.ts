import sharp from 'sharp';

export type ImageKind = 'png' | 'jpeg' | 'gif';

/** The type comes from the bytes, never from the name or the declared content type. */
export function detectImageType(bytes: Uint8Array): ImageKind | null {
	const starts = (signature: number[]) => signature.every((byte, index) => bytes[index] === byte);
	if (starts([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
	if (starts([0xff, 0xd8, 0xff])) return 'jpeg';
	const head = Buffer.from(bytes.subarray(0, 6)).toString('latin1');
	if (head === 'GIF87a' || head === 'GIF89a') return 'gif';
	return null;
}

/** Why an uploaded image was refused, for the caller to word. */
export class ImageRefused extends Error {
	constructor(readonly reason: 'not-an-image' | 'too-many-pixels') {
		super(reason);
	}
}

export type JpegSize = { edge: number; fit: 'cover' | 'inside' };

/**
 * Reads an uploaded PNG, JPEG or GIF under a pixel cap and re-encodes each size as JPEG, turned
 * upright: whatever the upload carried besides pixels (EXIF with GPS, comments, a script in a
 * polyglot) does not survive. Throws ImageRefused.
 */
export async function reencodeImage<K extends string>(
	bytes: Uint8Array,
	maxPixels: number,
	sizes: Record<K, JpegSize>,
): Promise<{ width: number; height: number; jpegs: Record<K, Buffer> }> {
	const kind = detectImageType(bytes);
	if (!kind) throw new ImageRefused('not-an-image');
	const options = { limitInputPixels: maxPixels, failOn: 'error' as const, animated: false };
	try {
		const metadata = await sharp(bytes, options).metadata();
		if (metadata.format !== kind) throw new ImageRefused('not-an-image');
		if ((metadata.width ?? 0) * (metadata.height ?? 0) > maxPixels) throw new ImageRefused('too-many-pixels');
		const jpegs = {} as Record<K, Buffer>;
		for (const [name, size] of Object.entries(sizes) as [K, JpegSize][]) {
			jpegs[name] = await sharp(bytes, options)
				.rotate()
				.resize(size.edge, size.edge, { fit: size.fit, withoutEnlargement: size.fit === 'inside' })
				.flatten({ background: '#ffffff' })
				.jpeg({ quality: 82 })
				.toBuffer();
		}
		// Width and height as shown: a photo taken sideways says so only in its EXIF orientation.
		const sideways = (metadata.orientation ?? 1) >= 5;
		const width = (sideways ? metadata.height : metadata.width) ?? 0;
		const height = (sideways ? metadata.width : metadata.height) ?? 0;
		return { width, height, jpegs };
	} catch (error) {
		if (error instanceof ImageRefused) throw error;
		if (/pixel limit/i.test(String((error as Error).message ?? '')))
			throw new ImageRefused('too-many-pixels');
		throw new ImageRefused('not-an-image');
	}
}
