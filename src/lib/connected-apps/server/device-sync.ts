import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import { and, desc, eq, inArray, lt } from 'drizzle-orm';
import { WORKOUT_FILE_BODY_LIMIT } from '../../api/body';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { enqueueJob, type JobDefinitions, type JobSchedule } from '../../jobs/server/service';
import { importWorkoutFile } from '../../workouts/server/service';
import type { DeviceCloudView, DeviceConnectionView } from '../contract';
import {
	type DeviceActivity,
	type DeviceCloud,
	DeviceCloudError,
	type DeviceNotice,
	type DeviceTokens,
} from './device-clouds';
import { garminCloud } from './garmin';
import { deviceAuthorizations, deviceConnections, deviceImports } from './tables';
import { forgetTestCloudAccount, TEST_CLOUD_KEY, testDeviceCloud } from './test-cloud';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** Where every cloud sends the member back after they allowed (or refused) us. */
export const DEVICE_CALLBACK_PATH = '/account/device_clouds/callback';

/** A connect has this long between leaving for the cloud and coming back. */
const AUTHORIZATION_SECONDS = 15 * 60;
/** A new connection brings in what was recorded in the day before it. */
const FIRST_SYNC_LOOKBACK_MS = 86_400_000;
/** Each sync looks a little before the newest activity it knows, for one the cloud listed late. */
const SYNC_OVERLAP_MS = 6 * 3600_000;
/** A sync imports at most this many activities; the rest come with the next. */
const ACTIVITIES_PER_SYNC = 50;
const CLOUD_TIMEOUT_MS = 30_000;
export const DEVICE_SYNC_JOB = 'devices.sync';
const DEVICE_POLL_JOB = 'devices.poll';

/** The clouds a member may connect: the built-in test cloud always, Garmin Connect when configured. */
export function deviceClouds(deps: Deps): DeviceCloud[] {
	return [testDeviceCloud(deps), ...(deps.config.garmin ? [garminCloud(deps.config.garmin)] : [])];
}

function cloudOf(deps: Deps, key: string): DeviceCloud {
	const cloud = deviceClouds(deps).find((entry) => entry.key === key);
	if (!cloud) throw new AppError('not_found', 'No such device cloud.');
	return cloud;
}

/** The test cloud lives on our own site, so it is sent back by path and keeps the member's session. */
function callbackUri(deps: Deps, cloud: DeviceCloud): string {
	return cloud.key === TEST_CLOUD_KEY
		? DEVICE_CALLBACK_PATH
		: `${deps.config.publicUrl}${DEVICE_CALLBACK_PATH}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

// Tokens at rest: AES-256-GCM under a key derived from SESSION_SECRET, a fresh nonce each time.
function tokenKey(deps: Deps): Buffer {
	return Buffer.from(hkdfSync('sha256', deps.config.sessionSecret, 'mapstride', 'device-cloud-tokens', 32));
}

export function sealTokens(deps: Deps, tokens: DeviceTokens): string {
	const nonce = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', tokenKey(deps), nonce);
	const sealed = Buffer.concat([cipher.update(JSON.stringify(tokens), 'utf8'), cipher.final()]);
	return [nonce, cipher.getAuthTag(), sealed].map((part) => part.toString('base64url')).join('.');
}

function openTokens(deps: Deps, sealed: string): DeviceTokens {
	const [nonce, tag, body] = sealed.split('.').map((part) => Buffer.from(part, 'base64url'));
	const decipher = createDecipheriv('aes-256-gcm', tokenKey(deps), nonce);
	decipher.setAuthTag(tag);
	return JSON.parse(Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8'));
}

/** Starts a connect: where to send the member's browser. */
export async function startDeviceConnect(deps: Deps, userId: number, cloudKey: string): Promise<string> {
	const cloud = cloudOf(deps, cloudKey);
	const state = randomBytes(24).toString('base64url');
	const codeVerifier = randomBytes(48).toString('base64url');
	const now = deps.clock().getTime();
	await deps.db.delete(deviceAuthorizations).where(lt(deviceAuthorizations.expiresAt, new Date(now)));
	await deps.db.insert(deviceAuthorizations).values({
		stateHash: sha256(state),
		userId,
		cloud: cloud.key,
		codeVerifier,
		expiresAt: new Date(now + AUTHORIZATION_SECONDS * 1000),
	});
	return cloud.authorizeUrl({
		state,
		redirectUri: callbackUri(deps, cloud),
		codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
	});
}

/**
 * The member is back from the cloud. The state must be one this member started, unexpired, used once;
 * then the code is traded for tokens and the connection kept (a second connect replaces the first).
 */
export async function finishDeviceConnect(
	deps: Deps,
	userId: number,
	answer: { state?: string; code?: string; error?: string },
): Promise<{ cloudKey: string; connectionId: number }> {
	const [started] = answer.state
		? await deps.db
				.delete(deviceAuthorizations)
				.where(
					and(
						eq(deviceAuthorizations.stateHash, sha256(answer.state)),
						eq(deviceAuthorizations.userId, userId),
					),
				)
				.returning()
		: [];
	if (!started || started.expiresAt <= deps.clock())
		throw new AppError(
			'bad_request',
			'This connection was not started here, or it took too long. Start it again.',
		);
	const cloud = cloudOf(deps, started.cloud);
	if (answer.error || !answer.code)
		throw new AppError('bad_request', `${cloud.name} was not connected: access was not allowed.`);
	let tokens: DeviceTokens;
	try {
		tokens = await cloud.exchangeCode({
			code: answer.code,
			redirectUri: callbackUri(deps, cloud),
			codeVerifier: started.codeVerifier,
		});
	} catch (error) {
		if (error instanceof DeviceCloudError)
			throw new AppError('bad_request', `${cloud.name} did not confirm the connection. Start it again.`);
		throw error;
	}
	const now = deps.clock();
	const values = {
		userId,
		cloud: cloud.key,
		cloudAccount: tokens.cloudAccount,
		sealedTokens: sealTokens(deps, tokens),
		createdAt: now,
		syncFrom: new Date(now.getTime() - FIRST_SYNC_LOOKBACK_MS),
		lastSyncAt: null,
		lastError: null,
	};
	const [connection] = await deps.db
		.insert(deviceConnections)
		.values(values)
		.onConflictDoUpdate({ target: [deviceConnections.userId, deviceConnections.cloud], set: values })
		.returning({ id: deviceConnections.id });
	await queueSync(deps, connection.id);
	return { cloudKey: cloud.key, connectionId: connection.id };
}

async function queueSync(deps: Deps, connectionId: number): Promise<void> {
	await enqueueJob(deps, { kind: DEVICE_SYNC_JOB, payload: { connectionId }, maxAttempts: 4 });
}

async function ownConnection(deps: Deps, userId: number, connectionId: number) {
	const [row] = await deps.db
		.select()
		.from(deviceConnections)
		.where(and(eq(deviceConnections.id, connectionId), eq(deviceConnections.userId, userId)));
	if (!row) throw new AppError('not_found', 'No such device connection.');
	return row;
}

/** The member asks for a sync now ("Sync now"); it runs in the background. */
export async function requestDeviceSync(deps: Deps, userId: number, connectionId: number): Promise<void> {
	await ownConnection(deps, userId, connectionId);
	await queueSync(deps, connectionId);
}

/**
 * Ends a connection: our access at the cloud first (a cloud that is away is not an error), then the
 * tokens we kept. Workouts it brought stay the member's.
 */
export async function disconnectDevice(deps: Deps, userId: number, connectionId: number): Promise<string> {
	const row = await ownConnection(deps, userId, connectionId);
	const cloud = deviceClouds(deps).find((entry) => entry.key === row.cloud);
	if (cloud)
		await cloud.deauthorize(openTokens(deps, row.sealedTokens)).catch((error) => {
			deps.logger.warn({ err: error, cloud: row.cloud }, 'device cloud deauthorization failed');
		});
	await deps.db.delete(deviceConnections).where(eq(deviceConnections.id, row.id));
	return cloud?.name ?? row.cloud;
}

/** Account deletion: our access at every cloud the member connected ends, and the test cloud forgets them. */
export async function forgetDeviceClouds(deps: Deps, userId: number): Promise<void> {
	const rows = await deps.db
		.select({ id: deviceConnections.id })
		.from(deviceConnections)
		.where(eq(deviceConnections.userId, userId));
	for (const row of rows) await disconnectDevice(deps, userId, row.id);
	await forgetTestCloudAccount(deps, userId);
}

/** A cloud's notice of new activities: a sync for each member it names who is connected. */
export async function noticeDeviceActivities(
	deps: Deps,
	cloudKey: string,
	notices: readonly DeviceNotice[],
): Promise<number> {
	const members = [...new Set(notices.map((notice) => notice.cloudAccount))];
	if (members.length === 0) return 0;
	const rows = await deps.db
		.select({ id: deviceConnections.id })
		.from(deviceConnections)
		.where(and(eq(deviceConnections.cloud, cloudKey), inArray(deviceConnections.cloudAccount, members)));
	for (const row of rows) await queueSync(deps, row.id);
	return rows.length;
}

/** A webhook from a cloud: read by the cloud itself; one that is not its own answers null. */
export async function receiveDeviceWebhook(
	deps: Deps,
	cloudKey: string,
	request: { headers: Headers; body: string },
): Promise<number | null> {
	const cloud = deviceClouds(deps).find((entry) => entry.key === cloudKey);
	const notices = cloud ? await cloud.readWebhook(request) : null;
	return notices ? noticeDeviceActivities(deps, cloudKey, notices) : null;
}

function failureText(cloud: DeviceCloud, error: unknown): string {
	if (error instanceof DeviceCloudError && error.kind === 'auth')
		return `${cloud.name} no longer lets us read your activities. Disconnect and connect it again.`;
	return `${cloud.name} could not be reached. We will try again.`;
}

/**
 * Brings a connection's new activities in: each once (the import row is claimed before the file is
 * fetched), through the workouts' own import path, so a file is checked as any upload is.
 */
export async function syncDeviceConnection(deps: Deps, connectionId: number): Promise<{ imported: number }> {
	const [row] = await deps.db.select().from(deviceConnections).where(eq(deviceConnections.id, connectionId));
	if (!row) return { imported: 0 };
	const cloud = deviceClouds(deps).find((entry) => entry.key === row.cloud);
	if (!cloud) return { imported: 0 };
	const signal = AbortSignal.timeout(CLOUD_TIMEOUT_MS);
	let tokens = openTokens(deps, row.sealedTokens);
	let imported = 0;
	try {
		if (tokens.expiresAt !== undefined && tokens.expiresAt <= deps.clock().getTime() + 60_000) {
			tokens = await cloud.refresh(tokens);
			await deps.db
				.update(deviceConnections)
				.set({ sealedTokens: sealTokens(deps, tokens) })
				.where(eq(deviceConnections.id, row.id));
		}
		const listed = await cloud.listActivities(tokens, row.syncFrom, signal);
		const waiting = await claimActivities(deps, row.userId, cloud.key, listed.slice(0, ACTIVITIES_PER_SYNC));
		let newest = row.syncFrom.getTime();
		for (const activity of waiting) {
			if (await importActivity(deps, row.userId, cloud, tokens, activity, signal)) imported++;
			newest = Math.max(newest, activity.startTime.getTime() - SYNC_OVERLAP_MS);
		}
		await deps.db
			.update(deviceConnections)
			.set({ lastSyncAt: deps.clock(), lastError: null, syncFrom: new Date(newest) })
			.where(eq(deviceConnections.id, row.id));
		return { imported };
	} catch (error) {
		await deps.db
			.update(deviceConnections)
			.set({ lastSyncAt: deps.clock(), lastError: failureText(cloud, error) })
			.where(eq(deviceConnections.id, row.id));
		// A cloud that refuses our access will go on refusing; one that was away may answer later.
		if (error instanceof DeviceCloudError && error.kind === 'auth') return { imported };
		throw error;
	}
}

/** The listed activities not yet brought in: new ones claimed, and ones a crashed sync left pending. */
async function claimActivities(
	deps: Deps,
	userId: number,
	cloud: string,
	listed: DeviceActivity[],
): Promise<DeviceActivity[]> {
	if (listed.length === 0) return [];
	await deps.db
		.insert(deviceImports)
		.values(
			listed.map((activity) => ({
				userId,
				cloud,
				externalId: activity.externalId,
				name: activity.name.slice(0, 200),
				startTime: activity.startTime,
				status: 'pending' as const,
				updatedAt: deps.clock(),
			})),
		)
		.onConflictDoNothing();
	const pending = await deps.db
		.select({ externalId: deviceImports.externalId })
		.from(deviceImports)
		.where(
			and(
				eq(deviceImports.userId, userId),
				eq(deviceImports.cloud, cloud),
				eq(deviceImports.status, 'pending'),
				inArray(
					deviceImports.externalId,
					listed.map((activity) => activity.externalId),
				),
			),
		);
	const waiting = new Set(pending.map((entry) => entry.externalId));
	return listed.filter((activity) => waiting.has(activity.externalId));
}

/** One activity's file imported as a workout; false when it was refused or was already there. */
async function importActivity(
	deps: Deps,
	userId: number,
	cloud: DeviceCloud,
	tokens: DeviceTokens,
	activity: DeviceActivity,
	signal: AbortSignal,
): Promise<boolean> {
	const mark = (values: Partial<typeof deviceImports.$inferInsert>) =>
		deps.db
			.update(deviceImports)
			.set({ ...values, updatedAt: deps.clock() })
			.where(
				and(
					eq(deviceImports.userId, userId),
					eq(deviceImports.cloud, cloud.key),
					eq(deviceImports.externalId, activity.externalId),
				),
			);
	try {
		const file = await cloud.fetchActivityFile(tokens, activity, WORKOUT_FILE_BODY_LIMIT, signal);
		const outcome = await importWorkoutFile(deps, { id: userId }, file, {
			fileName: `${cloud.key}-${activity.externalId}.fit`,
			name: activity.name.slice(0, 100),
		});
		if (outcome.created) {
			await mark({ status: 'imported', workoutId: outcome.workout.id, message: null });
			return !outcome.replayed;
		}
		await mark({ status: 'duplicate', workoutId: outcome.existing.id, message: null });
		return false;
	} catch (error) {
		const refused =
			error instanceof AppError || (error instanceof DeviceCloudError && error.kind === 'refused');
		if (!refused) throw error;
		await mark({ status: 'refused', message: (error as Error).message.slice(0, 300) });
		return false;
	}
}

/** The member's connections, each with the activities it brought in lately, for the connected-apps page. */
export async function listDeviceConnections(deps: Deps, userId: number): Promise<DeviceConnectionView[]> {
	const clouds = new Map(deviceClouds(deps).map((cloud) => [cloud.key, cloud]));
	const rows = await deps.db
		.select()
		.from(deviceConnections)
		.where(eq(deviceConnections.userId, userId))
		.orderBy(deviceConnections.createdAt);
	const imports = await deps.db
		.select()
		.from(deviceImports)
		.where(eq(deviceImports.userId, userId))
		.orderBy(desc(deviceImports.startTime))
		.limit(50);
	return rows.map((row) => ({
		id: row.id,
		cloud: row.cloud,
		name: clouds.get(row.cloud)?.name ?? row.cloud,
		test: clouds.get(row.cloud)?.test ?? false,
		connectedAt: row.createdAt.toISOString(),
		lastSyncAt: row.lastSyncAt?.toISOString() ?? null,
		lastError: row.lastError,
		imports: imports
			.filter((entry) => entry.cloud === row.cloud)
			.slice(0, 10)
			.map((entry) => ({
				name: entry.name,
				startTime: entry.startTime.toISOString(),
				status: entry.status,
				workoutId: entry.workoutId,
				message: entry.message,
			})),
	}));
}

/** The clouds a member may connect, for the page and `remoteconnectiontype/`. */
export function listDeviceClouds(deps: Deps): DeviceCloudView[] {
	return deviceClouds(deps).map((cloud) => ({
		key: cloud.key,
		name: cloud.name,
		description: cloud.description,
		test: cloud.test,
	}));
}

export const deviceJobs: JobDefinitions = {
	[DEVICE_SYNC_JOB]: {
		run: async (payload, deps) => {
			const connectionId = Number(payload.connectionId);
			if (Number.isSafeInteger(connectionId)) await syncDeviceConnection(deps, connectionId);
		},
		maxAttempts: 4,
	},
	// Clouds that do not tell us (or a notice that was lost): every connection is asked twice an hour.
	[DEVICE_POLL_JOB]: {
		run: async (_payload, deps) => {
			const rows = await deps.db.select({ id: deviceConnections.id }).from(deviceConnections);
			for (const row of rows) await queueSync(deps, row.id);
		},
	},
};

export const deviceSchedules: JobSchedule[] = [{ kind: DEVICE_POLL_JOB, cron: '7,37 * * * *' }];
