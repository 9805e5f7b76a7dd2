import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Encoder, type Mesg, Profile } from '@garmin/fitsdk';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { calculateFitCrc, countCompiledDecoders } from '~/lib/workout-files/fit';
import { readWorkoutFileSync, WorkoutFileError, type WorkoutFileErrorCode } from '~/lib/workout-files/index';
import { encode, gpxDoc, gzip, loadFixture } from './fixtures';

function refusal(bytes: Uint8Array, limits = {}): WorkoutFileError {
	try {
		readWorkoutFileSync(bytes, { limits });
	} catch (error) {
		expect(error).toBeInstanceOf(WorkoutFileError);
		const e = error as WorkoutFileError;
		expect(e.message.length).toBeGreaterThan(10);
		expect([400, 413, 415]).toContain(e.status);
		return e;
	}
	throw new Error('expected the file to be refused');
}

function expectRefused(bytes: Uint8Array, code: WorkoutFileErrorCode, limits = {}): WorkoutFileError {
	const e = refusal(bytes, limits);
	expect(e.code).toBe(code);
	return e;
}

const track = (points: string) => gpxDoc(`<trk><trkseg>${points}</trkseg></trk>`);

describe('XML attacks', () => {
	it('refuses a DOCTYPE with an external entity and never fetches it', async () => {
		let hits = 0;
		const server = createServer((_req, res) => {
			hits++;
			res.end('<!ENTITY x "pwned">');
		});
		await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
		const { port } = server.address() as AddressInfo;
		try {
			const files = [
				`<?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY x SYSTEM "file:///etc/passwd">]><gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="1"><name>&x;</name></trkpt></trkseg></trk></gpx>`,
				`<?xml version="1.0"?><!DOCTYPE gpx SYSTEM "http://127.0.0.1:${port}/evil.dtd"><gpx xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg><trkpt lat="1" lon="1"/></trkseg></trk></gpx>`,
				`<?xml version="1.0"?><!DOCTYPE TrainingCenterDatabase [<!ENTITY % ext SYSTEM "http://127.0.0.1:${port}/x">%ext;]><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"/>`,
				`<!doctype gpx><gpx/>`,
			];
			for (const doc of files) {
				const e = expectRefused(encode(doc), 'doctype_not_allowed');
				expect(e.message).toMatch(/DOCTYPE/);
			}
			await new Promise((r) => setTimeout(r, 50));
			expect(hits).toBe(0);
		} finally {
			server.close();
		}
	});

	it('refuses billion laughs and mass entity references fast', () => {
		const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">${Array.from({ length: 9 }, (_, i) => `<!ENTITY lol${i + 1} "${`&lol${i === 0 ? '' : i};`.repeat(10)}">`).join('')}]><gpx><trk><trkseg><trkpt lat="1" lon="1"><name>&lol9;</name></trkpt></trkseg></trk></gpx>`;
		const manyRefs = track(`<trkpt lat="1" lon="1"><name>${'&x;'.repeat(100_000)}</name></trkpt>`);
		const numeric = track(`<trkpt lat="1" lon="1"><name>${'&#65;'.repeat(1_000_000)}</name></trkpt>`);
		// Hang guards, generous enough for a busy machine; speed itself is measured by the benchmark.
		const timed = (fn: () => void) => {
			const started = performance.now();
			fn();
			return performance.now() - started;
		};
		const [laughsBytes, refsBytes, numericBytes] = [laughs, manyRefs, numeric].map(encode);
		expect(timed(() => expectRefused(laughsBytes, 'doctype_not_allowed'))).toBeLessThan(15_000);
		// An entity nobody declared cannot be expanded; it is refused like a declaration, even in a value we drop.
		expect(timed(() => expectRefused(refsBytes, 'doctype_not_allowed'))).toBeLessThan(15_000);
		// A million character references are legal XML, but no workout file needs them: refused before any is decoded.
		expect(timed(() => expectRefused(numericBytes, 'too_many_references'))).toBeLessThan(15_000);
		// A name written wholly in references, as some exporters write non-Latin scripts, reads as its text.
		const cyrillic = track(`<trkpt lat="1" lon="1"></trkpt>`).replace(
			'<trk>',
			'<trk><name>&#1055;&#1088;&#1086;&#1073;&#1077;&#1078;&#1082;&#1072;</name>',
		);
		expect(readWorkoutFileSync(encode(cyrillic)).name).toBe('Пробежка');
	});

	it('names the broken part of malformed or truncated XML', () => {
		const full = track('<trkpt lat="1" lon="1"><time>2024-01-01T00:00:00Z</time></trkpt>');
		for (const cut of [full.length - 10, full.length / 2, 60]) {
			expect(['truncated', 'malformed_xml']).toContain(refusal(encode(full.slice(0, Math.floor(cut)))).code);
		}
		expectRefused(encode(full.slice(0, full.length - 3)), 'truncated');
		expectRefused(encode(track('<trkpt lat="1" lon="1"></trkseg>')), 'malformed_xml');
		expectRefused(encode(`${full}<gpx/>`), 'malformed_xml');
		expectRefused(encode(`<gpx>${'<a>'.repeat(100_000)}`), 'truncated');
	});

	it('refuses a wrong root element or namespace', () => {
		expectRefused(
			encode('<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>'),
			'wrong_root',
		);
		expectRefused(
			encode(
				'<TrainingCenterDatabase xmlns="http://example.com/evil"><Activities/></TrainingCenterDatabase>',
			),
			'wrong_root',
		);
		expectRefused(encode('<gpx xmlns="http://example.com/not-gpx"><trk/></gpx>'), 'wrong_root');
	});
});

describe('values that cannot be true', () => {
	it('refuses latitudes outside ±90 and longitudes outside ±180', () => {
		const e = expectRefused(
			encode(track('<trkpt lat="1" lon="1"/><trkpt lat="91" lon="1"/>')),
			'bad_latitude',
		);
		expect(e.message).toMatch(/Point 2 .*latitude 91/);
		expectRefused(encode(track('<trkpt lat="-90.5" lon="1"/>')), 'bad_latitude');
		expectRefused(encode(track('<trkpt lat="1" lon="181"/>')), 'bad_longitude');
		expectRefused(encode(track('<trkpt lat="abc" lon="1"/>')), 'bad_latitude');
		expectRefused(encode(track('<trkpt lon="1"/>')), 'bad_latitude');
	});

	it('refuses a FIT record with latitude 91°', () => {
		const e = new Encoder();
		e.onMesg(Profile.MesgNum.FILE_ID, {
			type: 'activity',
			manufacturer: 'development',
			timeCreated: new Date(0),
		} as Mesg);
		e.onMesg(Profile.MesgNum.RECORD, {
			timestamp: new Date(1_700_000_000_000),
			positionLat: Math.round((91 * 2 ** 31) / 180),
			positionLong: 0,
		} as Mesg);
		expectRefused(e.close(), 'bad_latitude');
	});

	it('refuses times going backwards, but drops a device’s one-second glitch', () => {
		const at = (s: number) => `<time>${new Date(Date.UTC(2024, 0, 1) + s * 1000).toISOString()}</time>`;
		const e = expectRefused(
			encode(track(`<trkpt lat="1" lon="1">${at(3600)}</trkpt><trkpt lat="1" lon="1.001">${at(0)}</trkpt>`)),
			'time_backwards',
		);
		expect(e.message).toMatch(/Point 2/);
		const glitch = readWorkoutFileSync(
			encode(
				track(
					`<trkpt lat="1" lon="1">${at(10)}</trkpt><trkpt lat="1" lon="1.001">${at(9)}</trkpt><trkpt lat="1" lon="1.002">${at(11)}</trkpt>`,
				),
			),
		);
		expect(glitch.points).toHaveLength(2);
		expect(glitch.warnings.join(' ')).toMatch(/out of time order/);
		expectRefused(encode(track('<trkpt lat="1" lon="1"><time>yesterday</time></trkpt>')), 'bad_time');
	});

	it('refuses a file without track points', () => {
		const e = expectRefused(encode(gpxDoc('<trk><trkseg></trkseg></trk>')), 'no_track_points');
		expect(e.message).toBe('This file has no track points');
	});
});

describe('size, point and decompression caps', () => {
	it('refuses input over the byte cap before reading it', () => {
		expectRefused(new Uint8Array(2048), 'too_large', { maxBytes: 1024 });
	});

	it('stops a GPX with 2 million points at the point cap', () => {
		const started = performance.now();
		const doc = track('<trkpt lat="1" lon="1"/>'.repeat(2_000_000));
		const e = expectRefused(encode(doc), 'too_many_points');
		expect(e.details).toEqual({ maxPoints: 500_000 });
		expectRefused(encode(track('<trkpt lat="1" lon="1"/>'.repeat(11))), 'too_many_points', { maxPoints: 10 });
		expect(performance.now() - started).toBeLessThan(60_000);
	});

	it('stops a gzip bomb while inflating', () => {
		const bomb = gzip(new Uint8Array(32 * 1024 * 1024));
		expect(bomb.length).toBeLessThan(100_000);
		const started = performance.now();
		const e = expectRefused(bomb, 'too_large', { maxDecompressedBytes: 2 * 1024 * 1024 });
		expect(e.details).toMatchObject({ maxDecompressedBytes: 2 * 1024 * 1024 });
		// Stopping at 2 MB must be much cheaper than inflating all 32 MB.
		expect(performance.now() - started).toBeLessThan(15_000);
	});

	it('stops a zip bomb whose headers lie about the size', () => {
		const zip = zipSync({ 'ride.gpx': new Uint8Array(32 * 1024 * 1024) }, { level: 9 });
		// Claim 100 bytes uncompressed in the local header (offset 22) and the central directory.
		const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
		view.setUint32(22, 100, true);
		const central = zip.findIndex((_, i) => view.getUint32(i, true) === 0x02014b50 && i > 30);
		view.setUint32(central + 24, 100, true);
		expectRefused(zip, 'too_large', { maxDecompressedBytes: 2 * 1024 * 1024 });
	});

	it('refuses a zip with 10,000 entries', () => {
		const files: Record<string, Uint8Array> = {};
		for (let i = 0; i < 10_000; i++) files[`f${i}.gpx`] = new Uint8Array([60]);
		expectRefused(zipSync(files, { level: 0 }), 'too_many_entries');
	});

	it('reads a workout from a zip whatever its entry is called, past macOS metadata', () => {
		const gpx = loadFixture('gpx/track-with-empty-segment.gpx');
		const zip = zipSync({ '__MACOSX/._x': new Uint8Array([1, 2]), 'Morning Run (1).dat': gpx });
		const w = readWorkoutFileSync(zip);
		expect(w).toMatchObject({ format: 'gpx', container: 'zip' });
		expect(w.points).toHaveLength(9);
	});

	it('refuses a zip naming a file outside itself, as the zip import does', () => {
		const gpx = loadFixture('gpx/track-with-empty-segment.gpx');
		for (const name of ['../../evil.gpx', '..\\..\\evil.gpx', '/abs/evil.gpx', 'C:/evil.gpx'])
			expectRefused(zipSync({ [name]: gpx }), 'unsafe_name');
		expectRefused(zipSync({ 'good.gpx': gpx, '../late.gpx': gpx }), 'unsafe_name');
	});

	it('refuses truncated gzip and zip containers', () => {
		const gz = gzip(loadFixture('gpx/route.gpx'));
		expectRefused(gz.subarray(0, gz.length - 20), 'truncated');
		const zip = zipSync({ 'a.gpx': loadFixture('gpx/route.gpx') });
		expectRefused(zip.subarray(0, 200), 'truncated');
	});
});

describe('FIT damage', () => {
	const good = loadFixture('fit/garmin-fenix-5-walk.fit');

	it('refuses a bad file CRC', () => {
		const bad = good.slice();
		bad[200] ^= 0xff;
		const e = expectRefused(bad, 'fit_checksum');
		expect(e.message).toBe('This FIT file is damaged (checksum)');
	});

	it('refuses a bad header CRC', () => {
		const bad = good.slice();
		expect(bad[0]).toBe(14);
		bad[12] ^= 0x01;
		expectRefused(bad, 'fit_checksum');
	});

	it('refuses a FIT file cut off inside its header or before its first record', () => {
		expectRefused(good.subarray(0, 13), 'truncated');
		expectRefused(good.subarray(0, good[0]), 'truncated');
		expectRefused(good.subarray(0, good[0] + 20), 'truncated');
	});

	it('keeps the points of a FIT recording cut off mid-write, and says so', () => {
		const whole = readWorkoutFileSync(good);
		const cut = readWorkoutFileSync(good.subarray(0, Math.floor(good.length / 2)));
		expect(cut.points.length).toBeGreaterThan(0);
		expect(cut.points.length).toBeLessThan(whole.points.length);
		expect(cut.points).toEqual(whole.points.slice(0, cut.points.length));
		expect(cut.warnings.join(' ')).toMatch(
			/incomplete: the app that recorded it stopped before finishing it/,
		);
		expect(whole.warnings.join(' ')).not.toMatch(/incomplete/);
	});

	it('reads the Strava app’s crashed recording up to where it breaks, without its garbage clock', () => {
		// The app stopped mid-write: the header declares 3 bytes more than the file holds, and a record
		// after 14:18:24 refers to a layout never defined. Its last readable record says 2085.
		const strava = readWorkoutFileSync(loadFixture('fit/strava-android-app-201.10-b1218918.fit'));
		const positioned = strava.points.filter((p) => p.lat !== undefined);
		expect(positioned).toHaveLength(236);
		expect(new Date(strava.startTime as number).toISOString()).toBe('2021-09-27T14:13:10.000Z');
		expect(new Date(strava.points[strava.points.length - 1].time as number).toISOString()).toBe(
			'2021-09-27T14:18:24.000Z',
		);
		expect(strava.warnings).toEqual([
			'This FIT file is incomplete: the app that recorded it stopped before finishing it. The 472 points that could be read up to 14:18:24 UTC were kept. Its own summary speaks of 59 min and 11.27 km. Copy the file from the device again if it holds more.',
		]);
	});

	it('refuses a broken .FIT signature as not a workout file', () => {
		const bad = good.slice();
		bad[9] = 0x58;
		expectRefused(bad, 'unsupported_format');
	});

	it('reads a file with 20,000 distinct record layouts without compiling a decoder for each', () => {
		const parts: number[] = [];
		const count = 20_000;
		for (let i = 0; i < count; i++) {
			// definition: timestamp, then a padding field whose number and size make every layout distinct
			const pad = 1 + Math.floor(i / 100);
			parts.push(0x40, 0, 0, 20, 0, 3, 253, 4, 0x86, 100 + (i % 100), pad, 0x0d, 3, 1, 0x02);
			parts.push(0x00);
			const ts = 1_000_000 + i;
			parts.push(ts & 0xff, (ts >> 8) & 0xff, (ts >> 16) & 0xff, ts >>> 24, ...new Array(pad).fill(0), 120);
		}
		const data = Uint8Array.from(parts);
		const file = new Uint8Array(14 + data.length + 2);
		const view = new DataView(file.buffer);
		file.set([14, 0x20, 0x34, 0x08], 0);
		view.setUint32(4, data.length, true);
		file.set([0x2e, 0x46, 0x49, 0x54], 8);
		view.setUint16(12, calculateFitCrc(file, 0, 12), true);
		file.set(data, 14);
		view.setUint16(14 + data.length, calculateFitCrc(file, 0, 14 + data.length), true);
		const w = readWorkoutFileSync(file);
		expect(w.points).toHaveLength(count);
		expect(w.points[count - 1]).toEqual({ time: (1_000_000 + count - 1 + 631065600) * 1000, heartRate: 120 });
		// Only a handful were compiled; the rest were interpreted, and the cache stays capped.
		expect(countCompiledDecoders()).toBeLessThanOrEqual(256);
	});

	it('refuses a data message with no definition even when the CRC is right', () => {
		const header = good.subarray(0, 14);
		const data = new Uint8Array([0x05, 1, 2, 3]);
		const file = new Uint8Array(14 + data.length + 2);
		file.set(header);
		new DataView(file.buffer).setUint32(4, data.length, true);
		new DataView(file.buffer).setUint16(12, calculateFitCrc(file, 0, 12), true);
		file.set(data, 14);
		new DataView(file.buffer).setUint16(14 + data.length, calculateFitCrc(file, 0, 14 + data.length), true);
		expectRefused(file, 'fit_corrupt');
	});
});

describe('not a workout at all', () => {
	it('refuses empty files, images and text, whatever the name says', () => {
		expectRefused(new Uint8Array(0), 'unsupported_format');
		expectRefused(
			new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
			'unsupported_format',
		);
		expectRefused(encode('lat,lon\n1,2\n'), 'unsupported_format');
	});
});
