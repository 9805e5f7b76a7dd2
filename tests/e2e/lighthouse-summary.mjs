import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Where `lhci collect` keeps every run's report; lighthouserc.json's upload copies them to reports/. */
export const LHCI_DIR = '.lighthouseci';

/**
 * Lighthouse CI's median run: the run closest to the median first contentful paint and the median
 * time to interactive, the earlier run on a tie.
 */
function medianRun(runs) {
	const value = (run, audit) => run.audits[audit]?.numericValue ?? 0;
	const median = (audit) =>
		runs.map((run) => value(run, audit)).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
	const fcp = median('first-contentful-paint');
	const tti = median('interactive');
	const distance = (run) =>
		(fcp - value(run, 'first-contentful-paint')) ** 2 + (tti - value(run, 'interactive')) ** 2;
	return runs.reduce((best, run) => (distance(run) < distance(best) ? run : best));
}

const CATEGORIES = [
	['performance', 'perf'],
	['accessibility', 'a11y'],
	['best-practices', 'best pr.'],
	['seo', 'SEO'],
];

/**
 * One row per audited page with the values lighthouserc.json's budgets are checked against. With
 * `aggregationMethod: median-run`, Lighthouse CI takes the script size from the median run (the run
 * closest to the median first contentful paint and time to interactive), but compares a category
 * score of every run and keeps the best. The row has those, the performance score and blocking time
 * of each run (signed-in pages are judged on the least blocking one), and the script the page
 * downloads (bytes as sent, so compressed). Returns null when there are no runs.
 */
export function lighthouseRows(root) {
	const dir = path.join(root, LHCI_DIR);
	if (!existsSync(dir)) return null;
	const runs = readdirSync(dir)
		.filter((name) => /^lhr-\d+\.json$/.test(name))
		.sort()
		.map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')));
	if (!runs.length) return null;
	const byPage = new Map();
	for (const run of runs) {
		if (!byPage.has(run.finalUrl)) byPage.set(run.finalUrl, []);
		byPage.get(run.finalUrl).push(run);
	}
	return [...byPage].map(([url, pageRuns]) => {
		const median = medianRun(pageRuns);
		const items = median.audits?.['resource-summary']?.details?.items ?? [];
		return {
			page: new URL(url).pathname,
			scores: Object.fromEntries(
				CATEGORIES.map(([key]) => [key, Math.max(...pageRuns.map((run) => run.categories[key]?.score ?? 0))]),
			),
			performanceRuns: pageRuns.map((run) => run.categories.performance?.score),
			scriptBytes: items.find((item) => item.resourceType === 'script')?.transferSize,
			blockingRuns: pageRuns.map((run) => run.audits?.['total-blocking-time']?.numericValue ?? 0),
		};
	});
}

const percent = (score) => (typeof score === 'number' ? String(Math.round(score * 100)) : '–');

/** The rows as a plain-text table; scores as Lighthouse shows them, out of 100. */
export function lighthouseTable(root) {
	const rows = lighthouseRows(root);
	if (!rows?.length) return null;
	const header = [
		'page',
		...CATEGORIES.map(([, label]) => label),
		'script KB',
		'TBT ms',
		'perf of each run',
		'TBT of each run',
	];
	const body = rows.map((row) => [
		row.page,
		...CATEGORIES.map(([key]) => percent(row.scores[key])),
		row.scriptBytes === undefined ? '–' : (row.scriptBytes / 1024).toFixed(1),
		String(Math.round(Math.min(...row.blockingRuns))),
		row.performanceRuns.map(percent).join(', '),
		row.blockingRuns.map(Math.round).join(', '),
	]);
	const widths = header.map((cell, column) =>
		Math.max(cell.length, ...body.map((line) => line[column].length)),
	);
	const format = (cells) =>
		cells
			.map((cell, column) =>
				column === 0 || column >= cells.length - 2
					? cell.padEnd(widths[column])
					: cell.padStart(widths[column]),
			)
			.join('  ')
			.trimEnd();
	return [
		'Lighthouse, mobile, as the budgets judge it: each score and the blocking time the best of the runs, script from the median run',
		'(budgets: every score at least 95; script at most 14 KB transferred, 30 KB on location pages;',
		' signed-in pages: SEO not judged, no console error in any run, targets of 24 px; performance at least',
		' 95 and blocking time at most 100 ms are the goal, warned about and not judged: they follow the host)',
		format(header),
		...body.map(format),
	].join('\n');
}
