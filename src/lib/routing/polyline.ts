// Google encoded polylines; Valhalla uses precision 6.

// Characters are collected as codes and turned into a string in chunks: much cheaper than one string each.
function encodeValue(value: number, out: number[]): void {
	let v = value < 0 ? ~(value << 1) : value << 1;
	while (v >= 0x20) {
		out.push((0x20 | (v & 0x1f)) + 63);
		v >>>= 5;
	}
	out.push(v + 63);
}

/** Encodes [lat, lon] pairs. */
export function encodePolyline(points: [number, number][], precision = 6): string {
	const factor = 10 ** precision;
	const out: number[] = [];
	let lastLat = 0;
	let lastLon = 0;
	for (const [lat, lon] of points) {
		const ilat = Math.round(lat * factor);
		const ilon = Math.round(lon * factor);
		encodeValue(ilat - lastLat, out);
		encodeValue(ilon - lastLon, out);
		lastLat = ilat;
		lastLon = ilon;
	}
	let text = '';
	for (let i = 0; i < out.length; i += 4096) text += String.fromCharCode(...out.slice(i, i + 4096));
	return text;
}

/** Decodes to [lat, lon] pairs; throws on malformed input. */
export function decodePolyline(text: string, precision = 6): [number, number][] {
	const factor = 10 ** precision;
	const points: [number, number][] = [];
	let index = 0;
	let lat = 0;
	let lon = 0;
	const readValue = (): number => {
		let result = 0;
		let shift = 0;
		for (;;) {
			if (index >= text.length) throw new Error('Truncated polyline');
			const byte = text.charCodeAt(index++) - 63;
			if (byte < 0 || byte > 63) throw new Error('Invalid polyline character');
			result |= (byte & 0x1f) << shift;
			shift += 5;
			if (byte < 0x20) break;
			if (shift > 30) throw new Error('Polyline value too long');
		}
		return result & 1 ? ~(result >>> 1) : result >>> 1;
	};
	while (index < text.length) {
		lat += readValue();
		lon += readValue();
		points.push([lat / factor, lon / factor]);
	}
	return points;
}
