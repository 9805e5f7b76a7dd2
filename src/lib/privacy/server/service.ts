import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import yazl from 'yazl';
import { readMemberBasics } from '../../account/server/service';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { type ExportArchive, type ExportedMember, listExportParts } from '../../core/server/member-data';
import { queueMail } from '../../mail/server/service';
import {
	type AccessDataKind,
	type AccessLogEntry,
	EXPORT_LINK_DAYS,
	type ExportStatus,
	type ExportView,
} from '../contract';
import { exportFolder } from './export-files';
import { dataAccessLog, dataExports } from './tables';

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;
type ExportRow = typeof dataExports.$inferSelect;

const gone = () =>
	new AppError('unauthenticated', 'This account no longer exists.', { detail: 'invalid_token' });

// ---------------------------------------------------------------- access log

export async function logDataAccess(
	deps: Deps,
	entry: { userId: number; reader: string; kinds: AccessDataKind[]; purpose: string },
): Promise<void> {
	const now = deps.clock();
	await deps.db.insert(dataAccessLog).values(
		entry.kinds.map((kind) => ({
			userId: entry.userId,
			reader: entry.reader,
			dataKind: kind,
			purpose: entry.purpose,
			accessedAt: now,
		})),
	);
}

export async function listDataAccess(deps: Deps, userId: number, limit = 50): Promise<AccessLogEntry[]> {
	const rows = await deps.db
		.select()
		.from(dataAccessLog)
		.where(eq(dataAccessLog.userId, userId))
		.orderBy(desc(dataAccessLog.accessedAt), desc(dataAccessLog.id))
		.limit(limit);
	return rows.map((row) => ({
		reader: row.reader,
		data_kind: row.dataKind as AccessDataKind,
		purpose: row.purpose,
		accessed_datetime: formatApiDateTime(row.accessedAt),
	}));
}

// ---------------------------------------------------------------- data export

const EXPORT_READER = 'Data export';

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

function presentExport(row: ExportRow, now: Date): ExportView {
	const expired = row.status === 'ready' && row.expiresAt !== null && row.expiresAt <= now;
	return {
		id: row.id,
		status: (expired ? 'expired' : row.status) as ExportStatus,
		progress: row.progress,
		requested_datetime: formatApiDateTime(row.requestedAt),
		completed_datetime: row.completedAt ? formatApiDateTime(row.completedAt) : null,
		expires_datetime: row.expiresAt ? formatApiDateTime(row.expiresAt) : null,
		bytes: row.bytes,
	};
}

/**
 * A member asks for all their data. One request at a time: asking again while one is being built
 * answers the one under way. The caller queues the build (see `privacyJobs`).
 */
export async function requestExport(
	deps: Deps,
	userId: number,
): Promise<{ view: ExportView; created: boolean }> {
	if (!(await readMemberBasics(deps, userId))) throw gone();
	const [open] = await deps.db
		.select()
		.from(dataExports)
		.where(and(eq(dataExports.userId, userId), inArray(dataExports.status, ['queued', 'building'])))
		.limit(1);
	if (open) return { view: presentExport(open, deps.clock()), created: false };
	const [row] = await deps.db
		.insert(dataExports)
		.values({ userId, status: 'queued', requestedAt: deps.clock() })
		.returning();
	deps.logger.info({ userId, exportId: row.id }, 'data export requested');
	return { view: presentExport(row, deps.clock()), created: true };
}

export async function listExports(deps: Deps, userId: number): Promise<ExportView[]> {
	const rows = await deps.db
		.select()
		.from(dataExports)
		.where(eq(dataExports.userId, userId))
		.orderBy(desc(dataExports.id))
		.limit(10);
	const now = deps.clock();
	return rows.map((row) => presentExport(row, now));
}

async function setProgress(deps: Deps, id: number, progress: number): Promise<void> {
	await deps.db.update(dataExports).set({ progress }).where(eq(dataExports.id, id));
}

/**
 * Builds one export: every section the domains registered (src/lib/api/member-data.ts), the member's
 * data as JSON beside their original workout files, their routes as GPX and their photos, in one zip
 * under DATA_DIR/exports, then mails a link that works for seven days and only for them. Safe to run
 * again after a crash: a finished export is left alone, a half-built file is replaced, and the mail
 * goes once (a retry after it was sent does nothing).
 */
export async function buildExport(deps: Deps, exportId: number): Promise<void> {
	const parts = listExportParts();
	const [row] = await deps.db.select().from(dataExports).where(eq(dataExports.id, exportId));
	if (!row || row.mailedAt || row.status === 'failed') return;
	const basics = await readMemberBasics(deps, row.userId);
	if (!basics) return;
	const member: ExportedMember = {
		id: basics.id,
		username: basics.username,
		displayName: basics.displayName,
		email: basics.email,
		isPremium: false,
	};
	await deps.db
		.update(dataExports)
		.set({ status: 'building', progress: 5 })
		.where(eq(dataExports.id, exportId));

	const zip = new yazl.ZipFile();
	const folder = exportFolder(deps.config);
	await mkdir(folder, { recursive: true });
	const fileName = `export-${exportId}-${randomBytes(16).toString('hex')}.zip`;
	const filePath = path.join(folder, fileName);
	const written = pipeline(zip.outputStream, createWriteStream(filePath));
	// Met below, when the archive is awaited: a write that fails sooner (a full disk) must not be
	// left an unhandled rejection, which Node treats as fatal.
	written.catch(() => {});
	// yazl reports a file it cannot read (a photo gone from the disk) as an 'error' event, which would end the
	// process with nothing listening: it fails this try of the export instead.
	zip.on('error', (error: Error) => (zip.outputStream as Readable).destroy(error));
	const when = { mtime: deps.clock() };
	const archive: ExportArchive = {
		addJson: (name, value) => zip.addBuffer(Buffer.from(`${JSON.stringify(value, null, 2)}\n`), name, when),
		addBytes: (name, bytes) => zip.addBuffer(Buffer.from(bytes), name, when),
		addFile: (name, file) => zip.addFile(file, name, when),
	};

	let size: number;
	try {
		for (const [index, part] of parts.entries()) {
			await part.write(deps, member, archive);
			await setProgress(deps, exportId, 5 + Math.round((90 * (index + 1)) / parts.length));
		}
		zip.end();
		await written;
		({ size } = await stat(filePath));
	} catch (error) {
		// A failure part way, a full disk among them (the job tries again later), leaves no
		// half-written archive behind.
		(zip.outputStream as Readable).destroy();
		await written.catch(() => {});
		await rm(filePath, { force: true });
		throw error;
	}

	const token = randomBytes(32).toString('base64url');
	const now = deps.clock();
	const expiresAt = new Date(now.getTime() + EXPORT_LINK_DAYS * 86_400_000);
	try {
		await deps.db
			.update(dataExports)
			.set({
				status: 'ready',
				progress: 100,
				fileName,
				bytes: size,
				tokenHash: hashToken(token),
				completedAt: now,
				expiresAt,
			})
			.where(eq(dataExports.id, exportId));
	} catch (error) {
		// No row names this archive, so nothing would ever remove it.
		await rm(filePath, { force: true });
		throw error;
	}
	// A retry replaces the archive of an earlier try, once the row names the new one.
	if (row.fileName && row.fileName !== fileName)
		await rm(path.join(folder, path.basename(row.fileName)), { force: true });
	await logDataAccess(deps, {
		userId: basics.id,
		reader: EXPORT_READER,
		kinds: ['location', 'health'],
		purpose: 'Your data export, at your request',
	});
	const link = `${deps.config.publicUrl.replace(/\/$/, '')}/privacy_center/export/${exportId}?token=${token}`;
	await queueMail(deps, {
		to: basics.email,
		userId: basics.id,
		subject: 'Your data export is ready',
		text: [
			`Hello ${basics.displayName || basics.username},`,
			'',
			'The archive of your data you asked for is ready. Download it while signed in to your account:',
			link,
			'',
			`The link works for ${EXPORT_LINK_DAYS} days and only when you are signed in as yourself.`,
		].join('\n'),
	});
	await deps.db.update(dataExports).set({ mailedAt: deps.clock() }).where(eq(dataExports.id, exportId));
	deps.logger.info({ userId: basics.id, exportId, bytes: size }, 'data export ready');
}

/** Marks an export failed after its last attempt, so the manage page stops showing progress. */
export async function failExport(deps: Deps, exportId: number): Promise<void> {
	await deps.db
		.update(dataExports)
		.set({ status: 'failed' })
		.where(and(eq(dataExports.id, exportId), inArray(dataExports.status, ['queued', 'building'])));
}

/**
 * The archive behind a download link: only for the member it was made for, only until it expires,
 * and, for the mailed link, only with the token the mail carried. The privacy centre's own link
 * carries no token (`null`): the signed-in member asking for their own export is enough there.
 * Everything else is the same "no such export".
 */
export async function openExport(
	deps: Deps,
	viewerId: number,
	exportId: number,
	token: string | null,
): Promise<{ filePath: string; downloadName: string }> {
	const notFound = new AppError('not_found', 'This download link does not work (it may have expired).');
	const [row] = await deps.db.select().from(dataExports).where(eq(dataExports.id, exportId));
	if (!row || row.userId !== viewerId || row.status !== 'ready' || !row.tokenHash || !row.fileName)
		throw notFound;
	if (token !== null) {
		const given = Buffer.from(hashToken(token));
		const stored = Buffer.from(row.tokenHash);
		if (given.length !== stored.length || !timingSafeEqual(given, stored)) throw notFound;
	}
	if (!row.expiresAt || row.expiresAt <= deps.clock()) throw notFound;
	return {
		filePath: path.join(exportFolder(deps.config), path.basename(row.fileName)),
		downloadName: `mapstride-data-${formatApiDateTime(row.requestedAt).slice(0, 10)}`,
	};
}

/** Expired archives leave the disk; their rows stay as the record that they were asked for. */
export async function removeExpiredExports(deps: Deps): Promise<number> {
	const rows = await deps.db
		.select()
		.from(dataExports)
		.where(and(eq(dataExports.status, 'ready'), lt(dataExports.expiresAt, deps.clock())));
	for (const row of rows) {
		if (row.fileName)
			await rm(path.join(exportFolder(deps.config), path.basename(row.fileName)), { force: true });
		await deps.db
			.update(dataExports)
			.set({ status: 'expired', fileName: null })
			.where(eq(dataExports.id, row.id));
	}
	return rows.length;
}
