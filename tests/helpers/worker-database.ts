/** Each Vitest worker has its own copy of the migrated PostgreSQL database, made by global setup. */
export function workerDatabaseUrl(url: string, poolId: string): string {
	const workerUrl = new URL(url);
	workerUrl.pathname = `${workerUrl.pathname}_w${poolId}`;
	return workerUrl.toString();
}
