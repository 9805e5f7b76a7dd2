import { randomBytes } from 'node:crypto';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { asc, desc, eq, sql } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { checkBirthdate } from '../../auth/contract';
import { heartRateZones, profilePhotos, promotionalPreferences, users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { emit } from '../../core/server/events';
import { ImageRefused, reencodeImage } from '../../core/server/images';
import { listDeletionSteps } from '../../core/server/member-data';
import { writeMemberFiles } from '../../core/server/member-files';
import { meetsMinimumAge } from '../../privacy/contract';
import { relationBetween } from '../../social/server/relations';
import {
	PHOTO_MAX_BYTES,
	PHOTO_MAX_PIXELS,
	type PromotionalPreferenceInput,
	type UserUpdate,
} from '../contract';
import { DEFAULT_HEART_RATE_ZONES } from '../derived';
import { canView } from '../privacy';
import { presentPublicUser, presentSelfUser, userLink } from './presenter';

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;
type UserRow = typeof users.$inferSelect;

/** Anything that must look like "no such member" to the caller. */
const notFound = () => new AppError('not_found', 'Not found.', { detail: 'not_found' });

function badField(field: string, message: string): AppError {
	return new AppError('validation_failed', message, { failures: [{ field, message }] });
}

async function findRow(deps: Pick<AppDeps, 'db'>, id: number): Promise<UserRow | undefined> {
	const [row] = await deps.db.select().from(users).where(eq(users.id, id));
	return row;
}

/** The caller's own row; a token outliving its account (deleted meanwhile) is no longer valid. */
async function viewerRow(deps: Deps, viewer: Viewer): Promise<UserRow> {
	const row = await findRow(deps, viewer.id);
	if (!row)
		throw new AppError('unauthenticated', 'This account no longer exists.', { detail: 'invalid_token' });
	return row;
}

export async function getSelf(deps: Deps, viewer: Viewer) {
	return presentSelfUser(await viewerRow(deps, viewer), deps.clock());
}

/**
 * The owner sees everything; others see the public profile when its privacy allows it, and
 * otherwise the member does not exist for them. Friendships come with the social domain; until
 * then friends-only profiles behave as private to everyone but the owner.
 */
export async function getUser(deps: Deps, viewer: Viewer | null, id: number) {
	const row = await findRow(deps, id);
	if (!row) throw notFound();
	if (viewer?.id === row.id) return presentSelfUser(row, deps.clock());
	if (!canView(viewer?.id, row.id, row.profilePrivacy, await relationBetween(deps.db, viewer, row.id)))
		throw notFound();
	return presentPublicUser(row);
}

export async function updateUser(deps: Deps, viewer: Viewer, id: number, input: UserUpdate) {
	if (viewer.id !== id) {
		// Another member's profile: 404 if they cannot see it, 403 if they can but may not edit.
		const row = await findRow(deps, id);
		if (!row || !canView(viewer.id, row.id, row.profilePrivacy, await relationBetween(deps.db, viewer, id)))
			throw notFound();
		throw new AppError('forbidden', 'You can only change your own profile.', { detail: 'forbidden' });
	}
	const now = deps.clock();
	const changes: Partial<typeof users.$inferInsert> = { updatedAt: now };
	if (input.first_name !== undefined) changes.firstName = input.first_name;
	if (input.last_name !== undefined) changes.lastName = input.last_name;
	if (input.display_name !== undefined) changes.displayName = input.display_name;
	if (input.gender !== undefined) changes.gender = input.gender;
	if (input.birthdate !== undefined) {
		const verdict = checkBirthdate(input.birthdate, now);
		if (verdict === 'invalid') throw badField('birthdate', 'Invalid date.');
		// Too young for their region's consent matrix counts as out of range: the change is refused.
		const country = input.location?.country ?? (await findRow(deps, id))?.country;
		if (verdict === 'out_of_range' || !meetsMinimumAge(country, input.birthdate, now))
			throw badField('birthdate', 'You are ineligible to participate based on your birthdate.');
		changes.birthdate = input.birthdate;
	}
	if (input.location) {
		if (input.location.country !== undefined) changes.country = input.location.country.toUpperCase();
		if (input.location.region !== undefined) changes.region = input.location.region;
		if (input.location.locality !== undefined) changes.locality = input.location.locality;
	}
	if (input.time_zone !== undefined) changes.timeZone = input.time_zone;
	if (input.display_measurement_system !== undefined)
		changes.displayMeasurementSystem = input.display_measurement_system;
	if (input.week_start_day !== undefined) changes.weekStartDay = input.week_start_day;
	if (input.preferred_language !== undefined) changes.preferredLanguage = input.preferred_language;
	if (input.height !== undefined) changes.heightM = input.height;
	if (input.weight !== undefined) changes.weightKg = input.weight;
	if (input.goal_statement !== undefined) changes.goalStatement = input.goal_statement;
	if (input.introduction !== undefined) changes.introduction = input.introduction;
	if (input.privacy) {
		if (input.privacy.profile !== undefined) changes.profilePrivacy = input.privacy.profile;
		if (input.privacy.workout !== undefined) changes.workoutPrivacy = input.privacy.workout;
		if (input.privacy.route !== undefined) changes.routePrivacy = input.privacy.route;
		if (input.privacy.email_search !== undefined) changes.emailSearchPrivacy = input.privacy.email_search;
	}
	const [row] = await deps.db.update(users).set(changes).where(eq(users.id, id)).returning();
	if (!row)
		throw new AppError('unauthenticated', 'This account no longer exists.', { detail: 'invalid_token' });
	const fields = Object.entries(input)
		.filter(([, value]) => value !== undefined)
		.map(([field]) => field);
	await emit(deps, 'member.changed', { memberId: id, fields });
	return presentSelfUser(row, now);
}

/** Where a member lives, when they were born and how to reach them: what consents and exports need. */
export async function readMemberBasics(deps: Pick<AppDeps, 'db'>, userId: number) {
	const row = await findRow(deps, userId);
	if (!row) return null;
	return {
		id: row.id,
		username: row.username,
		email: row.email,
		displayName: row.displayName,
		country: row.country,
		state: row.region,
		birthdate: row.birthdate,
	};
}

/** The goal a member wrote about themself (while signing up, or on their profile); empty when none. */
export async function readGoalStatement(deps: Pick<AppDeps, 'db'>, userId: number): Promise<string> {
	const [row] = await deps.db.select({ goal: users.goalStatement }).from(users).where(eq(users.id, userId));
	return row?.goal.trim() ?? '';
}

/** The member's address while they have not confirmed it; null once confirmed. */
export async function findUnconfirmedEmail(
	deps: Pick<AppDeps, 'db'>,
	userId: number,
): Promise<string | null> {
	const [row] = await deps.db
		.select({ email: users.email, verifiedAt: users.emailVerifiedAt })
		.from(users)
		.where(eq(users.id, userId));
	return row && row.verifiedAt === null ? row.email : null;
}

// ---------------------------------------------------------------- heart-rate zones

/** Heart-rate zones are health data: only their owner sees them. */
export async function getHeartRateZones(deps: Deps, viewer: Viewer, userId: number) {
	if (viewer.id !== userId) throw notFound();
	const row = await viewerRow(deps, viewer);
	const [stored] = await deps.db
		.select()
		.from(heartRateZones)
		.where(eq(heartRateZones.userId, userId))
		.orderBy(desc(heartRateZones.createdAt))
		.limit(1);
	const entry = {
		created_date: formatApiDateTime(stored?.createdAt ?? row.createdAt),
		zones: (stored?.zones ?? DEFAULT_HEART_RATE_ZONES).map((zone) => ({ ...zone })),
		_links: { user: [userLink(userId)] },
	};
	return {
		_embedded: { heart_rate_zones: [entry] },
		total_count: 1,
		_links: { self: [{ href: `/v7.1/heart_rate_zones/?user=${userId}`, id: String(userId) }] },
	};
}

// ---------------------------------------------------------------- promotional preference

function presentPreference(row: typeof promotionalPreferences.$inferSelect) {
	return {
		id: row.id,
		privacy_standard: row.privacyStandard,
		region: row.region,
		preference_type: row.preferenceType,
		choice: row.choice,
		updated_datetime: formatApiDateTime(row.updatedAt),
		_links: {
			self: [{ href: `/v7.1/promotional_preference/${row.id}/`, id: String(row.id) }],
			user: [userLink(row.userId)],
		},
	};
}

/** Every promotional preference the member set, as the API shows them. */
export async function listPromotionalPreferences(deps: Pick<AppDeps, 'db'>, userId: number) {
	const rows = await deps.db
		.select()
		.from(promotionalPreferences)
		.where(eq(promotionalPreferences.userId, userId))
		.orderBy(asc(promotionalPreferences.id));
	return rows.map(presentPreference);
}

/** One preference per member and type: POST and PUT both set it; only for oneself. */
export async function setPromotionalPreference(
	deps: Deps,
	viewer: Viewer,
	input: PromotionalPreferenceInput,
) {
	const linked = input._links?.user?.[0]?.id;
	if (linked !== undefined && String(linked) !== String(viewer.id))
		throw new AppError('forbidden', 'You can only set your own preference.', { detail: 'forbidden' });
	await viewerRow(deps, viewer);
	const now = deps.clock();
	const [row] = await deps.db
		.insert(promotionalPreferences)
		.values({
			userId: viewer.id,
			privacyStandard: input.privacy_standard,
			region: input.region,
			preferenceType: input.preference_type,
			choice: input.choice,
			updatedAt: now,
		})
		.onConflictDoUpdate({
			target: [promotionalPreferences.userId, promotionalPreferences.preferenceType],
			set: {
				choice: input.choice,
				privacyStandard: input.privacy_standard,
				region: input.region,
				updatedAt: now,
			},
		})
		.returning();
	return presentPreference(row);
}

// ---------------------------------------------------------------- profile photo

export function photoFolder(config: Pick<Deps['config'], 'dataDir'>): string {
	return path.resolve(config.dataDir, 'uploads', 'photos');
}

const SIZES = { medium: 256, small: 64 } as const;

/**
 * Checks size and type, decodes under a pixel cap and re-encodes to JPEG: whatever the upload
 * carried besides pixels (EXIF GPS, comments, scripts in a polyglot) does not survive.
 */
export async function setProfilePhoto(deps: Deps, viewer: Viewer, userId: number, bytes: Uint8Array) {
	if (viewer.id !== userId)
		throw new AppError('forbidden', 'You can only change your own photo.', { detail: 'forbidden' });
	const row = await viewerRow(deps, viewer);
	if (bytes.byteLength > PHOTO_MAX_BYTES)
		throw new AppError('payload_too_large', 'The image must be at most 1,000,000 bytes.', {
			detail: 'too-big',
		});
	let rendered: { medium: Buffer; small: Buffer };
	try {
		rendered = (
			await reencodeImage(bytes, PHOTO_MAX_PIXELS, {
				medium: { edge: SIZES.medium, fit: 'cover' },
				small: { edge: SIZES.small, fit: 'cover' },
			})
		).jpegs;
	} catch (error) {
		if (!(error instanceof ImageRefused)) throw error;
		if (error.reason === 'too-many-pixels')
			throw new AppError('payload_too_large', 'The image has too many pixels.', { detail: 'too-big' });
		throw new AppError('bad_request', 'The image must be a PNG, JPEG or GIF.', {
			detail: 'invalid-image-type',
		});
	}
	const stem = `${row.id}-${randomBytes(12).toString('hex')}`;
	const files = { medium: `${stem}-medium.jpg`, small: `${stem}-small.jpg` };
	// The old photo's files go only once the row names the new ones.
	const previous = await writeMemberFiles(
		photoFolder(deps.config),
		{ [files.medium]: rendered.medium, [files.small]: rendered.small },
		async () => {
			const [replaced] = await deps.db.select().from(profilePhotos).where(eq(profilePhotos.userId, row.id));
			const now = deps.clock();
			await deps.db
				.insert(profilePhotos)
				.values({
					userId: row.id,
					smallFile: files.small,
					mediumFile: files.medium,
					bytes: bytes.byteLength,
					updatedAt: now,
				})
				.onConflictDoUpdate({
					target: profilePhotos.userId,
					set: { smallFile: files.small, mediumFile: files.medium, bytes: bytes.byteLength, updatedAt: now },
				});
			return replaced;
		},
	);
	if (previous) await removePhotoFiles(deps, previous);
	const picture = (size: 'Small' | 'Medium') => ({
		href: `/profile/${encodeURIComponent(row.username)}/picture?size=${size}`,
		id: String(row.id),
	});
	return {
		id: row.id,
		_links: {
			self: [{ href: `/v7.1/user_profile_photo/${row.id}/`, id: String(row.id) }],
			small: [picture('Small')],
			medium: [picture('Medium')],
			large: [picture('Medium')],
			user: [userLink(row.id)],
		},
	};
}

async function removePhotoFiles(deps: Deps, photo: { smallFile: string; mediumFile: string }): Promise<void> {
	const folder = photoFolder(deps.config);
	for (const name of [photo.smallFile, photo.mediumFile]) {
		await rm(path.join(folder, path.basename(name)), { force: true });
	}
}

/**
 * The stored avatar file for /profile/{username}/picture, or null (the page then serves the
 * default image): no member, no photo, or a profile the viewer may not see.
 */
export async function findProfilePhoto(
	deps: Pick<Deps, 'db' | 'config'>,
	viewerId: number | null,
	username: string,
	size: 'Small' | 'Medium',
): Promise<{ file: string; updatedAt: Date } | null> {
	const [row] = await deps.db
		.select({
			userId: users.id,
			privacy: users.profilePrivacy,
			smallFile: profilePhotos.smallFile,
			mediumFile: profilePhotos.mediumFile,
			updatedAt: profilePhotos.updatedAt,
		})
		.from(users)
		.innerJoin(profilePhotos, eq(profilePhotos.userId, users.id))
		.where(sql`lower(${users.username}) = ${username.toLowerCase()}`);
	if (!row) return null;
	const relation = await relationBetween(deps.db, viewerId ? { id: viewerId } : null, row.userId);
	if (!canView(viewerId, row.userId, row.privacy, relation)) return null;
	const name = size === 'Small' ? row.smallFile : row.mediumFile;
	return { file: path.join(photoFolder(deps.config), path.basename(name)), updatedAt: row.updatedAt };
}

// ---------------------------------------------------------------- deletion

/**
 * Removes the member: every row that references them (foreign keys cascade from users) in one
 * transaction, and around it each domain's clean-up as src/lib/api/member-data.ts registers it
 * (sign-ins end first, billing closes before its rows go, files go before the rows that name them).
 */
export async function deleteAccount(deps: AppDeps, userId: number): Promise<void> {
	const steps = listDeletionSteps();
	const row = await findRow(deps, userId);
	if (!row) return;
	const member = { id: row.id, email: row.email };
	for (const step of steps) await step.beforeRows?.(deps, member);
	// The profile photo's files go once no row names them.
	const [photo] = await deps.db.select().from(profilePhotos).where(eq(profilePhotos.userId, userId));
	await deps.db.transaction(async (tx) => {
		await tx.delete(users).where(eq(users.id, userId));
		for (const step of steps) await step.withRows?.(tx, member);
	});
	if (photo) await removePhotoFiles(deps, photo);
	for (const step of steps) await step.afterRows?.(deps, member);
	deps.logger.info({ userId }, 'account deleted');
}
