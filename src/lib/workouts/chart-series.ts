/**
 * The workout charts' data, and how the page hands it to the charts' island: each channel as one string of
 * comma-separated numbers (an empty place where a sample has none). Astro writes an island's array props
 * number by number as `[0,123.4]`; a 12-hour recording's charts were 140 KB of the page that way, and the
 * phone spent its time reading them before drawing anything.
 */

/** Channels the charts draw; a channel the recording lacks is absent. */
export type ChartSeries = {
	/** Minutes from the start. */
	minutes: number[];
	/** Distance from the start, in the viewer's unit. */
	distance: number[];
	lat: (number | null)[];
	lng: (number | null)[];
	/** Pace in minutes per unit, or speed in unit per hour, from the distance over a short window. */
	pace?: (number | null)[];
	speed?: (number | null)[];
	/** Elevation in metres or feet. */
	elevation?: (number | null)[];
	heartRate?: (number | null)[];
	cadence?: (number | null)[];
	power?: (number | null)[];
};

export type PackedChartSeries = { [Channel in keyof ChartSeries]: string };

const CHANNELS = [
	'minutes',
	'distance',
	'lat',
	'lng',
	'pace',
	'speed',
	'elevation',
	'heartRate',
	'cadence',
	'power',
] as const satisfies readonly (keyof ChartSeries)[];

function pack(values: readonly (number | null)[]): string {
	return values.map((value) => (value === null || !Number.isFinite(value) ? '' : String(value))).join(',');
}

function unpack(text: string): (number | null)[] {
	if (text === '') return [];
	return text.split(',').map((item) => (item === '' ? null : Number(item)));
}

export function packChartSeries(series: ChartSeries): PackedChartSeries {
	const packed: Partial<Record<keyof ChartSeries, string>> = {};
	for (const channel of CHANNELS) {
		const values = series[channel];
		if (values) packed[channel] = pack(values);
	}
	return packed as PackedChartSeries;
}

export function unpackChartSeries(packed: PackedChartSeries): ChartSeries {
	const series: Partial<Record<keyof ChartSeries, (number | null)[]>> = {};
	for (const channel of CHANNELS) {
		const text = packed[channel];
		if (typeof text === 'string') series[channel] = unpack(text);
	}
	return series as ChartSeries;
}
