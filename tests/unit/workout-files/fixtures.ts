import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'fflate';

export const fixtureDir = fileURLToPath(new URL('../../fixtures/workouts/', import.meta.url));

export function loadFixture(path: string): Uint8Array {
	return new Uint8Array(readFileSync(fixtureDir + path));
}

export function listFixtures(folder: 'fit' | 'gpx' | 'tcx'): string[] {
	return readdirSync(fixtureDir + folder)
		.filter((f) => !f.endsWith('.csv'))
		.map((f) => `${folder}/${f}`);
}

export const encode = (text: string) => new TextEncoder().encode(text);

export function gpxDoc(body: string, head = ''): string {
	return `<?xml version="1.0" encoding="UTF-8"?>${head}
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1">${body}</gpx>`;
}

/** A straight track along the equator, one point a second at `speed` m/s, for metrics with known answers. */
export function equatorTrack(count: number, speed: number, extra = ''): string {
	const degPerM = 180 / (Math.PI * 6371000);
	const pts: string[] = [];
	for (let i = 0; i < count; i++) {
		const t = new Date(Date.UTC(2024, 0, 1, 6, 0, 0) + i * 1000).toISOString();
		pts.push(`<trkpt lat="0" lon="${(i * speed * degPerM).toFixed(9)}"><time>${t}</time>${extra}</trkpt>`);
	}
	return gpxDoc(`<trk><type>running</type><trkseg>${pts.join('')}</trkseg></trk>`);
}

export const gzip = (bytes: Uint8Array) => gzipSync(bytes);
