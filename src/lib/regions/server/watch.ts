import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listExtracts } from '../../routing/server/regions.ts';

/** The extracts in the folders, by name, size and time: it changes when a region is added, replaced or removed. */
export function describeExtracts(folders: string[]): string {
	return folders
		.flatMap((dir) =>
			listExtracts(dir).map((file) => {
				const path = join(dir, file);
				if (!existsSync(path)) return path;
				const { size, mtimeMs } = statSync(path);
				return `${path}:${size}:${mtimeMs}`;
			}),
		)
		.join('\n');
}

/**
 * Calls `onChange` when the extracts in the folders change: `npm run regions` renames a finished
 * extract into place (or removes one), and a running server then loads the regions again. A look
 * every few seconds costs a directory listing; file-system events are not reliable on every disk.
 */
export function watchRegionFolders(
	folders: string[],
	onChange: () => void,
	intervalMs = 3000,
): { stop: () => void } {
	let last = describeExtracts(folders);
	const timer = setInterval(() => {
		const now = describeExtracts(folders);
		if (now === last) return;
		last = now;
		onChange();
	}, intervalMs);
	timer.unref();
	return { stop: () => clearInterval(timer) };
}
