import { createHash, createHmac, randomBytes } from 'node:crypto';
import { and, asc, eq, gte, isNull } from 'drizzle-orm';
import type { Config } from '../../core/config';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { writeFit } from '../../workout-files';
import {
	TEST_WATCH_OUTINGS,
	type TestWatchOuting,
	testWatchDurationMs,
	testWatchRecording,
} from '../../workouts/server/demo';
import { type DeviceActivity, type DeviceCloud, DeviceCloudError, type DeviceTokens } from './device-clouds';
import { testCloudActivities, testCloudTokens } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

/**
 * The built-in test device cloud. It keeps its own codes, tokens and activities, checks PKCE and
 * tokens as a real cloud does, and its test watch records demo outings replayed from real recordings,
 * so a member can try connect → new activity → workout → disconnect anywhere. Every page that shows it
 * says it is a test. It tells us about new activities in-process (device-sync.ts), not by webhook.
 */
export const TEST_CLOUD_KEY = 'test';
export const TEST_CLOUD_NAME = 'Test device cloud';

/** Its consent page, on our own site: its codes go back to our callback on the same site. */
export const TEST_CLOUD_AUTHORIZE_PATH = '/device-cloud/test/authorize';

const CODE_SECONDS = 60;
const ACCESS_SECONDS = 3600;
const REFRESH_SECONDS = 90 * 86_400;

const hash = (token: string) => createHash('sha256').update(token).digest('hex');
const newToken = () => randomBytes(32).toString('base64url');

/** The member's account at the test cloud: a stable id that is not their id with us. */
export function testCloudAccountOf(config: Pick<Config, 'sessionSecret'>, userId: number): string {
	return `tw-${createHmac('sha256', config.sessionSecret).update(`test-cloud:${userId}`).digest('hex').slice(0, 20)}`;
}

/** The member allowed us at the test cloud: a code for `redirectUri`, bound to the PKCE challenge. */
export async function grantTestCloudCode(
	deps: Deps,
	userId: number,
	request: { redirectUri: string; codeChallenge: string },
): Promise<string> {
	const code = newToken();
	await deps.db.insert(testCloudTokens).values({
		tokenHash: hash(code),
		kind: 'code',
		cloudAccount: testCloudAccountOf(deps.config, userId),
		codeChallenge: request.codeChallenge,
		redirectUri: request.redirectUri,
		expiresAt: new Date(deps.clock().getTime() + CODE_SECONDS * 1000),
	});
	return code;
}

async function issueTokens(deps: Deps, cloudAccount: string): Promise<DeviceTokens> {
	const accessToken = newToken();
	const refreshToken = newToken();
	const now = deps.clock().getTime();
	await deps.db.insert(testCloudTokens).values([
		{
			tokenHash: hash(accessToken),
			kind: 'access',
			cloudAccount,
			expiresAt: new Date(now + ACCESS_SECONDS * 1000),
		},
		{
			tokenHash: hash(refreshToken),
			kind: 'refresh',
			cloudAccount,
			expiresAt: new Date(now + REFRESH_SECONDS * 1000),
		},
	]);
	return { cloudAccount, accessToken, refreshToken, expiresAt: now + ACCESS_SECONDS * 1000 };
}

/** Marks a token used and answers its row, or null for one that is unknown, used, expired or of another kind. */
async function spend(deps: Deps, token: string, kind: 'code' | 'refresh') {
	const [row] = await deps.db
		.update(testCloudTokens)
		.set({ usedAt: deps.clock() })
		.where(
			and(
				eq(testCloudTokens.tokenHash, hash(token)),
				eq(testCloudTokens.kind, kind),
				isNull(testCloudTokens.usedAt),
				gte(testCloudTokens.expiresAt, deps.clock()),
			),
		)
		.returning();
	return row ?? null;
}

/** The account an access token speaks for; a refused token is the cloud saying the access is gone. */
async function accountOf(deps: Deps, tokens: DeviceTokens): Promise<string> {
	const [row] = await deps.db
		.select({ cloudAccount: testCloudTokens.cloudAccount })
		.from(testCloudTokens)
		.where(
			and(
				eq(testCloudTokens.tokenHash, hash(tokens.accessToken)),
				eq(testCloudTokens.kind, 'access'),
				isNull(testCloudTokens.usedAt),
				gte(testCloudTokens.expiresAt, deps.clock()),
			),
		);
	if (!row) throw new DeviceCloudError('The test device cloud refused the access token.', 'auth');
	return row.cloudAccount;
}

function activityOf(row: typeof testCloudActivities.$inferSelect): DeviceActivity {
	const outing = row.outing as TestWatchOuting;
	return {
		externalId: String(row.id),
		startTime: row.startTime,
		name: `${TEST_WATCH_OUTINGS[outing] ?? 'Activity'} (test watch)`,
	};
}

/** The test watch records an outing that ends now; answers the account it belongs to and the activity. */
export async function recordTestWatchActivity(
	deps: Deps,
	userId: number,
	outing: TestWatchOuting,
): Promise<{ cloudAccount: string; activity: DeviceActivity }> {
	if (!Object.hasOwn(TEST_WATCH_OUTINGS, outing))
		throw new AppError('bad_request', 'The test watch records a run, a walk or a ride.');
	const cloudAccount = testCloudAccountOf(deps.config, userId);
	const startTime = new Date(deps.clock().getTime() - testWatchDurationMs(outing));
	const [row] = await deps.db
		.insert(testCloudActivities)
		.values({ cloudAccount, outing, startTime, createdAt: deps.clock() })
		.returning();
	return { cloudAccount, activity: activityOf(row) };
}

/** What the member's test watch has recorded, newest first. */
export async function listTestWatchActivities(deps: Deps, userId: number): Promise<DeviceActivity[]> {
	const rows = await deps.db
		.select()
		.from(testCloudActivities)
		.where(eq(testCloudActivities.cloudAccount, testCloudAccountOf(deps.config, userId)))
		.orderBy(asc(testCloudActivities.startTime));
	return rows.map(activityOf).reverse();
}

export function testDeviceCloud(deps: Deps): DeviceCloud {
	return {
		key: TEST_CLOUD_KEY,
		name: TEST_CLOUD_NAME,
		description:
			'A device cloud built into Mapstride for trying device sync: its test watch replays real recordings of demo outings. It is not a real device.',
		test: true,
		authorizeUrl({ state, redirectUri, codeChallenge }) {
			const query = new URLSearchParams({
				response_type: 'code',
				client_id: 'mapstride',
				redirect_uri: redirectUri,
				state,
				code_challenge: codeChallenge,
				code_challenge_method: 'S256',
			});
			return `${TEST_CLOUD_AUTHORIZE_PATH}?${query}`;
		},
		async exchangeCode({ code, redirectUri, codeVerifier }) {
			const row = await spend(deps, code, 'code');
			const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
			if (!row || row.redirectUri !== redirectUri || row.codeChallenge !== challenge)
				throw new DeviceCloudError('The test device cloud refused the authorization code.', 'auth');
			return issueTokens(deps, row.cloudAccount);
		},
		async refresh(tokens) {
			const row = tokens.refreshToken ? await spend(deps, tokens.refreshToken, 'refresh') : null;
			if (!row) throw new DeviceCloudError('The test device cloud refused the refresh token.', 'auth');
			return issueTokens(deps, row.cloudAccount);
		},
		async listActivities(tokens, since) {
			const account = await accountOf(deps, tokens);
			const rows = await deps.db
				.select()
				.from(testCloudActivities)
				.where(and(eq(testCloudActivities.cloudAccount, account), gte(testCloudActivities.startTime, since)))
				.orderBy(asc(testCloudActivities.startTime), asc(testCloudActivities.id));
			return rows.map(activityOf);
		},
		async fetchActivityFile(tokens, activity, maxBytes) {
			const account = await accountOf(deps, tokens);
			const id = Number(activity.externalId);
			const [row] = Number.isSafeInteger(id)
				? await deps.db
						.select()
						.from(testCloudActivities)
						.where(and(eq(testCloudActivities.id, id), eq(testCloudActivities.cloudAccount, account)))
				: [];
			if (!row) throw new DeviceCloudError('The test device cloud has no such activity.', 'refused');
			const file = writeFit(testWatchRecording(row.outing as TestWatchOuting, row.startTime));
			if (file.byteLength > maxBytes)
				throw new DeviceCloudError('The activity file is larger than we accept.', 'refused');
			return file;
		},
		async readWebhook() {
			return null;
		},
		async deauthorize(tokens) {
			const account = tokens.cloudAccount;
			await deps.db
				.update(testCloudTokens)
				.set({ usedAt: deps.clock() })
				.where(and(eq(testCloudTokens.cloudAccount, account), isNull(testCloudTokens.usedAt)));
		},
	};
}

/** The member's account closes with us: the test cloud forgets their test watch and its tokens too. */
export async function forgetTestCloudAccount(deps: Deps, userId: number): Promise<void> {
	const account = testCloudAccountOf(deps.config, userId);
	await deps.db.delete(testCloudActivities).where(eq(testCloudActivities.cloudAccount, account));
	await deps.db.delete(testCloudTokens).where(eq(testCloudTokens.cloudAccount, account));
}
