/**
 * The workout heatmap (GET /v7.1/workout_heatmap/) for a member with 2,000 workouts:
 *
 * 1. How well the stored preview (a hundred evenly spaced positions) follows the real recordings in
 *    tests/fixtures/workouts: how far each recorded position lies from the preview's line.
 * 2. The API's answer for every workout, for one activity group, and for one year, with two privacy
 *    zones to cut out (p50/p95 wall time, p50 processor time of the whole process, the embedded
 *    database's thread included), and its size as sent and gzipped.
 * 3. What the browser does with the answer before drawing: decoding every line (p50).
 *
 * PGlite always; PostgreSQL too when BENCH_DATABASE_URL names a database of its own (it is emptied first):
 *
 *   npm run bench:heatmap
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_heatmap npm run bench:heatmap
 *
 * Goal: the 2,000 workouts on the member's screen within 2 s on a mid-range phone. Figures only.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Db } from '../../../src/lib/core/server/deps';
import { privacyZones } from '../../../src/lib/db/tables';
import { decodePolyline } from '../../../src/lib/routing/polyline';
import { createStatsApi } from '../../../src/lib/stats/server/api';
import { readWorkoutFileSync } from '../../../src/lib/workout-files';
import { placeZone } from '../../../src/lib/workouts/privacy-zones';
import {
	decodeSeries,
	encodeSeries,
	previewSeriesOf,
	type SeriesSample,
} from '../../../src/lib/workouts/series';
import { workouts } from '../../../src/lib/workouts/server/tables';
import { addSignedInMember, createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import { onBenchDatabases } from '../databases';

const MEMBER_WORKOUTS = Number(process.env.BENCH_WORKOUTS ?? 2000);
const QUERY_RUNS = Number(process.env.BENCH_RUNS ?? 20);
/** Samples per synthetic recording: an hour at about 1 Hz. */
const RECORDING_SAMPLES = 3600;
const NOW = new Date('2026-11-25T14:00:00Z');
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures/workouts');

function percentile(samples: number[], q: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const summary = (samples: number[]) =>
	`p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms (n=${samples.length})`;

/** Metres from `point` to the segment a–b, on a local flat projection (tracks are city sized). */
function metresToSegment(point: [number, number], a: [number, number], b: [number, number]): number {
	const rad = Math.PI / 180;
	const k = Math.cos(point[0] * rad) * 6_371_000 * rad;
	const [px, py] = [(point[1] - a[1]) * k, (point[0] - a[0]) * 6_371_000 * rad];
	const [bx, by] = [(b[1] - a[1]) * k, (b[0] - a[0]) * 6_371_000 * rad];
	const length = bx * bx + by * by;
	const t = length === 0 ? 0 : Math.max(0, Math.min(1, (px * bx + py * by) / length));
	return Math.hypot(px - t * bx, py - t * by);
}

const metres = (a: [number, number], b: [number, number]) => metresToSegment(a, b, b);

/** How far the recording's positions lie from its preview line, for each fixture with a long enough track. */
function previewFidelity(): void {
	console.log('\npreview line against the whole recording (tests/fixtures/workouts)');
	const rows: string[] = [];
	const allP95: number[] = [];
	for (const folder of ['gpx', 'tcx', 'fit']) {
		for (const file of readdirSync(path.join(FIXTURES, folder))) {
			if (!/\.(gpx|tcx|fit)$/.test(file)) continue;
			let points: [number, number][];
			try {
				const workout = readWorkoutFileSync(new Uint8Array(readFileSync(path.join(FIXTURES, folder, file))));
				points = workout.points.flatMap((point) =>
					point.lat === undefined || point.lng === undefined
						? []
						: [[point.lat, point.lng] as [number, number]],
				);
			} catch {
				continue;
			}
			if (points.length < 300) continue;
			const samples: SeriesSample[] = points.map(([lat, lng], i) => ({ offsetMs: i * 1000, lat, lng }));
			const preview = decodeSeries(previewSeriesOf(encodeSeries(samples))).map(
				(sample) => [sample.lat, sample.lng] as [number, number],
			);
			// Each recorded position against the preview segment between the picked positions around it.
			const step = (points.length - 1) / (preview.length - 1);
			const gaps = points.map((point, i) => {
				const segment = Math.min(preview.length - 2, Math.floor(i / step));
				return metresToSegment(point, preview[segment], preview[segment + 1]);
			});
			let length = 0;
			for (let i = 1; i < preview.length; i++) length += metres(preview[i], preview[i - 1]);
			const p95 = percentile(gaps, 0.95);
			allP95.push(p95);
			rows.push(
				`  ${file.padEnd(48)} ${String(points.length).padStart(6)} positions, ${(length / 1000).toFixed(1).padStart(6)} km, preview every ${(length / (preview.length - 1)).toFixed(0).padStart(4)} m; off the line: median ${percentile(gaps, 0.5).toFixed(1)} m, p95 ${p95.toFixed(1)} m, max ${Math.max(...gaps).toFixed(0)} m`,
			);
		}
	}
	for (const row of rows) console.log(row);
	console.log(`  over ${rows.length} recordings: median of p95 ${percentile(allP95, 0.5).toFixed(1)} m`);
}

/** An hour's wander through a town: headings drift, at 2.5–4 m/s, from a start near the member's home. */
function recording(seed: number): SeriesSample[] {
	let random = seed * 2654435761;
	const next = () => {
		random = (Math.imul(random ^ (random >>> 15), 2246822519) + 0x9e3779b9) >>> 0;
		return random / 2 ** 32;
	};
	let lat = 46.05 + (next() - 0.5) * 0.04;
	let lng = 14.5 + (next() - 0.5) * 0.06;
	let heading = next() * 2 * Math.PI;
	const samples: SeriesSample[] = [];
	for (let s = 0; s < RECORDING_SAMPLES; s++) {
		if (s % 60 === 0) heading += (next() - 0.5) * 1.5;
		const speed = 2.5 + next() * 1.5;
		lat += (speed * Math.cos(heading)) / 111_195;
		lng += (speed * Math.sin(heading)) / (111_195 * Math.cos((lat * Math.PI) / 180));
		samples.push({ offsetMs: s * 1000, lat, lng });
	}
	return samples;
}

async function run(kind: string, db: Db): Promise<void> {
	console.log(`\n${kind}`);
	const deps = createTestDeps(db, { clock: createTestClock(NOW) });
	const app = createTestApi(deps, { routes: [createStatsApi()] });
	const member = await addSignedInMember(deps, `heat_${kind.split(' ')[0]}`);

	// Four years up to now; runs, walks, rides and hikes; each with the preview an upload stores.
	const seeded = performance.now();
	const first = NOW.getTime() - 4 * 365 * 86_400_000;
	const step = (NOW.getTime() - first) / MEMBER_WORKOUTS;
	for (let offset = 0; offset < MEMBER_WORKOUTS; offset += 250) {
		const rows = [];
		for (let i = offset; i < Math.min(MEMBER_WORKOUTS, offset + 250); i++)
			rows.push({
				ownerId: member.viewer.id,
				name: `Workout ${i}`,
				activityTypeId: [16, 9, 11, 24][i % 4],
				privacy: 0,
				startDatetime: new Date(first + i * step),
				sampleCount: RECORDING_SAMPLES,
				previewSeries: previewSeriesOf(encodeSeries(recording(i + 1))),
			});
		await db.insert(workouts).values(rows);
	}
	await db.insert(privacyZones).values(
		[
			{ lat: 46.05, lng: 14.5 },
			{ lat: 46.06, lng: 14.52 },
		].map((home) => ({ ownerId: member.viewer.id, chosenRadiusM: 400, ...placeZone(home, 400) })),
	);
	console.log(
		`  seeded ${MEMBER_WORKOUTS.toLocaleString('en-US')} workouts with tracks and two privacy zones in ${((performance.now() - seeded) / 1000).toFixed(1)} s`,
	);

	const auth = { headers: { authorization: `Bearer ${member.token}` } };
	for (const [label, query] of [
		['every workout', ''],
		['runs only', '?activity_groups=run'],
		['one year', '?year=2025'],
	] as const) {
		const path = `/api/v7.1/workout_heatmap/${query}`;
		for (let i = 0; i < 3; i++) await (await app.request(path, auth)).text();
		const samples: number[] = [];
		// Processor time as well as wall time: on a shared machine it is the steadier of the two.
		const cpu: number[] = [];
		let body = '';
		for (let i = 0; i < QUERY_RUNS; i++) {
			const started = performance.now();
			const usage = process.cpuUsage();
			const response = await app.request(path, auth);
			body = await response.text();
			samples.push(performance.now() - started);
			const used = process.cpuUsage(usage);
			cpu.push((used.user + used.system) / 1000);
			if (response.status !== 200) throw new Error(`${label}: ${response.status} ${body.slice(0, 200)}`);
		}
		const answer = JSON.parse(body) as { workout_count: number; lines: string[] };
		const points = answer.lines.reduce((sum, line) => sum + decodePolyline(line, 5).length, 0);
		console.log(
			`  ${label}: ${answer.workout_count.toLocaleString('en-US')} workouts, ${answer.lines.length.toLocaleString('en-US')} lines, ${points.toLocaleString('en-US')} positions; ${summary(samples)}, processor time p50 ${percentile(cpu, 0.5).toFixed(0)} ms; ${(Buffer.byteLength(body) / 1024).toFixed(0)} KB, ${(gzipSync(body).length / 1024).toFixed(0)} KB gzipped`,
		);
		if (query === '') {
			const decoding: number[] = [];
			for (let i = 0; i < 10; i++) {
				const started = performance.now();
				for (const line of answer.lines) decodePolyline(line, 5);
				decoding.push(performance.now() - started);
			}
			console.log(`    decoding every line as the browser does: ${summary(decoding)}`);
		}
	}
}

previewFidelity();
await onBenchDatabases(({ label, db }) => run(label, db));
