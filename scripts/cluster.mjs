import './check-node.mjs';
import cluster from 'node:cluster';
import path from 'node:path';
import { ensureBuilt } from './ensure-build.mjs';

/**
 * `npm run cluster`: CLUSTER_WORKERS server processes (scripts/start.mjs each) on one port, which
 * node:cluster's primary accepts on and hands out in turn, all on one PostgreSQL. Each process
 * keeps nothing another needs: sessions, request budgets and jobs live in the database.
 */
const root = path.resolve(import.meta.dirname, '..');
process.chdir(root);

if (!/^postgres(ql)?:\/\//.test(process.env.DATABASE_URL ?? '')) {
	console.error(
		'npm run cluster needs DATABASE_URL=postgres://… : every process must reach the same database, ' +
			'and the embedded database (a data folder) may be opened by one process only. ' +
			'Use npm start for a single process on the embedded database.',
	);
	process.exit(1);
}
const countText = process.env.CLUSTER_WORKERS ?? '2';
const count = /^\d{1,3}$/.test(countText) ? Number(countText) : 0;
if (count < 1) {
	console.error(`CLUSTER_WORKERS must be a whole number of processes, 1 or more; it is "${countText}".`);
	process.exit(1);
}

await ensureBuilt(root);

cluster.setupPrimary({ exec: path.join(root, 'scripts/start.mjs') });
const workerEnv = { MAPSTRIDE_SKIP_BUILD: '1' };
const live = new Set();
/** Workers that have listened once: one that dies later is replaced, one that never did is a failed start. */
const listened = new WeakSet();
let stopping = false;
let failed = false;

function fork() {
	const worker = cluster.fork(workerEnv);
	live.add(worker);
	worker.once('listening', () => listened.add(worker));
	return worker;
}

function stopAll() {
	stopping = true;
	for (const worker of live) worker.process.kill('SIGTERM');
}

cluster.on('exit', (worker, code, signal) => {
	live.delete(worker);
	const how = signal ? `signal ${signal}` : `code ${code}`;
	if (stopping) {
		if (code !== 0) failed = true;
	} else if (!listened.has(worker)) {
		console.error(
			`Process ${worker.id} (pid ${worker.process.pid}) failed to start (${how}); stopping the others.`,
		);
		failed = true;
		stopAll();
	} else {
		console.error(`Process ${worker.id} (pid ${worker.process.pid}) exited (${how}); starting another.`);
		fork();
	}
	if (live.size === 0) process.exit(failed ? 1 : 0);
});

for (const signal of ['SIGTERM', 'SIGINT'])
	process.on(signal, () => {
		if (stopping) return;
		console.log(`${signal} received: each process finishes its requests in flight, then stops.`);
		stopAll();
	});

// The first process migrates the database; the others start once it listens, so they never race
// to apply the same migration.
fork().once('listening', (address) => {
	if (stopping) return;
	for (let i = 1; i < count; i++) fork();
	let ready = 1;
	const announce = () => console.log(`Mapstride cluster: ${count} processes on port ${address.port}.`);
	if (ready === count) return announce();
	cluster.on('listening', () => {
		if (++ready === count) announce();
	});
});
