/**
 * GET /api/health through the whole server (launcher → Astro adapter → Hono pipeline → API app)
 * against a bare node:http server answering the same JSON, run side by side on loopback.
 * Goal: the full server keeps at least 85 % of the bare server's requests per second.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import autocannon from 'autocannon';
import { startServer, waitUntilUp } from '../server.ts';

const root = path.resolve(import.meta.dirname, '../../..');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 8);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const CONNECTIONS = 20;

function startBare(port: number): ChildProcess {
	// A separate process, like the full server, so both compete with autocannon the same way.
	const code = `require('node:http').createServer((q,s)=>{const b='{"status":"ok"}';s.writeHead(200,{'content-type':'application/json','content-length':Buffer.byteLength(b)});s.end(b)}).listen(${port},'127.0.0.1',()=>console.log('ready'))`;
	return spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'pipe', 'inherit'] });
}

async function measure(url: string) {
	const result = await autocannon({ url, connections: CONNECTIONS, duration: DURATION_S, pipelining: 1 });
	return {
		rps: result.requests.average,
		p50: result.latency.p50,
		p99: result.latency.p99,
		errors: result.errors + result.non2xx,
	};
}

// A data folder kept between runs (git-ignored): the first run builds the routing graphs, later
// runs load them from the cache, so no import competes with the measurement.
const dataDir = path.join(root, 'data/bench-http');
const bare = startBare(4801);
const full = startServer(4802, dataDir);
try {
	await waitUntilUp('http://127.0.0.1:4801/', bare);
	await waitUntilUp('http://127.0.0.1:4802/api/health', full);
	// Routing regions load in the background after start; wait until they answer.
	await fetch('http://127.0.0.1:4802/api/routing/locate', {
		method: 'POST',
		headers: { 'content-type': 'application/json' },
		body: JSON.stringify({ locations: [{ lat: 42.5063, lon: 1.5218 }], costing: 'pedestrian' }),
	});
	// Warm both up so JIT and the first-request work do not count.
	await autocannon({ url: 'http://127.0.0.1:4802/api/health', connections: 10, duration: 2 });
	await autocannon({ url: 'http://127.0.0.1:4801/', connections: 10, duration: 2 });

	const rows: {
		round: number;
		bare: Awaited<ReturnType<typeof measure>>;
		full: Awaited<ReturnType<typeof measure>>;
	}[] = [];
	for (let round = 1; round <= ROUNDS; round++) {
		const bareResult = await measure('http://127.0.0.1:4801/');
		const fullResult = await measure('http://127.0.0.1:4802/api/health');
		rows.push({ round, bare: bareResult, full: fullResult });
	}
	console.log(
		`\nGET /api/health vs bare node:http — ${CONNECTIONS} connections, ${DURATION_S} s per run, ${ROUNDS} rounds alternated`,
	);
	console.log('round  bare req/s  full req/s  ratio   bare p50/p99 ms  full p50/p99 ms  errors');
	for (const { round, bare: b, full: f } of rows) {
		console.log(
			`${String(round).padEnd(6)} ${b.rps.toFixed(0).padStart(10)} ${f.rps.toFixed(0).padStart(11)} ${((f.rps / b.rps) * 100).toFixed(1).padStart(5)} %   ${`${b.p50}/${b.p99}`.padStart(14)}  ${`${f.p50}/${f.p99}`.padStart(15)}  ${b.errors + f.errors}`,
		);
	}
	const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)];
	const bareMedian = median(rows.map((row) => row.bare.rps));
	const fullMedian = median(rows.map((row) => row.full.rps));
	console.log(
		`median: bare ${bareMedian.toFixed(0)} req/s, full ${fullMedian.toFixed(0)} req/s, full/bare ${((fullMedian / bareMedian) * 100).toFixed(1)} % (goal ≥ 85 %)`,
	);
} finally {
	bare.kill('SIGTERM');
	full.kill('SIGTERM');
	await new Promise((resolve) => full.once('exit', resolve));
}
