import { readFileSync } from 'node:fs';
import { CrcCalculator } from '@garmin/fitsdk';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { calculateFitCrc, readFit, readFitWithSdk } from '~/lib/workout-files/fit';
import {
	ActivityTypeId,
	computeMetrics,
	detectFormat,
	NormalisedWorkoutSchema,
	readWorkoutFile,
	readWorkoutFileSync,
	summariseWorkout,
} from '~/lib/workout-files/index';
import { encode, fixtureDir, gpxDoc, gzip, listFixtures, loadFixture } from './fixtures';

describe('GPX reader', () => {
	it('reads GPX 1.1 tracks, segments and Garmin TrackPointExtension values', async () => {
		const doc = gpxDoc(`
			<metadata><name>Morning &amp; run</name></metadata>
			<wpt lat="1" lon="2"><name>Start</name></wpt>
			<trk><name>ignored when metadata names it</name><type>running</type>
				<trkseg>
					<trkpt lat="45.1" lon="13.5"><ele>10.5</ele><time>2024-05-01T06:00:00Z</time>
						<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>120</gpxtpx:hr><gpxtpx:cad>85</gpxtpx:cad><gpxtpx:atemp>21.5</gpxtpx:atemp></gpxtpx:TrackPointExtension></extensions></trkpt>
					<trkpt lat="45.1001" lon="13.5"><time>2024-05-01T06:00:05.500Z</time></trkpt>
				</trkseg>
				<trkseg></trkseg>
				<trkseg><trkpt lat="45.2" lon="13.6"><ele>12</ele></trkpt></trkseg>
			</trk>`);
		const w = await readWorkoutFile(encode(doc), { fileName: 'whatever.fit' });
		expect(w.format).toBe('gpx');
		expect(w.name).toBe('Morning & run');
		expect(w.activityType).toBe(ActivityTypeId.run);
		expect(w.startTime).toBe(Date.UTC(2024, 4, 1, 6));
		expect(w.points).toEqual([
			{
				lat: 45.1,
				lng: 13.5,
				elevation: 10.5,
				time: Date.UTC(2024, 4, 1, 6),
				heartRate: 120,
				cadence: 85,
				temperature: 21.5,
			},
			{ lat: 45.1001, lng: 13.5, time: Date.UTC(2024, 4, 1, 6, 0, 5, 500) },
			{ lat: 45.2, lng: 13.6, elevation: 12 },
		]);
		// The empty segment leaves no trace; the third segment starts at point 2.
		expect(w.segmentStarts).toEqual([0, 2]);
		expect(w.waypoints).toEqual([{ lat: 1, lng: 2, name: 'Start' }]);
		expect(v.safeParse(NormalisedWorkoutSchema, w).success).toBe(true);
	});

	it('reads GPX 1.0 with <speed> and a time without a zone as UTC', () => {
		const doc = `<?xml version="1.0"?><gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0"><trk><trkseg>
			<trkpt lat="-33.5" lon="151.2"><time>2020-02-03T04:05:06</time><speed>3.2</speed></trkpt>
			<trkpt lat="-33.5" lon="151.3"><time>2020-02-03T05:05:06+01:00</time></trkpt></trkseg></trk></gpx>`;
		const w = readWorkoutFileSync(encode(doc));
		expect(w.points[0]).toEqual({ lat: -33.5, lng: 151.2, time: Date.UTC(2020, 1, 3, 4, 5, 6), speed: 3.2 });
		expect(w.points[1].time).toBe(Date.UTC(2020, 1, 3, 4, 5, 6));
	});

	it('reads power written by Strava and Garmin, and a UTF-8 BOM', () => {
		const doc = `\ufeff${gpxDoc('<trk><trkseg><trkpt lat="1" lon="1"><extensions><power>250</power></extensions></trkpt><trkpt lat="1" lon="1.001"><extensions><pwr:PowerInWatts>260</pwr:PowerInWatts></extensions></trkpt></trkseg></trk>')}`;
		const w = readWorkoutFileSync(encode(doc));
		expect(w.points.map((p) => p.power)).toEqual([250, 260]);
	});

	it('joins several tracks as segments and reads a route only when there is no track', () => {
		const twoTracks = gpxDoc(
			'<trk><trkseg><trkpt lat="1" lon="1"/></trkseg></trk><trk><trkseg><trkpt lat="1" lon="2"/></trkseg></trk><rte><rtept lat="5" lon="5"/></rte>',
		);
		const w = readWorkoutFileSync(encode(twoTracks));
		expect(w.points).toHaveLength(2);
		expect(w.segmentStarts).toEqual([0, 1]);
		const route = readWorkoutFileSync(loadFixture('gpx/route.gpx'));
		expect(route.points).toHaveLength(55);
		expect(route.startTime).toBeUndefined();
		expect(route.warnings.join(' ')).toMatch(/planned route/);
	});

	it('reads the real GPX fixtures', () => {
		const cerknica = readWorkoutFileSync(loadFixture('gpx/cerknicko-jezero-with-elevations-zero.gpx'));
		expect(cerknica.points).toHaveLength(296);
		expect(cerknica.segmentStarts).toHaveLength(7);
		const empty = readWorkoutFileSync(loadFixture('gpx/track-with-empty-segment.gpx'));
		expect(empty.points).toHaveLength(9);
		const all11 = readWorkoutFileSync(loadFixture('gpx/gpx1.1_with_all_fields.gpx'));
		expect(all11.points[0]).toMatchObject({ lat: 10.1, lng: -20.2, elevation: 11.1 });
		// A waypoint alone is not a workout.
		expect(() => readWorkoutFileSync(loadFixture('gpx/unicode_with_bom.gpx'))).toThrow(/no track points/);
		expect(() => readWorkoutFileSync(loadFixture('gpx/gpx_with_garmin_extension.gpx'))).toThrow(
			/no track points/,
		);
	});
});

describe('a recording whose clock was not set', () => {
	it('keeps the track of Mojstrovka.gpx, leaves out its 1901 times and dates it by the file', () => {
		// Every point says 1901-12-13T20:45:52Z, the earliest 32-bit Unix time; the file was written 2010-12-14.
		const w = readWorkoutFileSync(loadFixture('gpx/Mojstrovka.gpx'));
		expect(w.points).toHaveLength(184);
		expect(w.points.every((point) => point.time === undefined && point.lat !== undefined)).toBe(true);
		expect(w.startTime).toBe(Date.parse('2010-12-14T06:17:04Z'));
		expect(w.warnings.join(' ')).toMatch(/times in this file are not real .*1901-12-13.*dated 2010-12-14/);
		const summary = summariseWorkout(w);
		expect(summary.distance_m).toBeCloseTo(2697.6, 0);
		expect(summary.elapsed_s).toBe(0);
	});

	it('leaves the date unknown when the file does not say when it was written', () => {
		const doc = `<?xml version="1.0"?><gpx version="1.1" creator="t" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="46" lon="14"><time>1901-12-13T20:45:52Z</time></trkpt>
<trkpt lat="46.001" lon="14"><time>1901-12-13T20:45:52Z</time></trkpt></trkseg></trk></gpx>`;
		const w = readWorkoutFileSync(encode(doc));
		expect(w.startTime).toBeUndefined();
		expect(w.warnings.join(' ')).toMatch(/its date, duration, pace and splits are unknown/);
	});

	it('leaves real times alone', () => {
		const w = readWorkoutFileSync(loadFixture('gpx/gpx1.1_with_all_fields.gpx'));
		expect(w.warnings.join(' ')).not.toMatch(/not real/);
	});
});

describe('TCX reader', () => {
	it('reads activity, laps, heart rate, cadence, watts and speed', () => {
		const doc = `<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2" xmlns:ns3="http://www.garmin.com/xmlschemas/ActivityExtension/v2">
<Activities><Activity Sport="Biking"><Id>2021-03-04T10:00:00Z</Id>
<Lap StartTime="2021-03-04T10:00:00Z"><TotalTimeSeconds>60</TotalTimeSeconds><DistanceMeters>500</DistanceMeters><Calories>12</Calories>
<AverageHeartRateBpm><Value>130</Value></AverageHeartRateBpm><MaximumHeartRateBpm><Value>140</Value></MaximumHeartRateBpm>
<Track>
<Trackpoint><Time>2021-03-04T10:00:00Z</Time><Position><LatitudeDegrees>50</LatitudeDegrees><LongitudeDegrees>8</LongitudeDegrees></Position><AltitudeMeters>100</AltitudeMeters><DistanceMeters>0</DistanceMeters><HeartRateBpm><Value>125</Value></HeartRateBpm><Cadence>80</Cadence><Extensions><ns3:TPX><ns3:Speed>8.5</ns3:Speed><ns3:Watts>210</ns3:Watts></ns3:TPX></Extensions></Trackpoint>
<Trackpoint><Time>2021-03-04T10:00:01Z</Time><DistanceMeters>8.5</DistanceMeters></Trackpoint>
</Track></Lap>
<Lap StartTime="2021-03-04T10:01:00Z"><TotalTimeSeconds>30</TotalTimeSeconds><DistanceMeters>250</DistanceMeters><Calories>6</Calories><Track>
<Trackpoint><Time>2021-03-04T10:01:00Z</Time><Position><LatitudeDegrees>50.001</LatitudeDegrees><LongitudeDegrees>8</LongitudeDegrees></Position></Trackpoint>
</Track><Track><Trackpoint><Time>2021-03-04T10:01:30Z</Time><Position><LatitudeDegrees>50.002</LatitudeDegrees><LongitudeDegrees>8</LongitudeDegrees></Position></Trackpoint></Track></Lap>
</Activity></Activities></TrainingCenterDatabase>`;
		const w = readWorkoutFileSync(encode(doc));
		expect(w.format).toBe('tcx');
		expect(w.activityType).toBe(ActivityTypeId.ride);
		expect(w.sport).toBe('Biking');
		expect(w.startTime).toBe(Date.UTC(2021, 2, 4, 10));
		expect(w.points[0]).toEqual({
			time: Date.UTC(2021, 2, 4, 10),
			lat: 50,
			lng: 8,
			elevation: 100,
			distance: 0,
			heartRate: 125,
			cadence: 80,
			speed: 8.5,
			power: 210,
		});
		// A trackpoint without a fix keeps its other values.
		expect(w.points[1]).toEqual({ time: Date.UTC(2021, 2, 4, 10, 0, 1), distance: 8.5 });
		expect(w.laps).toEqual([
			{
				startTime: Date.UTC(2021, 2, 4, 10),
				// The timer's time as the lap says; elapsed runs to the next lap's start.
				timerS: 60,
				elapsedS: 60,
				distanceM: 500,
				calories: 12,
				avgHeartRate: 130,
				maxHeartRate: 140,
				firstPoint: 0,
				endPoint: 2,
			},
			{
				startTime: Date.UTC(2021, 2, 4, 10, 1),
				timerS: 30,
				elapsedS: 30,
				distanceM: 250,
				calories: 6,
				firstPoint: 2,
				endPoint: 4,
			},
		]);
		// A new lap's Track continues the segment; the second Track inside a lap is a pause.
		expect(w.segmentStarts).toEqual([0, 3]);
		expect(w.deviceTotals).toEqual({ timerS: 90, distanceM: 750, calories: 18, maxHeartRate: 140 });
	});

	it('gives every lap of a real run its time, and heart rate read from its points where the lap has none', () => {
		// running_activity_2: eleven laps with TotalTimeSeconds, and no heart rate anywhere.
		const run = readWorkoutFileSync(loadFixture('tcx/running_activity_2.tcx.gz'));
		expect(run.laps.map((lap) => lap.timerS)).toEqual([
			276, 299, 258, 273, 362, 250, 298, 373, 1204, 1476, 190,
		]);
		expect(run.laps.every((lap) => lap.elapsedS !== undefined && lap.elapsedS >= (lap.timerS ?? 0))).toBe(
			true,
		);
		// Lap 1 starts 15:00:26 and lap 2 at 15:05:05.
		expect(run.laps[0].elapsedS).toBe(279);
		expect(run.laps.some((lap) => lap.avgHeartRate !== undefined)).toBe(false);

		// walking_activity_1 writes heart rate on its laps: those stay as written.
		const walk = readWorkoutFileSync(loadFixture('tcx/walking_activity_1.tcx'));
		expect(walk.laps.length).toBeGreaterThan(0);
		for (const lap of walk.laps) {
			expect(lap.timerS).toBeGreaterThan(0);
			expect(lap.avgHeartRate).toBeGreaterThan(40);
			expect(lap.maxHeartRate).toBeGreaterThanOrEqual(lap.avgHeartRate as number);
		}
		// Every lap of the other real activities has a time; heart rate wherever its points have one.
		for (const file of [
			'tcx/cross-country-skiing_activity_1.tcx',
			'tcx/sup_activity_2.tcx',
			'tcx/swim_activity_1.tcx.gz',
			'tcx/multiple_running_activities.tcx.gz',
		]) {
			const workout = readWorkoutFileSync(loadFixture(file));
			for (const lap of workout.laps) {
				expect(lap.timerS, file).toBeGreaterThanOrEqual(0);
				expect(lap.elapsedS, file).toBeGreaterThanOrEqual(0);
				const withRate = workout.points.slice(lap.firstPoint, lap.endPoint).some((point) => point.heartRate);
				if (withRate) expect(lap.avgHeartRate, file).toBeGreaterThan(0);
			}
		}
	});

	it('reads a lap heart rate from its points when the lap gives none, leaving the device totals alone', () => {
		const doc = `<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
<Activities><Activity Sport="Running"><Id>2021-03-04T10:00:00Z</Id>
<Lap StartTime="2021-03-04T10:00:00Z"><TotalTimeSeconds>20</TotalTimeSeconds><Track>
<Trackpoint><Time>2021-03-04T10:00:00Z</Time><HeartRateBpm><Value>120</Value></HeartRateBpm></Trackpoint>
<Trackpoint><Time>2021-03-04T10:00:10Z</Time><HeartRateBpm><Value>130</Value></HeartRateBpm></Trackpoint>
<Trackpoint><Time>2021-03-04T10:00:25Z</Time><HeartRateBpm><Value>141</Value></HeartRateBpm></Trackpoint>
</Track></Lap></Activity></Activities></TrainingCenterDatabase>`;
		const w = readWorkoutFileSync(encode(doc));
		expect(w.laps[0]).toMatchObject({ timerS: 20, elapsedS: 25, avgHeartRate: 130.3, maxHeartRate: 141 });
		expect(w.deviceTotals).toEqual({ timerS: 20 });
	});

	it('reads only the first of several activities and says so', () => {
		const w = readWorkoutFileSync(loadFixture('tcx/multiple_running_activities.tcx.gz'));
		expect(w.container).toBe('gzip');
		expect(w.activityType).toBe(ActivityTypeId.run);
		expect(w.points).toHaveLength(1254);
		expect(w.laps).toHaveLength(15);
		expect(w.warnings.join(' ')).toMatch(/2 activities; only the first/);
	});

	it('starts at the first trackpoint when the Activity Id is earlier, so start + elapsed is the last sample', () => {
		// The watch was started at 10:00:00 but wrote its first trackpoint 40 s later, once it had a fix.
		const trackpoint = (time: string, lat: number) =>
			`<Trackpoint><Time>${time}</Time><Position><LatitudeDegrees>${lat}</LatitudeDegrees><LongitudeDegrees>8</LongitudeDegrees></Position></Trackpoint>`;
		const doc = `<?xml version="1.0" encoding="UTF-8"?>
<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
<Activities><Activity Sport="Running"><Id>2021-03-04T10:00:00Z</Id>
<Lap StartTime="2021-03-04T10:00:00Z"><TotalTimeSeconds>640</TotalTimeSeconds><Track>
${trackpoint('2021-03-04T10:00:40Z', 50)}${trackpoint('2021-03-04T10:05:40Z', 50.01)}${trackpoint('2021-03-04T10:10:40Z', 50.02)}
</Track></Lap></Activity></Activities></TrainingCenterDatabase>`;
		const w = readWorkoutFileSync(encode(doc));
		expect(w.startTime).toBe(Date.UTC(2021, 2, 4, 10, 0, 40));
		const summary = summariseWorkout(w);
		expect(summary.start_time).toBe('2021-03-04T10:00:40+00:00');
		expect(summary.elapsed_s).toBe(600);
		expect(Date.parse(summary.start_time ?? '') + summary.elapsed_s * 1000).toBe(
			Date.UTC(2021, 2, 4, 10, 10, 40),
		);
		// The lap keeps the start the device gave it.
		expect(w.laps[0].startTime).toBe(Date.UTC(2021, 2, 4, 10));
	});

	it('reads the real TCX fixtures', () => {
		const ski = readWorkoutFileSync(loadFixture('tcx/cross-country-skiing_activity_1.tcx'));
		expect(ski).toMatchObject({ sport: 'Other', activityType: ActivityTypeId.generic });
		expect(ski.points).toHaveLength(486);
		expect(ski.deviceTotals.distanceM).toBeCloseTo(5692.01, 2);
		const swim = readWorkoutFileSync(loadFixture('tcx/swim_activity_1.tcx.gz'));
		expect(swim.points).toHaveLength(1317);
		expect(swim.points.filter((p) => p.lat === undefined).length).toBeGreaterThan(0);
	});
});

describe('FIT reader', () => {
	const fitFiles = listFixtures('fit').filter(
		(f) => !/strava-android|compressed-speed-distance\.fit/.test(f),
	);

	it.each(fitFiles)('%s: the fast decoder agrees with Garmin’s SDK on every point, lap and total', (file) => {
		const bytes = loadFixture(file);
		const fast = readFit(bytes, 'none');
		const sdk = readFitWithSdk(bytes, 'none');
		expect(fast.points).toEqual(sdk.points);
		expect(fast.segmentStarts).toEqual(sdk.segmentStarts);
		expect(fast.laps).toEqual(sdk.laps);
		expect(fast.deviceTotals).toEqual(sdk.deviceTotals);
		expect(fast.activityType).toBe(sdk.activityType);
		expect(fast.startTime).toBe(sdk.startTime);
	});

	it.each(listFixtures('fit').filter((f) => !/strava-android/.test(f)))(
		'%s: the compiled record readers match the interpreted ones',
		(file) => {
			const bytes = loadFixture(file);
			expect(readFit(bytes, 'none')).toEqual(readFit(bytes, 'none', {}, { interpret: true }));
		},
	);

	it('computes the same CRC as the SDK’s CrcCalculator', () => {
		for (const file of listFixtures('fit')) {
			const bytes = loadFixture(file);
			expect(calculateFitCrc(bytes, 0, bytes.length)).toBe(
				CrcCalculator.calculateCRC(bytes, 0, bytes.length),
			);
		}
	});

	function readCsv(name: string): string[][] {
		return readFileSync(`${fixtureDir}fit/${name}`, 'utf8')
			.trim()
			.split('\n')
			.slice(1)
			.map((l) => l.split(','));
	}

	it('expands compressed timestamps and speed/distance as python-fitparse does', () => {
		// The SDK cannot decode this file ("compressed timestamp messages are not currently supported"),
		// so python-fitparse's decoding in the CSV is the reference.
		const w = readWorkoutFileSync(loadFixture('fit/compressed-speed-distance.fit'));
		const rows = readCsv('compressed-speed-distance-records.csv');
		// The CSV leaves out the first record, which holds a timestamp and nothing else.
		expect(Object.keys(w.points[0])).toEqual(['time']);
		const points = w.points.slice(1);
		expect(points).toHaveLength(rows.length);
		rows.forEach(([ts, hr, speed, distance, cadence], i) => {
			const p = points[i];
			expect(p.time).toBe((Number(ts) + 631065600) * 1000);
			expect(p.heartRate).toBe(Number(hr));
			expect(p.speed).toBeCloseTo(Number(speed), 6);
			expect(p.distance).toBeCloseTo(Number(distance), 6);
			if (cadence === 'null') expect(p.cadence).toBeUndefined();
			else expect(p.cadence).toBe(Number(cadence));
		});
	});

	it.each(['garmin-fenix-5-walk', 'garmin-fenix-5-bike', 'garmin-edge-820-bike'])(
		'%s matches python-fitparse’s record decoding',
		(name) => {
			const w = readWorkoutFileSync(loadFixture(`fit/${name}.fit`));
			const rows = readCsv(`${name}-records.csv`);
			const header = readFileSync(`${fixtureDir}fit/${name}-records.csv`, 'utf8').split('\n')[0].split(',');
			expect(w.points).toHaveLength(rows.length);
			rows.forEach((row, i) => {
				const get = (col: string) => row[header.indexOf(col)];
				const p = w.points[i];
				expect(p.time).toBe(Date.parse(get('timestamp').replace(/ PDT /, ' GMT-0700 ')));
				expect(p.heartRate).toBe(Number(get('heart_rate')));
				expect(p.speed).toBeCloseTo(Number(get('speed')), 6);
				expect(p.distance).toBeCloseTo(Number(get('distance')), 6);
				expect(p.elevation).toBeCloseTo(Number(get('altitude')), 6);
				expect(p.lat).toBeCloseTo((Number(get('position_lat')) * 180) / 2 ** 31, 9);
				expect(p.lng).toBeCloseTo((Number(get('position_long')) * 180) / 2 ** 31, 9);
				if (header.includes('cadence') && get('cadence') !== '')
					expect(Math.floor(p.cadence ?? -1)).toBe(Number(get('cadence')));
				if (header.includes('temperature')) expect(p.temperature).toBe(Number(get('temperature')));
			});
		},
	);

	it('reads sport, sessions, laps and device totals', () => {
		const edge = readWorkoutFileSync(loadFixture('fit/Edge810-Vector-2013-08-16-15-35-10.fit'));
		expect(edge).toMatchObject({ format: 'fit', sport: 'cycling', activityType: ActivityTypeId.ride });
		expect(edge.points).toHaveLength(4700);
		expect(edge.laps).toHaveLength(8);
		expect(edge.laps[0].firstPoint).toBe(0);
		expect(edge.laps.at(-1)?.endPoint).toBe(4700);
		expect(edge.deviceTotals).toMatchObject({
			distanceM: 41339.38,
			ascentM: 514,
			descentM: 515,
			calories: 1293,
		});
		expect(edge.points.some((p) => p.power !== undefined)).toBe(true);
		const walk = readWorkoutFileSync(loadFixture('fit/garmin-fenix-5-walk.fit'));
		expect(walk.activityType).toBe(ActivityTypeId.walk);
		const swim = readWorkoutFileSync(loadFixture('fit/event_timestamp.fit'));
		expect(swim.activityType).toBe(ActivityTypeId.swim);
		const indoor = readWorkoutFileSync(loadFixture('fit/sample-activity-indoor-trainer.fit'));
		expect(indoor.points.every((p) => p.lat === undefined)).toBe(true);
	});

	it('reads chained FIT files and multisport sessions as one workout', () => {
		const chained = readWorkoutFileSync(loadFixture('fit/sample_mulitple_header.fit'));
		expect(chained.points).toHaveLength(1773);
		expect(chained.warnings.join(' ')).toMatch(/5 sessions/);
		const multi = readWorkoutFileSync(loadFixture('fit/activity-large-fenxi2-multisport.fit'));
		// Two records repeat a second at a session change; they are dropped, not fatal.
		expect(multi.points).toHaveLength(24237);
		expect(multi.warnings.join(' ')).toMatch(/2 point\(s\)/);
	});

	it('keeps the valid file when the bytes after it are not FIT', () => {
		const w = readWorkoutFileSync(loadFixture('fit/activity-settings-corruptheader.fit'));
		expect(w.points).toHaveLength(14);
		expect(w.warnings.join(' ')).toMatch(/83 bytes/);
	});
});

describe('format detection', () => {
	it('goes by content, never by name', () => {
		expect(detectFormat(loadFixture('fit/garmin-fenix-5-walk.fit'))).toBe('fit');
		expect(detectFormat(loadFixture('gpx/route.gpx'))).toBe('gpx');
		expect(detectFormat(loadFixture('tcx/sup_activity_2.tcx'))).toBe('tcx');
		expect(detectFormat(loadFixture('tcx/running_activity_2.tcx.gz'))).toBe('gzip');
		expect(detectFormat(encode('hello'))).toBe('unknown');
	});

	it('reads a gzip-compressed FIT and GPX', () => {
		const fit = readWorkoutFileSync(gzip(loadFixture('fit/garmin-fenix-5-bike.fit')), { fileName: 'x.gpx' });
		expect(fit).toMatchObject({ format: 'fit', container: 'gzip' });
		const gpx = readWorkoutFileSync(gzip(loadFixture('gpx/track-with-empty-segment.gpx')));
		expect(gpx).toMatchObject({ format: 'gpx', container: 'gzip' });
	});

	it('starts every real fixture at its first timed sample, so start + elapsed is its last sample', () => {
		for (const file of [...listFixtures('gpx'), ...listFixtures('tcx'), ...listFixtures('fit')]) {
			let w: ReturnType<typeof readWorkoutFileSync>;
			try {
				w = readWorkoutFileSync(loadFixture(file));
			} catch {
				continue;
			}
			const times = w.points.flatMap((p) => (p.time === undefined ? [] : [p.time]));
			if (times.length === 0) continue;
			const { elapsedS } = computeMetrics(w);
			expect(w.startTime, file).toBe(times[0]);
			expect((w.startTime ?? 0) + elapsedS * 1000, file).toBeCloseTo(times[times.length - 1], 3);
		}
	});

	it('keeps every real fixture inside the valibot contract', () => {
		for (const file of [...listFixtures('gpx'), ...listFixtures('tcx'), ...listFixtures('fit')]) {
			let w: ReturnType<typeof readWorkoutFileSync>;
			try {
				w = readWorkoutFileSync(loadFixture(file));
			} catch {
				continue;
			}
			const result = v.safeParse(NormalisedWorkoutSchema, w);
			expect(result.success, `${file}: ${result.issues?.[0]?.message}`).toBe(true);
		}
	});
});
