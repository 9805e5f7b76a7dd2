/**
 * A workout's time series as stored: one JSON document of parallel, delta-encoded integer arrays.
 * Values are fixed-point integers (microdegrees, decimetres, mm/s, centimetres, whole bpm, rpm
 * and watts) and each array holds the difference from the previous recorded value, so a typical
 * sample costs a few digits per channel; PostgreSQL compresses the document further (TOAST). A
 * sample a channel did not record is `null` there and leaves the running value untouched.
 */
export type StoredSeries = {
	v: 1;
	/** Milliseconds since the workout's start, as differences. */
	t: number[];
	lat?: (number | null)[];
	lng?: (number | null)[];
	ele?: (number | null)[];
	hr?: (number | null)[];
	cad?: (number | null)[];
	pow?: (number | null)[];
	spd?: (number | null)[];
	dist?: (number | null)[];
	/**
	 * Indices of the samples that start a new segment (after a pause or a break in the file), ascending;
	 * absent for a recording in one piece. Distance, moving time and climb count nothing across a break.
	 */
	seg?: number[];
};

/** One sample in SI units; `offsetMs` counts from the workout's start. */
export type SeriesSample = {
	offsetMs: number;
	lat?: number;
	lng?: number;
	elevation?: number;
	heartRate?: number;
	cadence?: number;
	power?: number;
	speed?: number;
	distance?: number;
};

const CHANNELS = [
	{ key: 'lat', field: 'lat', scale: 1e6 },
	{ key: 'lng', field: 'lng', scale: 1e6 },
	{ key: 'ele', field: 'elevation', scale: 10 },
	{ key: 'hr', field: 'heartRate', scale: 1 },
	{ key: 'cad', field: 'cadence', scale: 1 },
	{ key: 'pow', field: 'power', scale: 1 },
	{ key: 'spd', field: 'speed', scale: 1000 },
	{ key: 'dist', field: 'distance', scale: 100 },
] as const;

/** `segmentStarts` as the file readers give them (sample indices, the first 0); stored only past the first. */
export function encodeSeries(
	samples: readonly SeriesSample[],
	segmentStarts: readonly number[] = [0],
): StoredSeries {
	const series: StoredSeries = { v: 1, t: [] };
	let previousTime = 0;
	for (const sample of samples) {
		const time = Math.round(sample.offsetMs);
		series.t.push(time - previousTime);
		previousTime = time;
	}
	for (const { key, field, scale } of CHANNELS) {
		if (!samples.some((sample) => sample[field] !== undefined)) continue;
		let previous = 0;
		series[key] = samples.map((sample) => {
			const value = sample[field];
			if (value === undefined) return null;
			const fixed = Math.round(value * scale);
			const delta = fixed - previous;
			previous = fixed;
			return delta;
		});
	}
	const seg = segmentStarts.filter((start) => start > 0 && start < samples.length);
	if (seg.length > 0) series.seg = seg;
	return series;
}

/** Where each segment of a stored recording starts (sample indices, the first 0). */
export function segmentStartsOf(series: StoredSeries): number[] {
	return [0, ...(series.seg ?? [])];
}

export function decodeSeries(series: StoredSeries): SeriesSample[] {
	let time = 0;
	const samples: SeriesSample[] = series.t.map((delta) => {
		time += delta;
		return { offsetMs: time };
	});
	for (const { key, field, scale } of CHANNELS) {
		const deltas = series[key];
		if (!deltas) continue;
		let running = 0;
		deltas.forEach((delta, index) => {
			if (delta === null) return;
			running += delta;
			samples[index][field] = running / scale;
		});
	}
	return samples;
}

/** At most this many positions make a recording's preview line. */
export const PREVIEW_POINTS = 100;

/**
 * The recording's line thinned to evenly spaced positions (both ends kept), as a series of its own:
 * the feed draws thumbnails from it, through the same trimming as the whole recording, without
 * reading the recording. Empty when nothing was positioned.
 */
export function previewSeriesOf(series: StoredSeries | null): StoredSeries {
	if (!series?.lat) return { v: 1, t: [] };
	const positioned = decodeSeries(series)
		.filter((sample) => sample.lat !== undefined && sample.lng !== undefined)
		.map(({ offsetMs, lat, lng }) => ({ offsetMs, lat, lng }));
	const step = (positioned.length - 1) / (PREVIEW_POINTS - 1);
	const picked =
		positioned.length <= PREVIEW_POINTS
			? positioned
			: Array.from({ length: PREVIEW_POINTS }, (_, index) => positioned[Math.round(index * step)]);
	return encodeSeries(picked);
}

/** The v7.1 shape: per channel, `[seconds since start, value]` pairs (position as an object). */
export function toApiTimeSeries(samples: readonly SeriesSample[]) {
	const seconds = (sample: SeriesSample) => sample.offsetMs / 1000;
	const channel = (field: 'heartRate' | 'cadence' | 'power' | 'speed' | 'distance') =>
		samples.flatMap((sample) =>
			sample[field] === undefined ? [] : [[seconds(sample), sample[field]] as [number, number]],
		);
	return {
		position: samples.flatMap((sample) =>
			sample.lat === undefined || sample.lng === undefined
				? []
				: [
						[
							seconds(sample),
							{
								lat: sample.lat,
								lng: sample.lng,
								...(sample.elevation === undefined ? {} : { elevation: sample.elevation }),
							},
						] as const,
					],
		),
		heartrate: channel('heartRate'),
		speed: channel('speed'),
		cadence: channel('cadence'),
		power: channel('power'),
		distance: channel('distance'),
	};
}

type ApiTimeSeriesInput = {
	position?: [number, { lat: number; lng: number; elevation?: number }][];
	heartrate?: [number, number][];
	speed?: [number, number][];
	cadence?: [number, number][];
	power?: [number, number][];
	distance?: [number, number][];
};

/** Merges the per-channel pairs a client sends into samples ordered by time. */
export function fromApiTimeSeries(input: ApiTimeSeriesInput): SeriesSample[] {
	const byOffset = new Map<number, SeriesSample>();
	const at = (seconds: number) => {
		const offsetMs = Math.round(seconds * 1000);
		let sample = byOffset.get(offsetMs);
		if (!sample) {
			sample = { offsetMs };
			byOffset.set(offsetMs, sample);
		}
		return sample;
	};
	for (const [seconds, position] of input.position ?? []) {
		const sample = at(seconds);
		sample.lat = position.lat;
		sample.lng = position.lng;
		if (position.elevation !== undefined) sample.elevation = position.elevation;
	}
	const fields = [
		['heartrate', 'heartRate'],
		['speed', 'speed'],
		['cadence', 'cadence'],
		['power', 'power'],
		['distance', 'distance'],
	] as const;
	for (const [key, field] of fields) {
		for (const [seconds, value] of input[key] ?? []) at(seconds)[field] = value;
	}
	return [...byOffset.values()].sort((a, b) => a.offsetMs - b.offsetMs);
}
