/**
 * Creates and migrates the embedded database while `npm start` builds, so the first start does not
 * wait for the two one after the other. The folder lock in openDb keeps the server from opening the
 * database before this process has closed it.
 */
import { openDb } from '../src/lib/db/client';

const handle = await openDb({
	databaseUrl: process.env.DATABASE_URL,
	dataDir: process.env.DATA_DIR || './data',
	log: (message) => console.warn(message),
});
await handle.close();
