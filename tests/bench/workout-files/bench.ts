/**
 * Workout-files benchmark: prints figures, never passes or fails.
 *   npm run bench:workout-files
 * Goals (issue 5): FIT ≥ 1,000,000 records/s and ≥ 5× fit-file-parser, GPX ≥ 50 MB/s, a 12-hour 1 Hz
 * file through parse + metrics + best efforts + simplify ≤ 300 ms, and a 400,000-record file to show
 * that nothing grows faster than the number of points.
 */
import { cpus, loadavg } from 'node:os';
import { Decoder, Stream } from '@garmin/fitsdk';
import FitParser from 'fit-file-parser';
import { calculateFitCrc, readFit } from '../../../src/lib/workout-files/fit';
import {
	computeMetrics,
	type NormalisedWorkout,
	readWorkoutFileSync,
	simplifyOffroadSegment,
	type TrackPoint,
	writeFit,
	writeGpx,
} from '../../../src/lib/workout-files/index';

const limits = { maxPoints: 1_000_000, maxBytes: 512 * 1024 * 1024, maxDecompressedBytes: 512 * 1024 * 1024 };

/** A seeded ride: 1 Hz, wandering heading, rolling hills, heart rate, cadence, power, distance and speed. */
function generateRide(seconds: number): NormalisedWorkout {
	let seed = 12345;
	const random = () => {
		seed = (seed * 1103515245 + 12345) % 2147483648;
		return seed / 2147483648;
	};
	const start = Date.UTC(2025, 5, 1, 5, 0, 0);
	const points: TrackPoint[] = [];
	let lat = 45.5;
	let lng = 13.6;
	let heading = 0;
	let distance = 0;
	for (let i = 0; i < seconds; i++) {
		const speed = Math.max(0, 8 + Math.sin(i / 600) * 3 + (random() - 0.5));
		heading += (random() - 0.5) * 0.2;
		lat += (Math.cos(heading) * speed) / 111_320;
		lng += (Math.sin(heading) * speed) / (111_320 * Math.cos((lat * Math.PI) / 180));
		if (lng > 180) lng -= 360;
		if (lat > 85 || lat < -85) heading += Math.PI;
		distance += speed;
		points.push({
			time: start + i * 1000,
			// Values on FIT's own grid (semicircles, 1/5 m), computed as the reader computes them, so the
			// generated FIT reads back identical.
			lat: Math.round((lat * 2 ** 31) / 180) * (180 / 2 ** 31),
			lng: Math.round((lng * 2 ** 31) / 180) * (180 / 2 ** 31),
			elevation: Math.round((300 + Math.sin(i / 900) * 120 + random() + 500) * 5) / 5 - 500,
			distance: Math.round(distance * 100) / 100,
			speed: Math.round(speed * 1000) / 1000,
			heartRate: 120 + Math.round(random() * 40),
			cadence: 80 + Math.round(random() * 15),
			power: 150 + Math.round(random() * 150),
			temperature: 21,
		});
	}
	return {
		format: 'fit',
		container: 'none',
		activityType: 11,
		sport: 'cycling',
		startTime: start,
		segmentStarts: [0],
		points,
		laps: [],
		waypoints: [],
		deviceTotals: {},
		warnings: [],
	};
}

/**
 * Encodes the generated ride as FIT directly (file id, one record definition, records, session):
 * Garmin's encoder needs ~150 µs a record, which would make the 400,000-record file take a minute.
 * The bench checks that our reader gives back exactly these points before timing anything.
 */
function encodeFitQuickly(w: NormalisedWorkout): Uint8Array {
	const n = w.points.length;
	const recordSize = 1 + 4 + 4 + 4 + 4 + 4 + 4 + 1 + 1 + 2 + 1;
	const body = new Uint8Array(64 + n * recordSize + 64);
	const dv = new DataView(body.buffer);
	let at = 0;
	const fitTime = (ms: number) => ms / 1000 - 631065600;
	// file_id: definition (local 0) + data
	body.set([0x40, 0, 0, 0, 0, 3, 0, 1, 0x00, 1, 2, 0x84, 4, 4, 0x86], at);
	at += 15;
	body[at++] = 0x00;
	body[at++] = 4; // activity
	dv.setUint16(at, 255, true); // development
	at += 2;
	dv.setUint32(at, fitTime(w.points[0].time as number), true);
	at += 4;
	// record definition (local 1): timestamp, lat, long, enhanced_altitude, distance, enhanced_speed, hr, cadence, power, temperature
	const fields: Array<[number, number, number]> = [
		[253, 4, 0x86],
		[0, 4, 0x85],
		[1, 4, 0x85],
		[78, 4, 0x86],
		[5, 4, 0x86],
		[73, 4, 0x86],
		[3, 1, 0x02],
		[4, 1, 0x02],
		[7, 2, 0x84],
		[13, 1, 0x01],
	];
	body.set([0x41, 0, 0, 20, 0, fields.length], at);
	at += 6;
	for (const f of fields) {
		body.set(f, at);
		at += 3;
	}
	for (const p of w.points) {
		body[at++] = 0x01;
		dv.setUint32(at, fitTime(p.time as number), true);
		dv.setInt32(at + 4, Math.round(((p.lat as number) * 2 ** 31) / 180), true);
		dv.setInt32(at + 8, Math.round(((p.lng as number) * 2 ** 31) / 180), true);
		dv.setUint32(at + 12, Math.round(((p.elevation as number) + 500) * 5), true);
		dv.setUint32(at + 16, Math.round((p.distance as number) * 100), true);
		dv.setUint32(at + 20, Math.round((p.speed as number) * 1000), true);
		body[at + 24] = p.heartRate as number;
		body[at + 25] = p.cadence as number;
		dv.setUint16(at + 26, p.power as number, true);
		dv.setInt8(at + 28, p.temperature as number);
		at += recordSize - 1;
	}
	// session (local 2): sport cycling, total distance
	body.set([0x42, 0, 0, 18, 0, 2, 5, 1, 0x00, 9, 4, 0x86], at);
	at += 12;
	body[at++] = 0x02;
	body[at++] = 2;
	dv.setUint32(at, Math.round((w.points[n - 1].distance as number) * 100), true);
	at += 4;
	const file = new Uint8Array(14 + at + 2);
	const fv = new DataView(file.buffer);
	file.set([14, 0x20], 0);
	fv.setUint16(2, 2100, true);
	fv.setUint32(4, at, true);
	file.set([0x2e, 0x46, 0x49, 0x54], 8);
	fv.setUint16(12, calculateFitCrc(file, 0, 12), true);
	file.set(body.subarray(0, at), 14);
	fv.setUint16(14 + at, calculateFitCrc(file, 0, 14 + at), true);
	return file;
}

interface Timing {
	/** Median wall-clock milliseconds per run. */
	wall: number;
	/** Median CPU milliseconds (user + system) of this process per run: steadier on a shared machine. */
	cpu: number;
	/** Fastest run's CPU milliseconds: the least disturbed by other processes, used for scaling. */
	minCpu: number;
}

function median(values: number[]): number {
	const s = [...values].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}

async function measure(runs: number, fn: () => unknown, warmUp = true): Promise<Timing> {
	if (warmUp) await fn();
	const walls: number[] = [];
	const cpus: number[] = [];
	for (let i = 0; i < runs; i++) {
		const c0 = process.cpuUsage();
		const t0 = performance.now();
		await fn();
		walls.push(performance.now() - t0);
		const c = process.cpuUsage(c0);
		cpus.push((c.user + c.system) / 1000);
	}
	return { wall: median(walls), cpu: median(cpus), minCpu: Math.min(...cpus) };
}

const fmt = (n: number, digits = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const ms = (t: Timing) => `${fmt(t.wall, 1)} ms wall / ${fmt(t.cpu, 1)} ms cpu`;
const rate = (count: number, t: Timing, unit: string, digits = 0) =>
	`${fmt(count / (t.wall / 1000), digits)} ${unit} wall, ${fmt(count / (t.cpu / 1000), digits)} cpu`;

function pipeline(bytes: Uint8Array): { points: number; kept: number } {
	const w = readWorkoutFileSync(bytes, { limits });
	const m = computeMetrics(w);
	const positioned = w.points.filter(
		(p): p is TrackPoint & { lat: number; lng: number } => p.lat !== undefined && p.lng !== undefined,
	);
	const kept = simplifyOffroadSegment(positioned).length;
	if (m.bestEfforts.length === 0) throw new Error('no best efforts: the generated file is wrong');
	return { points: w.points.length, kept };
}

/** Builds the files in their own scope so the generated points are garbage before anything is timed. */
function generateFiles(seconds: number): { fit: Uint8Array; gpx: Uint8Array } {
	const workout = generateRide(seconds);
	const fit = encodeFitQuickly(workout);
	const gpx = new TextEncoder().encode(writeGpx(workout));
	const check = readFit(fit, 'none', limits);
	if (JSON.stringify(check.points) !== JSON.stringify(workout.points))
		throw new Error('FIT round trip differs');
	return { fit, gpx };
}

async function benchFile(label: string, seconds: number, runs: number, slowRuns: number, warmUp: boolean) {
	const t0 = performance.now();
	const { fit, gpx } = generateFiles(seconds);
	console.log(
		`\n${label}: ${fmt(seconds)} records; FIT ${fmt(fit.length / 1e6, 2)} MB, GPX ${fmt(gpx.length / 1e6, 2)} MB (generated in ${fmt((performance.now() - t0) / 1000, 1)} s)`,
	);

	const fast = await measure(Math.max(runs, 5), () => readFit(fit, 'none', limits), warmUp);
	console.log(
		`  FIT, our decoder (CRC + records + metadata): ${ms(fast)} → ${rate(seconds, fast, 'records/s')}   goal ≥ 1,000,000/s`,
	);
	const sdk = await measure(
		slowRuns,
		() => {
			const d = new Decoder(Stream.fromByteArray(fit));
			d.checkIntegrity();
			d.read();
		},
		false,
	);
	console.log(
		`  FIT, Garmin SDK Decoder (checkIntegrity + read): ${ms(sdk)} → ${rate(seconds, sdk, 'records/s')}`,
	);
	const buffer = fit.buffer.slice(fit.byteOffset, fit.byteOffset + fit.byteLength) as ArrayBuffer;
	const ffp = await measure(
		slowRuns,
		() => new FitParser({ force: true, mode: 'list' }).parseAsync(buffer),
		false,
	);
	console.log(
		`  FIT, fit-file-parser 6.1.2 (parseAsync, list): ${ms(ffp)} → ${rate(seconds, ffp, 'records/s')}`,
	);
	console.log(
		`  ours vs fit-file-parser: ×${fmt(ffp.wall / fast.wall, 1)} wall, ×${fmt(ffp.cpu / fast.cpu, 1)} cpu (goal ≥ ×5); vs SDK: ×${fmt(sdk.wall / fast.wall, 1)} wall, ×${fmt(sdk.cpu / fast.cpu, 1)} cpu`,
	);

	const gpxRead = await measure(runs, () => readWorkoutFileSync(gpx, { limits }), warmUp);
	console.log(`  GPX read: ${ms(gpxRead)} → ${rate(gpx.length / 1e6, gpxRead, 'MB/s', 1)}   goal ≥ 50 MB/s`);

	let kept = 0;
	const pipeFit = await measure(
		runs,
		() => {
			kept = pipeline(fit).kept;
		},
		warmUp,
	);
	const pipeGpx = await measure(runs, () => pipeline(gpx), warmUp);
	const w = readWorkoutFileSync(fit, { limits });
	const metrics = await measure(Math.max(runs, 5), () => computeMetrics(w), warmUp);
	console.log(
		`  pipeline (parse + metrics with splits and best efforts + simplify): FIT ${ms(pipeFit)}; GPX ${ms(pipeGpx)}`,
	);
	console.log(
		`    of which metrics alone ${ms(metrics)}; simplify kept ${fmt(kept)} of ${fmt(seconds)} points`,
	);
	return { fast, gpxRead, pipeFit, pipeGpx, metrics };
}

async function main() {
	console.log(
		`workout-files benchmark — node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}`,
	);
	const twelve = await benchFile('12-hour 1 Hz ride', 12 * 3600, 9, 3, true);
	console.log('  goal: 12-hour file through the pipeline ≤ 300 ms');
	const hour = generateRide(3600);
	const sdkWriter = await measure(1, () => writeFit(hour), false);
	console.log(`  writeFit (Garmin SDK Encoder), 1 hour = 3,600 records: ${ms(sdkWriter)}`);
	// The code is warm from the 12-hour runs; two runs each keep the whole bench near two minutes.
	const big = await benchFile('400,000-record ride', 400_000, 2, 1, false);
	const n = 400_000 / (12 * 3600);
	const perRecord = (t: Timing, count: number) => `${fmt((t.minCpu * 1000) / count, 2)} µs`;
	console.log(
		`\nScaling: ×${fmt(n, 2)} more records (linear ≈ ×9.3, quadratic ≈ ×86); fastest-run CPU time per record, 43,200 → 400,000:`,
	);
	for (const [name, key] of [
		['FIT decode', 'fast'],
		['GPX read', 'gpxRead'],
		['metrics', 'metrics'],
		['pipeline FIT', 'pipeFit'],
		['pipeline GPX', 'pipeGpx'],
	] as const) {
		console.log(
			`  ${name.padEnd(13)} ${perRecord(twelve[key], 12 * 3600)} → ${perRecord(big[key], 400_000)}  (total ×${fmt(big[key].minCpu / twelve[key].minCpu, 1)})`,
		);
	}
	console.log(
		`  load average now ${loadavg()
			.map((l) => l.toFixed(1))
			.join(' ')}`,
	);
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
