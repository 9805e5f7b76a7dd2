/** Degrees of latitude per metre along a meridian, on the 6,371 km sphere the metrics use. */
const DEG_PER_M = 180 / (Math.PI * 6_371_000);

/**
 * A recorded run as GPX: due north from Ljubljana at `mps`, a point with heart rate and cadence every
 * `everyS` seconds for `minutes`, starting at `start`. Distances and times are exact, so tests know them.
 */
export function runGpx(options: {
	minutes: number;
	mps: number;
	start?: string;
	everyS?: number;
	name?: string;
}) {
	const everyS = options.everyS ?? 10;
	const startMs = Date.parse(options.start ?? '2026-05-01T07:30:00Z');
	const points: string[] = [];
	for (let t = 0; t <= options.minutes * 60; t += everyS) {
		const lat = 46.05 + options.mps * t * DEG_PER_M;
		const time = new Date(startMs + t * 1000).toISOString().replace('.000Z', 'Z');
		const hr = 130 + Math.round((t / 60) % 20);
		points.push(
			`<trkpt lat="${lat.toFixed(7)}" lon="14.5"><ele>${(300 + t / 60).toFixed(1)}</ele><time>${time}</time>` +
				`<extensions><gpxtpx:TrackPointExtension><gpxtpx:hr>${hr}</gpxtpx:hr><gpxtpx:cad>85</gpxtpx:cad></gpxtpx:TrackPointExtension></extensions></trkpt>`,
		);
	}
	return `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="Test" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
<trk><name>${options.name ?? 'Morning run'}</name><type>running</type><trkseg>
${points.join('\n')}
</trkseg></trk></gpx>
`;
}
