/**
 * Workout-files benchmark: prints figures, never passes or fails.
 *   npm run bench:workout-files
 * Goals (issue 5): FIT ≥ 1,000,000 records/s and ≥ 5× fit-file-parser, GPX ≥ 50 MB/s, a 12-hour 1 Hz
 * file through parse + metrics + best efforts + simplify ≤ 300 ms, and a 400,000-record file to show
 * that nothing grows faster than the number of points.
 */
import { Decoder, Stream } from '@garmin/fitsdk';
import FitParser from 'fit-file-parser';
import { readFit } from '../../../src/lib/workout-files/fit';
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
			lat: Math.round(lat * 1e7) / 1e7,
			lng: Math.round(lng * 1e7) / 1e7,
			elevation: Math.round((300 + Math.sin(i / 900) * 120 + random()) * 5) / 5,
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

function median(values: number[]): number {
	const s = [...values].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)];
}

function time(runs: number, fn: () => void): number {
	fn();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const t0 = performance.now();
		fn();
		times.push(performance.now() - t0);
	}
	return median(times);
}

async function timeAsync(runs: number, fn: () => Promise<void>): Promise<number> {
	await fn();
	const times: number[] = [];
	for (let i = 0; i < runs; i++) {
		const t0 = performance.now();
		await fn();
		times.push(performance.now() - t0);
	}
	return median(times);
}

const fmt = (n: number, digits = 0) =>
	n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });

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

async function benchFile(label: string, seconds: number, runs: number, withParsers: boolean) {
	const t0 = performance.now();
	const workout = generateRide(seconds);
	const fit = writeFit(workout);
	const gpx = new TextEncoder().encode(writeGpx(workout));
	console.log(
		`\n${label}: ${fmt(seconds)} records; FIT ${fmt(fit.length / 1e6, 2)} MB, GPX ${fmt(gpx.length / 1e6, 2)} MB (generated in ${fmt((performance.now() - t0) / 1000, 1)} s)`,
	);

	const fastMs = time(runs, () => {
		readFit(fit, 'none', limits);
	});
	const fastRate = seconds / (fastMs / 1000);
	console.log(
		`  FIT, our decoder (CRC + records + metadata):   ${fmt(fastMs, 1)} ms  → ${fmt(fastRate)} records/s   goal ≥ 1,000,000`,
	);

	if (withParsers) {
		const sdkMs = time(Math.max(1, Math.floor(runs / 3)), () => {
			const d = new Decoder(Stream.fromByteArray(fit));
			d.checkIntegrity();
			d.read();
		});
		console.log(
			`  FIT, Garmin SDK Decoder (checkIntegrity + read): ${fmt(sdkMs, 1)} ms  → ${fmt(seconds / (sdkMs / 1000))} records/s`,
		);
		const buffer = fit.buffer.slice(fit.byteOffset, fit.byteOffset + fit.byteLength) as ArrayBuffer;
		const ffpMs = await timeAsync(Math.max(1, Math.floor(runs / 3)), async () => {
			await new FitParser({ force: true, mode: 'list' }).parseAsync(buffer);
		});
		console.log(
			`  FIT, fit-file-parser 6.1.2 (parseAsync, list):  ${fmt(ffpMs, 1)} ms  → ${fmt(seconds / (ffpMs / 1000))} records/s`,
		);
		console.log(
			`  ratio ours / fit-file-parser: ${fmt(ffpMs / fastMs, 1)}×   goal ≥ 5×;  ours / SDK: ${fmt(sdkMs / fastMs, 1)}×`,
		);
	}

	const gpxMs = time(runs, () => {
		readWorkoutFileSync(gpx, { limits });
	});
	console.log(
		`  GPX read: ${fmt(gpxMs, 1)} ms → ${fmt(gpx.length / 1e6 / (gpxMs / 1000), 1)} MB/s   goal ≥ 50 MB/s`,
	);

	let kept = 0;
	const pipeFit = time(runs, () => {
		kept = pipeline(fit).kept;
	});
	const pipeGpx = time(runs, () => {
		pipeline(gpx);
	});
	const w = readWorkoutFileSync(fit, { limits });
	const metricsMs = time(runs, () => {
		computeMetrics(w);
	});
	console.log(
		`  pipeline (parse + metrics incl. splits and best efforts + simplify): FIT ${fmt(pipeFit, 1)} ms, GPX ${fmt(pipeGpx, 1)} ms   goal ≤ 300 ms for 12 h`,
	);
	console.log(
		`    of which metrics alone: ${fmt(metricsMs, 1)} ms; simplify kept ${fmt(kept)} of ${fmt(seconds)} points`,
	);
	return { fastMs, gpxMs, pipeFit, pipeGpx, gpxBytes: gpx.length };
}

async function main() {
	console.log(`workout-files benchmark — node ${process.version}, ${process.arch}`);
	const twelve = await benchFile('12-hour 1 Hz ride', 12 * 3600, 15, true);
	const big = await benchFile('400,000-record ride', 400_000, 5, true);
	const n = 400_000 / (12 * 3600);
	console.log(`\nScaling from ${fmt(12 * 3600)} to ${fmt(400_000)} records (×${fmt(n, 2)}): time grows ×…`);
	console.log(
		`  FIT decode ×${fmt(big.fastMs / twelve.fastMs, 2)}, GPX read ×${fmt(big.gpxMs / twelve.gpxMs, 2)}, pipeline FIT ×${fmt(big.pipeFit / twelve.pipeFit, 2)}, pipeline GPX ×${fmt(big.pipeGpx / twelve.pipeGpx, 2)}`,
	);
	console.log('  (linear would be about ×9.26; quadratic about ×86)');
}

main().catch((error) => {
	console.error(error);
	process.exit(1);
});
