import { rm } from 'node:fs/promises';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { AppDeps } from '../../core/server/deps';
import { dataExports } from './tables';

/** Where data-export archives live: their own folder under DATA_DIR. */
export function exportFolder(config: Pick<AppDeps['config'], 'dataDir'>): string {
	return path.resolve(config.dataDir, 'exports');
}

/**
 * Part of deleting an account: the member's archives leave the disk (their rows go with the
 * member's row).
 */
export async function removeMemberExportFiles(
	deps: Pick<AppDeps, 'db' | 'config'>,
	userId: number,
): Promise<void> {
	const rows = await deps.db
		.select({ fileName: dataExports.fileName })
		.from(dataExports)
		.where(eq(dataExports.userId, userId));
	for (const row of rows)
		if (row.fileName)
			await rm(path.join(exportFolder(deps.config), path.basename(row.fileName)), { force: true });
}
