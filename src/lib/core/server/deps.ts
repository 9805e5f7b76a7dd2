import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type { Logger } from 'pino';
import type { Config } from '../config';

/**
 * One type for both drivers (PGlite and PostgreSQL), and for a transaction opened on either:
 * services never know which database they talk to, nor whether they run inside a transaction.
 */
export type Db = PgDatabase<PgQueryResultHKT>;

/**
 * The world a service runs in: the database, the configuration, the logger and the clock. Requests,
 * jobs, the command line and tests each build one; services take what they need from it.
 */
export type AppDeps = {
	db: Db;
	config: Config;
	logger: Logger;
	/** Injected so tests can move time (token expiry, lockouts) without waiting. */
	clock: () => Date;
};
