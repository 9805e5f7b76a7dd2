import { describe, expect, it } from 'vitest';
import { calculateFitCrc } from '~/lib/workout-files/fit';
import { ActivityTypeId, readWorkoutFileSync, writeFitCourse } from '~/lib/workout-files/index';
import { encode, gpxDoc } from './fixtures';

const points = '<trkpt lat="40.27" lon="-76.88"/><trkpt lat="40.28" lon="-76.88"/>';

/** True when the text is well-formed and holds no control character at all. */
function storable(text: string | undefined): boolean {
	return text === undefined || (text.isWellFormed() && [...text].every((char) => char.charCodeAt(0) >= 0x20));
}

describe('text read from workout files', () => {
	it('drops NUL and control characters and mends a lone surrogate in a GPX name, waypoint and creator', () => {
		const gpx = gpxDoc(
			`<metadata><name>River\u0000 Loop&#1;&#xD800;</name></metadata>` +
				`<wpt lat="40.275" lon="-76.88"><name>Water\u0007&#xDC00; tap</name></wpt>` +
				`<trk><type>run&#x1F;ning</type><trkseg>${points}</trkseg></trk>`,
		);
		const workout = readWorkoutFileSync(encode(gpx));
		expect(workout.name).toBe('River Loop\uFFFD');
		expect(workout.waypoints[0].name).toBe('Water\uFFFD tap');
		expect(workout.sport).toBe('running');
		for (const text of [workout.name, workout.sport, workout.creator, workout.waypoints[0].name])
			expect(storable(text)).toBe(true);
	});

	it('turns line breaks and tabs in a name into spaces, and a name of nothing but controls into none', () => {
		const named = readWorkoutFileSync(
			encode(gpxDoc(`<trk><name>Up\tthe&#10;hill</name><trkseg>${points}</trkseg></trk>`)),
		);
		expect(named.name).toBe('Up the hill');
		const empty = readWorkoutFileSync(
			encode(gpxDoc(`<trk><name>&#1;&#2;</name><trkseg>${points}</trkseg></trk>`)),
		);
		expect(empty.name).toBeUndefined();
	});

	it('cleans a TCX activity name', () => {
		const tcx = `<?xml version="1.0"?><TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Courses><Course><Name>Hill&#xD83D;\u0000 reps</Name><Track><Trackpoint><Position><LatitudeDegrees>40.27</LatitudeDegrees><LongitudeDegrees>-76.88</LongitudeDegrees></Position></Trackpoint><Trackpoint><Position><LatitudeDegrees>40.28</LatitudeDegrees><LongitudeDegrees>-76.88</LongitudeDegrees></Position></Trackpoint></Track></Course></Courses></TrainingCenterDatabase>`;
		const workout = readWorkoutFileSync(encode(tcx));
		expect(workout.name).toBe('Hill\uFFFD reps');
	});

	it('drops control characters from FIT course and course point names', () => {
		const fit = writeFitCourse({
			name: 'Ridge~line',
			activityType: ActivityTypeId.run,
			points: [
				{ lat: 40.27, lng: -76.88, elevation: 100 },
				{ lat: 40.28, lng: -76.88, elevation: 110 },
			],
			cuePoints: [{ lat: 40.28, lng: -76.88, distance: 1100, name: 'Turn~ left' }],
			startTime: Date.UTC(2026, 4, 1, 8),
		});
		// Our writer never writes control characters, so put them into the strings' bytes and re-sign.
		for (let index = 0; index < fit.length - 2; index++) if (fit[index] === 0x7e) fit[index] = 0x01;
		new DataView(fit.buffer, fit.byteOffset).setUint16(
			fit.length - 2,
			calculateFitCrc(fit, 0, fit.length - 2),
			true,
		);
		const workout = readWorkoutFileSync(fit);
		expect(workout.name).toBe('Ridgeline');
		expect(workout.waypoints.map((waypoint) => waypoint.name)).toContain('Turn left');
	});
});
