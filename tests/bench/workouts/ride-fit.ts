import { writeFit } from '../../../src/lib/workout-files';
import { workoutFromSamples } from '../../../src/lib/workouts/analysis';
import type { SeriesSample } from '../../../src/lib/workouts/series';

/** A 1 Hz ride around Harrisburg of `seconds` seconds, with every channel the charts draw, as a FIT file. */
export function rideFit(seconds: number, startMs: number): Uint8Array {
	const samples: SeriesSample[] = [];
	let lat = 40.27;
	let lng = -76.88;
	let distance = 0;
	for (let s = 0; s < seconds; s++) {
		const heading = (s / 900) * Math.PI;
		const speed = 7 + 2 * Math.sin(s / 300);
		lat += (speed * Math.cos(heading)) / 111_195;
		lng += (speed * Math.sin(heading)) / (111_195 * Math.cos((lat * Math.PI) / 180));
		distance += speed;
		samples.push({
			offsetMs: s * 1000,
			lat,
			lng,
			elevation: 120 + 40 * Math.sin(s / 600),
			heartRate: Math.round(135 + 15 * Math.sin(s / 200)),
			cadence: Math.round(85 + 5 * Math.sin(s / 50)),
			power: Math.round(180 + 40 * Math.sin(s / 120)),
			speed,
			distance,
		});
	}
	return writeFit(workoutFromSamples(samples, { startMs, activityType: 11, name: 'Bench ride' }));
}
