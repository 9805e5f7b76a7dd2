import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import type { Db } from '../core/server/deps';
import { settlesWithin } from '../core/waiting';
import { PgliteThread } from './pglite-thread';

export type DbHandle = {
	db: Db;
	kind: 'pglite' | 'postgres';
	close: () => Promise<void>;
	/** PostgreSQL only: calls `onNotify` at each NOTIFY on `channel`, from any process; resolves to a stop. */
	listen?: Listen;
};

export type Listen = (channel: string, onNotify: () => void) => () => Promise<void>;

export class DatabaseInUseError extends Error {}

/** drizzle-kit writes here; the server runs from the project folder (scripts/start.mjs sees to it). */
export const MIGRATIONS_DIR = path.resolve(process.env.MIGRATIONS_DIR ?? 'src/lib/db/migrations');

export type OpenDbOptions = {
	/** postgres://…, memory://, file://path — or undefined for `<dataDir>/db`. */
	databaseUrl?: string;
	dataDir: string;
	/** Where the embedded database runs: a thread of its own (the default) or the caller's. */
	embeddedThread?: EmbeddedThread;
	log?: (message: string) => void;
};

export type EmbeddedThread = 'worker' | 'main';

export async function openDb(options: OpenDbOptions): Promise<DbHandle> {
	const url = options.databaseUrl;
	const thread = options.embeddedThread ?? 'worker';
	if (url?.startsWith('postgres')) return openPostgres(url);
	if (url === 'memory://' || url?.startsWith('memory://')) return openPglite(undefined, thread);
	const folder = url?.startsWith('file://') ? url.slice('file://'.length) : path.join(options.dataDir, 'db');
	return openEmbedded(path.resolve(folder), options.log ?? console.error, thread);
}

async function openPostgres(url: string): Promise<DbHandle> {
	const pool = new pg.Pool({ connectionString: url, max: 10, connectionTimeoutMillis: 5000 });
	// An idle connection that the server drops (restart, failover, pg_terminate_backend) is an
	// 'error' event on the pool; unheard, it would end the process. The pool replaces it on the
	// next checkout, and a request that was using it answers 503.
	pool.on('error', (error) => console.error(`PostgreSQL connection lost: ${error.message}`));
	// A connection dropped while checked out between two statements (inside a transaction, say)
	// reports on the client itself, where nothing listens either. Its next statement then fails
	// (503) and the pool discards it on release.
	pool.on('connect', (client) => client.on('error', () => {}));
	const close = boundedClose(pool);
	const db = drizzlePg(pool) as unknown as Db;
	await migratePg(db as never, { migrationsFolder: MIGRATIONS_DIR });
	return { db, kind: 'postgres', close, listen: listenToPostgres(url) };
}

const RELISTEN_AFTER_MS = 2000;

/**
 * LISTEN holds a connection of its own for as long as the process runs, outside the pool. When it
 * drops (a restart, a failover) it is made again, and `onNotify` is called once it is back, since a
 * notification sent while it was away is lost.
 */
export function listenToPostgres(url: string): Listen {
	return (channel, onNotify) => {
		if (!/^[a-z_]+$/.test(channel)) throw new Error(`not a channel name: ${channel}`);
		let stopped = false;
		let current: pg.Client | undefined;
		let retry: NodeJS.Timeout | undefined;
		const again = (client: pg.Client) => {
			if (stopped || client !== current) return;
			current = undefined;
			client.end().catch(() => {});
			retry = setTimeout(connect, RELISTEN_AFTER_MS);
		};
		const connect = async () => {
			const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
			current = client;
			client.on('notification', (message) => {
				if (message.channel === channel) onNotify();
			});
			client.on('error', () => again(client));
			client.on('end', () => again(client));
			try {
				await client.connect();
				await client.query(`LISTEN ${channel}`);
				if (!stopped) onNotify();
			} catch {
				again(client);
			}
		};
		void connect();
		return async () => {
			stopped = true;
			clearTimeout(retry);
			await current?.end().catch(() => {});
		};
	};
}

/** How long closing waits for connections still in use (a query under way, a transaction open). */
export const POOL_CLOSE_GRACE_MS = 3000;
/** After their sockets are cut, how long for the holders of those connections to hand them back. */
const POOL_RELEASE_AFTER_CUT_MS = 1000;

/**
 * pg-pool's `end()` closes idle connections at once but resolves only when every checked-out one
 * has been released: a query on a connection whose server went silent, or a client its holder
 * never releases (drizzle keeps the client of a transaction whose `begin` failed), would hold
 * shutdown forever. So connections in use get a grace, then their sockets are cut: a query under
 * way fails, as it would have had the database gone away, and its holder releases the client. A
 * client nobody releases is not waited for once its socket is closed. Call it when the pool is
 * made, so it knows every connection; the returned close may be called more than once.
 */
export function boundedClose(pool: pg.Pool, graceMs = POOL_CLOSE_GRACE_MS): () => Promise<void> {
	const open = new Set<pg.PoolClient>();
	pool.on('connect', (client) => open.add(client));
	pool.on('remove', (client) => open.delete(client));
	let closing: Promise<void> | undefined;
	const close = async () => {
		const ended = pool.end();
		if (await settlesWithin(ended, graceMs)) return;
		for (const client of open) client.connection.stream.destroy();
		await settlesWithin(ended, POOL_RELEASE_AFTER_CUT_MS);
	};
	return () => {
		closing ??= close();
		return closing;
	};
}

/**
 * PGlite's memory is WebAssembly memory, which grows and never shrinks: whatever PostgreSQL touches
 * once stays resident for the life of the process. Its defaults are a server's (160 MB of shared
 * buffers, 64 MB for maintenance); the embedded default serves a family or a club, whose working set
 * fits in far less, and the operating system caches the data folder's files as well.
 */
export const PGLITE_SETTINGS = ['shared_buffers=32MB', 'maintenance_work_mem=16MB', 'temp_buffers=4MB'];

async function openPglite(dataDir: string | undefined, thread: EmbeddedThread): Promise<DbHandle> {
	const client =
		thread === 'worker'
			? await PgliteThread.open({ dataDir, settings: PGLITE_SETTINGS })
			: await PGlite.create({ ...(dataDir ? { dataDir } : {}), postgresqlconf: PGLITE_SETTINGS });
	// Drizzle asks of its client only `query` and `transaction`, which the thread's client answers as PGlite does.
	const db = drizzlePglite({ client: client as PGlite }) as unknown as Db;
	await migratePglite(db as never, { migrationsFolder: MIGRATIONS_DIR });
	return { db, kind: 'pglite', close: () => client.close() };
}

/**
 * PGlite runs no autovacuum, so its planner never gathers column statistics and plans on guesses:
 * it expected 15 workouts for a member who has 10,000, and probed an index 10,000 times to find
 * the few not yet scanned for records. The server analyses the embedded database when it starts and hourly after that (the
 * `db.analyze` job); on PostgreSQL autovacuum does it, and this does nothing. About 0.4 s for a
 * 100 MB database.
 */
export async function refreshPlannerStatistics(db: Db): Promise<boolean> {
	const client = (db as { $client?: unknown }).$client;
	if (!(client instanceof PGlite || client instanceof PgliteThread)) return false;
	await db.execute(sql`ANALYZE`);
	return true;
}

/**
 * PGlite has no multi-process locking (two processes on one folder corrupt it), and a first boot
 * killed during initdb leaves a folder it cannot open. We lock the folder with our pid and create
 * it under a temporary name, renamed only once initdb and migrations finished.
 */
async function openEmbedded(
	folder: string,
	log: (message: string) => void,
	thread: EmbeddedThread,
): Promise<DbHandle> {
	const parent = path.dirname(folder);
	mkdirSync(parent, { recursive: true });
	const lockFile = `${folder}.lock`;
	acquireLock(lockFile);
	try {
		const initialising = `${folder}.initialising`;
		if (existsSync(initialising)) moveAside(initialising, log, 'an earlier first start was interrupted');
		if (existsSync(folder) && !isInitialisedCluster(folder))
			moveAside(folder, log, 'it is not a complete database');
		if (!existsSync(folder)) {
			const fresh = await openPglite(initialising, thread);
			await fresh.close();
			renameSync(initialising, folder);
		}
		const handle = await openPglite(folder, thread);
		let closed = false;
		return {
			...handle,
			close: async () => {
				if (closed) return;
				closed = true;
				await handle.close();
				releaseLock(lockFile);
			},
		};
	} catch (error) {
		releaseLock(lockFile);
		throw error;
	}
}

function isInitialisedCluster(folder: string): boolean {
	return existsSync(path.join(folder, 'PG_VERSION')) && existsSync(path.join(folder, 'global', 'pg_control'));
}

function moveAside(folder: string, log: (message: string) => void, reason: string): void {
	const stamp = new Date().toISOString().replace(/[:.]/g, '-');
	// Keep the source name in the target: two folders may be moved aside in the same millisecond.
	let target = `${folder}.broken-${stamp}`;
	for (let n = 2; existsSync(target); n++) target = `${folder}.broken-${stamp}-${n}`;
	renameSync(folder, target);
	log(
		`Database folder ${folder} was moved to ${target} because ${reason}. Nothing was deleted; a new database is being created.`,
	);
}

function acquireLock(lockFile: string): void {
	for (let attempt = 0; attempt < 2; attempt++) {
		try {
			writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
			return;
		} catch (error) {
			if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
			const owner = Number(readFileSync(lockFile, 'utf8').trim());
			if (owner && owner !== process.pid && isProcessAlive(owner)) {
				throw new DatabaseInUseError(
					`The database in ${path.dirname(lockFile)} is in use by pid ${owner}. Stop that process or set DATA_DIR to another folder.`,
				);
			}
			// The owner died without cleaning up: the lock is stale.
			rmSync(lockFile, { force: true });
		}
	}
	throw new DatabaseInUseError(`Could not lock ${lockFile}`);
}

function releaseLock(lockFile: string): void {
	try {
		if (readFileSync(lockFile, 'utf8').trim() === String(process.pid)) rmSync(lockFile, { force: true });
	} catch {
		// Already gone: nothing to release.
	}
}

function isProcessAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return (error as NodeJS.ErrnoException).code === 'EPERM';
	}
}

/** Lists leftover folders a person may want to inspect; used in the start-up message. */
export function listBrokenFolders(dataDir: string): string[] {
	if (!existsSync(dataDir)) return [];
	return readdirSync(dataDir).filter((name) => name.includes('.broken-'));
}
