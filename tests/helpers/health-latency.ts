/**
 * What a test can tell apart from a busy machine's scheduling: work done on the event loop (unpacking
 * a bomb, decoding a huge photo) holds every health answer for a second or more, while another
 * process taking the core delays a few answers by up to a few hundred milliseconds. The goal of
 * under 100 ms is a speed goal, measured and printed by `npm run bench -- uploads`.
 */
export const STALL_MS = 500;

/**
 * Tests bound what a heavy upload adds over a light one of the same shape, not the raw latency: on a
 * shared machine any burst of requests waits for a core, and that wait is not the upload's doing.
 *
 * Polls GET /api/health on `app` every 20 ms until `work` settles and returns each answer's latency,
 * counted from when the poll was due: a blocked event loop delays the timer itself, and that delay
 * is what another member would wait.
 */
export async function healthLatenciesDuring<T>(
	app: { request: (path: string) => Response | Promise<Response> },
	work: Promise<T>,
): Promise<{ result: T; latencies: number[]; worst: number; failures: number }> {
	const latencies: number[] = [];
	const polls: Promise<void>[] = [];
	let failures = 0;
	let due = performance.now();
	let stopAt = Number.POSITIVE_INFINITY;
	const poll = async (dueAt: number) => {
		const response = await app.request('/api/health');
		if (response.status !== 200) failures++;
		latencies.push(performance.now() - dueAt);
	};
	// Every poll that fell due while the loop was busy is sent when it is free again, late.
	const sendDue = (until: number) => {
		for (; due <= until; due += 20) polls.push(poll(due));
	};
	const tick = () => {
		const now = performance.now();
		sendDue(Math.min(now, stopAt));
		if (now < stopAt) setTimeout(tick, Math.max(0, due - performance.now()));
	};
	tick();
	const result = await work;
	stopAt = performance.now();
	sendDue(stopAt);
	await Promise.all(polls);
	return { result, latencies, worst: Math.max(...latencies), failures };
}
