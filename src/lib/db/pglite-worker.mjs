// The embedded database on a thread of its own (src/lib/db/pglite-thread.ts is the other end).
// PostgreSQL in WebAssembly runs every statement to its end without yielding; on the server's own
// thread one slow statement held up every request, health checks included. Here it holds up only
// the statements queued behind it, as a real database server would.
import { parentPort, workerData } from 'node:worker_threads';
import { PGlite } from '@electric-sql/pglite';

const keepAsText = (value) => value;
/** Open transactions by id: the transaction's own handle and how to end it. */
const transactions = new Map();
let nextTransactionId = 1;

/** Errors cross threads as plain objects: PostgreSQL's fields (code, constraint, detail, …) intact. */
function plainError(error) {
	const plain = {
		name: error?.name ?? 'Error',
		message: String(error?.message ?? error),
		stack: error?.stack,
	};
	for (const [key, value] of Object.entries(error ?? {})) {
		if (typeof value === 'string' || typeof value === 'number') plain[key] = value;
	}
	return plain;
}

function queryOptions(message) {
	// Callers' value parsers are functions, which cannot cross: they name the types to leave as text.
	const parsers = message.textTypes
		? Object.fromEntries(message.textTypes.map((type) => [type, keepAsText]))
		: {};
	return { rowMode: message.rowMode, parsers };
}

/** Opens a transaction that stays open, across messages, until a commit or rollback message ends it. */
function begin(database) {
	return new Promise((opened, failed) => {
		const id = nextTransactionId++;
		const open = {};
		open.settled = database.transaction(
			(tx) =>
				new Promise((commit, rollBack) => {
					Object.assign(open, { tx, commit, rollBack });
					transactions.set(id, open);
					opened(id);
				}),
		);
		// A BEGIN that fails rejects the opening; later outcomes are read by commit and rollback.
		open.settled.catch(failed).finally(() => transactions.delete(id));
	});
}

async function handle(database, message) {
	switch (message.op) {
		case 'query': {
			const target = message.txId ? transactions.get(message.txId)?.tx : database;
			if (!target) throw new Error('Transaction is closed');
			return target.query(message.sql, message.params, queryOptions(message));
		}
		case 'begin':
			return { txId: await begin(database) };
		case 'commit':
		case 'rollback': {
			const open = transactions.get(message.txId);
			if (!open) throw new Error('Transaction is closed');
			if (message.op === 'commit') open.commit();
			else open.rollBack(new Error('rolled back'));
			try {
				await open.settled;
			} catch (error) {
				if (message.op === 'commit') throw error;
			}
			return null;
		}
		case 'close':
			await database.close();
			return null;
		default:
			throw new Error(`unknown operation ${message.op}`);
	}
}

try {
	const database = await PGlite.create({
		...(workerData.dataDir ? { dataDir: workerData.dataDir } : {}),
		postgresqlconf: workerData.settings,
	});
	parentPort.on('message', (message) => {
		handle(database, message).then(
			(result) => parentPort.postMessage({ id: message.id, result }),
			(error) => parentPort.postMessage({ id: message.id, error: plainError(error) }),
		);
	});
	parentPort.postMessage({ ready: true });
} catch (error) {
	parentPort.postMessage({ ready: false, error: plainError(error) });
}
