import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, gte, lte, sql } from 'drizzle-orm';
import { WORKOUT_FILE_BODY_LIMIT } from '../../api/body';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { writeMemberFiles } from '../../core/server/member-files';
import { cleanText, truncateText } from '../../core/text';
import { enqueueJob } from '../../jobs/server/service';
import { isWorkoutFileError } from '../../workout-files';
import { isZip } from '../../workout-files/containers';
import {
	type ArchiveLimits,
	ArchiveRefusal,
	readWorkoutEntries,
	scanArchive,
} from '../../workout-files/server/archive';
import { sharedParsePool } from '../../workout-files/server/parse-pool';
import type { BulkImportProgress } from '../contract';
import type { DerivedFileWorkout } from './derive-file';
import { ownerDefaults, packOriginal, storeDerivedWorkout, WORKOUT_FILE_LIMITS } from './service';
import { type BulkImportFileResult, workoutBulkImports, workouts } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/**
 * A Strava or Garmin export: up to 2,000 entries (workouts, photos, CSV), each workout file at
 * most what one upload may be, 1 GB unpacked in all.
 */
export const BULK_IMPORT_LIMITS: ArchiveLimits = {
	maxEntries: 2000,
	maxTotalBytes: 1024 * 1024 * 1024,
	maxEntryBytes: WORKOUT_FILE_BODY_LIMIT,
};
/** Imports one member may have waiting or running at once. */
const MAX_OPEN_IMPORTS = 3;
export const BULK_IMPORT_JOB = 'workouts.bulk-import';
export const BULK_IMPORT_ATTEMPTS = 3;

export function importFolder(config: Pick<Deps['config'], 'dataDir'>): string {
	return path.resolve(config.dataDir, 'imports');
}

function refusalError(refusal: ArchiveRefusal): AppError {
	return new AppError(refusal.tooLarge ? 'payload_too_large' : 'bad_request', refusal.message, {
		detail: `archive_${refusal.code}`,
	});
}

/**
 * Keeps the uploaded zip under DATA_DIR/imports, checks its directory, and queues its import. A
 * hostile or empty archive is refused here, before anything is inflated, and leaves the disk.
 */
export async function startBulkImport(
	deps: Deps,
	viewer: { id: number } | null,
	bytes: Uint8Array,
): Promise<{ id: number; total: number }> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to import workouts');
	if (!isZip(bytes))
		throw new AppError('bad_request', 'Send a .zip file (such as a Strava or Garmin export).', {
			detail: 'archive_not_zip',
		});
	const [open] = await deps.db
		.select({ n: sql<number>`count(*)::int`.mapWith(Number) })
		.from(workoutBulkImports)
		.where(
			and(
				eq(workoutBulkImports.userId, viewer.id),
				sql`${workoutBulkImports.status} in ('queued', 'running')`,
			),
		);
	if ((open?.n ?? 0) >= MAX_OPEN_IMPORTS)
		throw new AppError('rate_limited', 'Wait for your imports under way to finish before starting another.', {
			detail: 'imports_under_way',
		});
	const fileName = `import-${viewer.id}-${randomBytes(16).toString('hex')}.zip`;
	// A refused archive, like a row that cannot be stored, takes the file off the disk again.
	return writeMemberFiles(
		importFolder(deps.config),
		{ [fileName]: bytes },
		async ([filePath]) => {
			let files: string[];
			try {
				files = await scanArchive(filePath, BULK_IMPORT_LIMITS);
			} catch (error) {
				if (error instanceof ArchiveRefusal) throw refusalError(error);
				throw error;
			}
			// The row and its job together: an import is never left without the job that runs it.
			return deps.db.transaction(async (tx) => {
				const [row] = await tx
					.insert(workoutBulkImports)
					.values({ userId: viewer.id, fileName, total: files.length, createdAt: deps.clock() })
					.returning({ id: workoutBulkImports.id });
				await enqueueJob(
					{ db: tx, clock: deps.clock },
					{
						kind: BULK_IMPORT_JOB,
						payload: { importId: row.id },
						uniqueKey: `${BULK_IMPORT_JOB}:${row.id}`,
						maxAttempts: BULK_IMPORT_ATTEMPTS,
					},
				);
				return { id: row.id, total: files.length };
			});
		},
		{ folder: 0o700, file: 0o600 },
	);
}

/**
 * A workout the member already has: one starting within the same second that is the same recording,
 * the same activity, or the same distance to within 1% (the same run exported by two services).
 */
export async function findDuplicateWorkout(
	deps: Pick<AppDeps, 'db'>,
	ownerId: number,
	derived: Pick<DerivedFileWorkout, 'startDatetime' | 'contentHash' | 'activityType' | 'distanceTotal'>,
): Promise<number | null> {
	const start = derived.startDatetime.getTime();
	const candidates = await deps.db
		.select({
			id: workouts.id,
			contentHash: workouts.contentHash,
			activityTypeId: workouts.activityTypeId,
			distanceTotal: workouts.distanceTotal,
		})
		.from(workouts)
		.where(
			and(
				eq(workouts.ownerId, ownerId),
				gte(workouts.startDatetime, new Date(start - 999)),
				lte(workouts.startDatetime, new Date(start + 999)),
			),
		);
	const distance = derived.distanceTotal;
	const match = candidates.find(
		(row) =>
			row.contentHash === derived.contentHash ||
			row.activityTypeId === derived.activityType ||
			(distance !== null &&
				row.distanceTotal !== null &&
				Math.abs(row.distanceTotal - distance) <= Math.max(10, distance * 0.01)),
	);
	return match?.id ?? null;
}

function storableName(name: string): string {
	return truncateText(cleanText(name.split('/').at(-1) ?? name, 'single-line').trim(), 200);
}

async function appendResult(deps: Deps, importId: number, result: BulkImportFileResult): Promise<void> {
	await deps.db
		.update(workoutBulkImports)
		.set({ results: sql`${workoutBulkImports.results} || ${JSON.stringify([result])}::jsonb` })
		.where(eq(workoutBulkImports.id, importId));
}

async function importOne(
	deps: Deps,
	ownerId: number,
	defaults: Awaited<ReturnType<typeof ownerDefaults>>,
	file: string,
	bytes: Uint8Array,
): Promise<BulkImportFileResult> {
	if (isZip(bytes))
		return {
			file,
			outcome: 'failed',
			reason: 'This file is itself an archive; we do not unpack archives inside archives.',
		};
	let derived: DerivedFileWorkout | null;
	try {
		derived = await sharedParsePool().deriveWorkoutFile(bytes, {
			limits: WORKOUT_FILE_LIMITS,
			fileName: file,
			weightKg: defaults.weightKg,
		});
	} catch (error) {
		if (isWorkoutFileError(error)) return { file, outcome: 'failed', reason: error.message };
		throw error;
	}
	if (!derived)
		return { file, outcome: 'failed', reason: 'This file has no timed samples, so it holds no workout.' };
	const duplicate = await findDuplicateWorkout(deps, ownerId, derived);
	if (duplicate !== null) return { file, outcome: 'duplicate', workoutId: duplicate };
	const stored = await storeDerivedWorkout(deps, ownerId, derived, {
		privacy: defaults.privacy,
		timeZone: derived.recordedTimeZone ?? defaults.timeZone,
		original: { fileName: file, contentGzipBase64: await packOriginal(bytes) },
	});
	return stored.created
		? { file, outcome: 'imported', workoutId: stored.workout.id }
		: { file, outcome: 'duplicate', workoutId: stored.existing.id };
}

/**
 * The job: reads the archive's workout files one at a time and records each outcome as it goes,
 * so the upload page shows progress and a retry after a crash carries on where it stopped.
 */
export async function runBulkImport(deps: Deps, importId: number): Promise<void> {
	const [row] = await deps.db.select().from(workoutBulkImports).where(eq(workoutBulkImports.id, importId));
	if (!row || row.status === 'done' || row.status === 'failed' || !row.fileName) return;
	await deps.db
		.update(workoutBulkImports)
		.set({ status: 'running' })
		.where(eq(workoutBulkImports.id, importId));
	const filePath = path.join(importFolder(deps.config), path.basename(row.fileName));
	const defaults = await ownerDefaults(deps, row.userId);
	try {
		for await (const entry of readWorkoutEntries(filePath, BULK_IMPORT_LIMITS, row.results.length)) {
			const file = storableName(entry.name);
			const result = entry.error
				? { file, outcome: 'failed' as const, reason: entry.error.message }
				: await importOne(deps, row.userId, defaults, file, entry.bytes);
			await appendResult(deps, importId, result);
		}
	} catch (error) {
		if (!(error instanceof ArchiveRefusal)) throw error;
		await finishBulkImport(deps, importId, 'failed', error.message);
		return;
	}
	await finishBulkImport(deps, importId, 'done', null);
}

/** Ends an import and takes its archive off the disk. */
export async function finishBulkImport(
	deps: Deps,
	importId: number,
	status: 'done' | 'failed',
	error: string | null,
): Promise<void> {
	const [row] = await deps.db
		.select({ fileName: workoutBulkImports.fileName })
		.from(workoutBulkImports)
		.where(eq(workoutBulkImports.id, importId));
	await deps.db
		.update(workoutBulkImports)
		.set({ status, error, finishedAt: deps.clock(), fileName: null })
		.where(eq(workoutBulkImports.id, importId));
	if (row?.fileName)
		await rm(path.join(importFolder(deps.config), path.basename(row.fileName)), { force: true });
}

/** One of the member's imports with its progress; anyone else's is 404. */
export async function getBulkImport(
	deps: Pick<AppDeps, 'db'>,
	viewer: { id: number } | null,
	importId: number,
): Promise<BulkImportProgress> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to see your imports');
	const [row] = await deps.db
		.select()
		.from(workoutBulkImports)
		.where(and(eq(workoutBulkImports.id, importId), eq(workoutBulkImports.userId, viewer.id)));
	if (!row) throw new AppError('not_found', 'No such import');
	return representBulkImport(row);
}

/** The member's latest imports, newest first, for the upload page to list. */
export async function listBulkImports(
	deps: Pick<AppDeps, 'db'>,
	viewer: { id: number },
	limit = 10,
): Promise<BulkImportProgress[]> {
	const rows = await deps.db
		.select()
		.from(workoutBulkImports)
		.where(eq(workoutBulkImports.userId, viewer.id))
		.orderBy(desc(workoutBulkImports.id))
		.limit(limit);
	return rows.map(representBulkImport);
}

function representBulkImport(row: typeof workoutBulkImports.$inferSelect): BulkImportProgress {
	const count = (outcome: BulkImportFileResult['outcome']) =>
		row.results.filter((result) => result.outcome === outcome).length;
	return {
		id: row.id,
		status: row.status,
		total: row.total,
		processed: row.results.length,
		imported: count('imported'),
		skipped_duplicates: count('duplicate'),
		failed: count('failed'),
		error: row.error,
		created_datetime: formatApiDateTime(row.createdAt),
		finished_datetime: row.finishedAt ? formatApiDateTime(row.finishedAt) : null,
		files: row.results.map((result) => ({
			file: result.file,
			outcome: result.outcome,
			...(result.reason ? { reason: result.reason } : {}),
			...(result.workoutId ? { workout_id: result.workoutId } : {}),
		})),
	};
}

/**
 * Part of deleting an account: archives still waiting to be imported leave the disk (their rows
 * go with the member's row, and a job that wakes for one finds nothing).
 */
export async function removeMemberImportFiles(deps: Deps, userId: number): Promise<void> {
	const rows = await deps.db
		.select({ fileName: workoutBulkImports.fileName })
		.from(workoutBulkImports)
		.where(eq(workoutBulkImports.userId, userId));
	for (const row of rows)
		if (row.fileName)
			await rm(path.join(importFolder(deps.config), path.basename(row.fileName)), { force: true });
}
