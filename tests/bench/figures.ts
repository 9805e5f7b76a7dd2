import { loadavg } from 'node:os';

/** The q-quantile (0–1) of the samples, nearest rank; the samples are left as they were. */
export function percentile(samples: number[], q: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? Number.NaN;
}

/** The machine's 1-, 5- and 15-minute load averages, printed beside every figure. */
export function loadAverage(): string {
	return loadavg()
		.map((value) => value.toFixed(2))
		.join(' ');
}
