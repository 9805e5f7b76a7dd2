import { join } from 'node:path';

/**
 * The data folder as the routing engine's own tools see it: DATA_DIR, or `data` beside the process.
 * The engine also runs outside the server (its CLI, the region import), where no config is read.
 */
export function routingDataPath(...parts: string[]): string {
	return join(process.env.DATA_DIR ?? join(process.cwd(), 'data'), ...parts);
}
