import { zipSync } from 'fflate';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { calculateFitCrc, readFit } from '~/lib/workout-files/fit';
import { NormalisedWorkoutSchema, readWorkoutFileSync, WorkoutFileError } from '~/lib/workout-files/index';
import { computeMetrics } from '~/lib/workout-files/metrics';
import { encode, gzip, loadFixture } from './fixtures';

/** mulberry32: a tiny seeded generator, so a failure replays exactly. */
function seeded(seed: number) {
	let a = seed >>> 0;
	return () => {
		a = (a + 0x6d2b79f5) >>> 0;
		let t = a;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

type Random = ReturnType<typeof seeded>;
const pick = (r: Random, n: number) => Math.floor(r() * n);

const interesting = [
	0x00, 0xff, 0x7f, 0x80, 0x3c, 0x3e, 0x26, 0x2f, 0x22, 0x30, 0x39, 0x2d, 0x2e, 0x40, 0x41,
];
const xmlSnippets = [
	'<',
	'>',
	'&',
	'&amp;',
	'&#0;',
	'&#x110000;',
	'<!DOCTYPE x>',
	'<!--',
	']]>',
	'<![CDATA[',
	'</trkseg>',
	'<trkpt lat="91" lon="0">',
	'"',
	"'",
	'-1e309',
	'NaN',
	'<time>1900-01-01T00:00:00Z</time>',
	'\u0000',
	'\ufeff',
	'<gpx>',
];

function mutateBytes(r: Random, input: Uint8Array): Uint8Array {
	let out = input.slice();
	const rounds = 1 + pick(r, 4);
	for (let k = 0; k < rounds; k++) {
		const at = pick(r, Math.max(1, out.length));
		switch (pick(r, 6)) {
			case 0:
				out[at] ^= 1 << pick(r, 8);
				break;
			case 1:
				out[at] = interesting[pick(r, interesting.length)];
				break;
			case 2: {
				// delete a run
				const len = 1 + pick(r, 64);
				out = Uint8Array.from([...out.subarray(0, at), ...out.subarray(at + len)]);
				break;
			}
			case 3: {
				// duplicate a run somewhere else
				const len = 1 + pick(r, 256);
				const from = pick(r, Math.max(1, out.length - len));
				out = Uint8Array.from([
					...out.subarray(0, at),
					...out.subarray(from, from + len),
					...out.subarray(at),
				]);
				break;
			}
			case 4:
				out = out.subarray(0, at);
				break;
			default:
				for (let i = 0; i < 8 && at + i < out.length; i++) out[at + i] = pick(r, 256);
		}
	}
	return out;
}

function mutateXml(r: Random, doc: string): Uint8Array {
	let s = doc;
	const rounds = 1 + pick(r, 3);
	for (let k = 0; k < rounds; k++) {
		const at = pick(r, s.length);
		switch (pick(r, 4)) {
			case 0:
				s = s.slice(0, at) + xmlSnippets[pick(r, xmlSnippets.length)] + s.slice(at);
				break;
			case 1:
				s = s.slice(0, at) + s.slice(at + 1 + pick(r, 40));
				break;
			case 2:
				// change a digit: values, times and coordinates
				s = s.replace(/\d/g, (d, i) => (i === at || (i > at && r() < 0.001) ? String(pick(r, 10)) : d));
				break;
			default:
				s = s.slice(0, at);
		}
	}
	return encode(s);
}

/** Mutates a FIT file and then repairs both CRCs, so the decoder itself — not the checksum — meets the damage. */
function mutateFitPastCrc(r: Random, input: Uint8Array): Uint8Array {
	const out = input.slice();
	const headerSize = out[0];
	const dataEnd = out.length - 2;
	const flips = 1 + pick(r, 6);
	for (let k = 0; k < flips; k++) {
		const at = headerSize + pick(r, dataEnd - headerSize);
		out[at] = r() < 0.5 ? out[at] ^ (1 << pick(r, 8)) : interesting[pick(r, interesting.length)];
	}
	const view = new DataView(out.buffer);
	if (headerSize === 14) view.setUint16(12, calculateFitCrc(out, 0, 12), true);
	view.setUint16(dataEnd, calculateFitCrc(out, 0, dataEnd), true);
	return out;
}

const limits = { maxPoints: 20_000, maxDecompressedBytes: 4 * 1024 * 1024 };

function expectGraceful(bytes: Uint8Array, label: string): 'read' | string {
	const started = performance.now();
	try {
		const w = readWorkoutFileSync(bytes, { limits });
		const result = v.safeParse(NormalisedWorkoutSchema, w);
		if (!result.success) throw new Error(`${label}: outside the contract: ${result.issues[0].message}`);
		computeMetrics(w);
		return 'read';
	} catch (error) {
		if (!(error instanceof WorkoutFileError)) {
			throw new Error(`${label}: crashed with ${(error as Error)?.stack ?? error}`);
		}
		return error.code;
	} finally {
		expect(performance.now() - started, `${label} took too long`).toBeLessThan(20_000);
	}
}

describe('fuzz: mutated real files never crash or hang a reader', () => {
	const fit = [
		'fit/garmin-fenix-5-walk.fit',
		'fit/garmin-edge-820-bike.fit',
		'fit/compressed-speed-distance.fit',
		'fit/garmin-fenix-5-bike.fit',
	].map(loadFixture);
	const gpx = [
		'gpx/track-with-empty-segment.gpx',
		'gpx/gpx1.1_with_all_fields.gpx',
		'gpx/gpx1.0_with_all_fields.gpx',
		'gpx/route.gpx',
	].map((f) => new TextDecoder().decode(loadFixture(f)));
	const tcxFull = new TextDecoder().decode(loadFixture('tcx/sup_activity_2.tcx'));
	// The first 60 trackpoints, closed properly, keep each run quick.
	const cut =
		tcxFull.indexOf('</Trackpoint>', tcxFull.split('<Trackpoint>', 61).join('<Trackpoint>').length) + 13;
	const tcx = `${tcxFull.slice(0, cut)}</Track></Lap></Activity></Activities></TrainingCenterDatabase>`;

	it('accepts the unmutated seeds', () => {
		for (const f of fit) expect(expectGraceful(f, 'seed')).toBe('read');
		for (const g of gpx) expect(expectGraceful(encode(g), 'seed')).toBe('read');
		expect(expectGraceful(encode(tcx), 'seed')).toBe('read');
	});

	it('FIT: 1,500 byte mutations and 1,500 mutations behind repaired CRCs', () => {
		const r = seeded(20261122);
		const codes = new Map<string, number>();
		for (let i = 0; i < 1500; i++) {
			const seed = fit[i % fit.length];
			const a = expectGraceful(mutateBytes(r, seed), `fit bytes #${i}`);
			const mutated = mutateFitPastCrc(r, seed);
			const b = expectGraceful(mutated, `fit decoder #${i}`);
			// The fast decoder on its own (no SDK fallback) must fail just as gracefully.
			try {
				readFit(mutated, 'none', limits);
			} catch (error) {
				if (!(error instanceof WorkoutFileError))
					throw new Error(`fast decoder #${i}: ${(error as Error).stack}`);
			}
			codes.set(a, (codes.get(a) ?? 0) + 1);
			codes.set(b, (codes.get(b) ?? 0) + 1);
		}
		// The decoder really was reached: some mutated files still read, others fail inside it.
		expect(codes.get('read') ?? 0).toBeGreaterThan(100);
		expect(codes.get('fit_checksum') ?? 0).toBeGreaterThan(100);
	});

	it('GPX and TCX: 2,500 text and byte mutations', () => {
		const r = seeded(7);
		const codes = new Map<string, number>();
		for (let i = 0; i < 2500; i++) {
			const xml = i % 3 === 0 ? tcx : gpx[i % gpx.length];
			const bytes = i % 2 === 0 ? mutateXml(r, xml) : mutateBytes(r, encode(xml));
			const code = expectGraceful(bytes, `xml #${i}`);
			codes.set(code, (codes.get(code) ?? 0) + 1);
		}
		expect(codes.get('read') ?? 0).toBeGreaterThan(100);
		expect(codes.size).toBeGreaterThan(4);
	});

	it('gzip and zip containers: 700 mutations', () => {
		const r = seeded(99);
		const inner = [fit[0], encode(gpx[0]), encode(tcx)];
		for (let i = 0; i < 700; i++) {
			const body = inner[i % inner.length];
			const container = i % 2 === 0 ? gzip(body) : zipSync({ 'a.gpx': body });
			expectGraceful(mutateBytes(r, container), `container #${i}`);
		}
	});
});
