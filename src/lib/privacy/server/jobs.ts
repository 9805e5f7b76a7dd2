import type { AppDeps } from '../../api/context';
import { buildExport, failExport } from './service';

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;

const running = new Set<Promise<void>>();

/** Starts building an export without holding up the request that asked for it. */
export async function startExport(deps: Deps, exportId: number): Promise<void> {
	const work = buildExport(deps, exportId)
		.catch(async (error: unknown) => {
			deps.logger.error({ err: error, exportId }, 'data export failed');
			await failExport(deps, exportId);
		})
		.finally(() => running.delete(work));
	running.add(work);
}

/** Waits for exports under way (tests; a graceful stop). */
export async function settleExports(): Promise<void> {
	await Promise.all([...running]);
}
