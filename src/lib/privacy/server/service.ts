import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import yazl from 'yazl';
import { hideEndsOf, listPrivacyZones } from '../../account/server/location-privacy';
import {
	findProfilePhoto,
	getHeartRateZones,
	getSelf,
	listPromotionalPreferences,
	readMemberBasics,
} from '../../account/server/service';
import { membershipForExport } from '../../billing/server/payment-history';
import { listOwnChallengeEntries } from '../../challenges/server/catalogue';
import { listDeviceConnections } from '../../connected-apps/server/device-sync';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { listGear, representGear } from '../../gear/server/service';
import { listGoalsWithProgress, representGoal } from '../../goals/server/service';
import { queueMail } from '../../mail/server/service';
import { listBookmarks } from '../../routes/server/bookmarks';
import { routeToGpx } from '../../routes/server/files';
import { listOwnRoutes } from '../../routes/server/lists';
import { listOwnComments, listOwnFeedActivity } from '../../social/server/data-export';
import { listFriendships } from '../../social/server/friendships';
import { listSurveyAnswers } from '../../surveys/server/service';
import { hasOriginalFile, originalFile } from '../../workouts/server/detail';
import { workoutPhotoFolder } from '../../workouts/server/photo-files';
import { listWorkoutPhotos } from '../../workouts/server/photos';
import { aggregatesOf, listAllOwnWorkouts } from '../../workouts/server/service';
import {
	type AccessDataKind,
	type AccessLogEntry,
	EXPORT_LINK_DAYS,
	type ExportStatus,
	type ExportView,
} from '../contract';
import { getConsentStatus, listConsentHistory } from './consents';
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

const json = (value: unknown) => Buffer.from(`${JSON.stringify(value, null, 2)}\n`);

/**
 * Builds one export: the member's data as JSON, their original workout files, their routes as GPX
 * and their profile photo, in one zip under DATA_DIR/exports, then mails a link that works for seven days and only
 * for them. Safe to run again after a crash: a finished export is left alone, a half-built file is
 * replaced, and the mail goes once (a retry after it was sent does nothing).
 */
export async function buildExport(deps: Deps, exportId: number): Promise<void> {
	const [row] = await deps.db.select().from(dataExports).where(eq(dataExports.id, exportId));
	if (!row || row.mailedAt || row.status === 'failed') return;
	const basics = await readMemberBasics(deps, row.userId);
	if (!basics) return;
	const viewer = {
		id: basics.id,
		username: basics.username,
		displayName: basics.displayName,
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

	let size: number;
	try {
		zip.addBuffer(json(await getSelf(deps, viewer)), 'profile.json', when);
		const status = await getConsentStatus(deps, basics.id);
		zip.addBuffer(
			json({
				email: basics.email,
				country: status.country,
				privacy_region: status.region,
				do_not_sell_applies: status.do_not_sell_applies,
				promotional_preferences: await listPromotionalPreferences(deps, basics.id),
				heart_rate_zones: (await getHeartRateZones(deps, viewer, basics.id))._embedded.heart_rate_zones[0]
					.zones,
				location_privacy: {
					hide_route_ends_m: await hideEndsOf(deps, basics.id),
					privacy_zones: (await listPrivacyZones(deps, viewer)).map((zone) => ({
						name: zone.name,
						lat: zone.lat,
						lng: zone.lng,
						radius_m: zone.chosenRadiusM,
						created_datetime: formatApiDateTime(zone.createdAt),
					})),
				},
			}),
			'settings.json',
			when,
		);
		zip.addBuffer(
			json({ current: status.consents, history: await listConsentHistory(deps, basics.id, 10_000) }),
			'consents.json',
			when,
		);
		const photo = await findProfilePhoto(deps, basics.id, basics.username, 'Medium');
		if (photo) zip.addFile(photo.file, `photos/profile${path.extname(photo.file)}`, when);
		await setProgress(deps, exportId, 20);

		const routes = await listOwnRoutes(deps, basics.id);
		zip.addBuffer(
			json(
				routes.map((route) => ({
					id: route.id,
					name: route.name,
					distance: route.distanceM,
					privacy: route.privacy,
					created_datetime: formatApiDateTime(route.createdAt),
					gpx: `routes/${route.id}.gpx`,
				})),
			),
			'routes.json',
			when,
		);
		for (const route of routes)
			zip.addBuffer(Buffer.from(routeToGpx(route).body), `routes/${route.id}.gpx`, when);
		const { bookmarks } = await listBookmarks(deps, viewer, { limit: 10_000 });
		zip.addBuffer(
			json(
				bookmarks.map((bookmark) => ({
					route: bookmark.routeId,
					name: bookmark.route.name,
					created_datetime: formatApiDateTime(bookmark.createdAt),
				})),
			),
			'bookmarks.json',
			when,
		);
		await setProgress(deps, exportId, 45);

		const { workouts } = await listAllOwnWorkouts(deps, viewer, {});
		const workoutEntries = [];
		for (const workout of workouts) {
			let original: string | null = null;
			if (await hasOriginalFile(deps, workout.id)) {
				const file = await originalFile(deps, viewer, workout.id);
				original = `workouts/${workout.id}-${file.fileName}`;
				zip.addBuffer(Buffer.from(file.body), original, when);
			}
			const photos = [];
			for (const photo of await listWorkoutPhotos(deps, workout.id)) {
				const file = `photos/workout-${workout.id}-${photo.id}.jpg`;
				zip.addFile(
					path.join(workoutPhotoFolder(deps.config, basics.id, workout.id), `${photo.fileStem}-large.jpg`),
					file,
					when,
				);
				photos.push({
					id: photo.id,
					width: photo.width,
					height: photo.height,
					created_datetime: formatApiDateTime(photo.createdAt),
					file,
				});
			}
			workoutEntries.push({
				id: workout.id,
				name: workout.name,
				activity_type: workout.activityTypeId,
				start_datetime: formatApiDateTime(workout.startDatetime),
				aggregates: aggregatesOf(workout),
				privacy: workout.privacy,
				gear: workout.gearId,
				original_file: original,
				photos,
			});
		}
		zip.addBuffer(json(workoutEntries), 'workouts.json', when);
		zip.addBuffer(json((await listGear(deps, viewer)).map(representGear)), 'gear.json', when);
		// The device clouds connected and what each brought in; the clouds' tokens are never exported.
		zip.addBuffer(json(await listDeviceConnections(deps, basics.id)), 'device_connections.json', when);
		await setProgress(deps, exportId, 75);

		const { goals } = await listGoalsWithProgress(deps, viewer, { user: basics.id });
		zip.addBuffer(json(goals.map((goal) => representGoal(goal, 'UTC'))), 'goals.json', when);
		zip.addBuffer(
			json(
				(await listOwnChallengeEntries(deps, basics.id)).map((entry) => ({
					challenge: entry.challengeId,
					name: entry.name,
					name_shown_on_leaderboard: entry.showName,
					progress: entry.progress,
					workouts_counted: entry.workoutCount,
					progress_datetime: formatApiDateTime(entry.reachedAt),
				})),
			),
			'challenges.json',
			when,
		);
		const friends = await listFriendships(deps, viewer, { limit: 10_000 });
		zip.addBuffer(
			json(
				friends.rows.map((friendship) => ({
					from_user: friendship.fromUserId,
					to_user: friendship.toUserId,
					status: friendship.status,
					created_datetime: formatApiDateTime(friendship.createdAt),
				})),
			),
			'friends.json',
			when,
		);
		const comments = await listOwnComments(deps, basics.id);
		zip.addBuffer(
			json(
				comments.map((comment) => ({
					id: comment.id,
					on: { type: comment.objectType, id: comment.objectId },
					reply_to: comment.parentCommentId,
					text: comment.text,
					created_datetime: formatApiDateTime(comment.createdAt),
				})),
			),
			'comments.json',
			when,
		);
		const feed = await listOwnFeedActivity(deps, basics.id);
		zip.addBuffer(
			json({
				likes: feed.likes.map((like) => ({
					on: { type: like.objectType, id: like.objectId },
					created_datetime: formatApiDateTime(like.createdAt),
				})),
				stories: feed.stories.map((story) => ({
					id: story.id,
					about: { type: story.objectType, id: story.subjectId },
					period: story.period || null,
					title: story.title,
					details: story.details,
					live: story.live,
					published_datetime: formatApiDateTime(story.publishedAt),
				})),
				removed_from_feeds: feed.removed.map((removed) => ({
					type: removed.objectType,
					id: removed.objectId,
				})),
				blocked_members: feed.blocks.map((block) => ({
					user: block.blockedId,
					created_datetime: formatApiDateTime(block.createdAt),
				})),
			}),
			'feed.json',
			when,
		);
		zip.addBuffer(json(await membershipForExport(deps, viewer)), 'membership.json', when);
		zip.addBuffer(json(await listSurveyAnswers(deps, basics.id)), 'surveys.json', when);
		zip.addBuffer(
			json({ access_log: await listDataAccess(deps, basics.id, 10_000) }),
			'data-access-log.json',
			when,
		);
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
