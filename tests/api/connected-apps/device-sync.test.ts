import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { deleteAccount } from '../../../src/lib/account/server/service';
import { createDeviceCloudsApi } from '../../../src/lib/connected-apps/server/device-api';
import { DeviceCloudError } from '../../../src/lib/connected-apps/server/device-clouds';
import {
	DEVICE_CALLBACK_PATH,
	DEVICE_SYNC_JOB,
	finishDeviceConnect,
	noticeDeviceActivities,
	startDeviceConnect,
	syncDeviceConnection,
} from '../../../src/lib/connected-apps/server/device-sync';
import {
	deviceConnections,
	deviceImports,
	testCloudActivities,
	testCloudTokens,
} from '../../../src/lib/connected-apps/server/tables';
import {
	grantTestCloudCode,
	recordTestWatchActivity,
	TEST_CLOUD_KEY,
	testDeviceCloud,
} from '../../../src/lib/connected-apps/server/test-cloud';
import { jobs } from '../../../src/lib/jobs/server/tables';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { callApi, createTestApi, createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, type Member } from '../workouts/helpers';

let database: TestDatabase;
let clock: ReturnType<typeof createTestClock>;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let ada: Member;
let bob: Member;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	clock = createTestClock(new Date('2026-11-25T09:00:00Z'));
	deps = createTestDeps(database.db, { clock });
	app = createTestApi(deps, { routes: [createWorkoutsApi(), createDeviceCloudsApi()] });
	ada = await addMember(deps, 'ada');
	bob = await addMember(deps, 'bob');
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

/** What the member's browser does: leave for the cloud's consent page, allow, and come back. */
async function connectTestCloud(member: Member) {
	const sent = new URL(await startDeviceConnect(deps, member.id, TEST_CLOUD_KEY), 'http://localhost');
	const state = sent.searchParams.get('state') as string;
	const code = await grantTestCloudCode(deps, member.id, {
		redirectUri: sent.searchParams.get('redirect_uri') as string,
		codeChallenge: sent.searchParams.get('code_challenge') as string,
	});
	return { sent, state, code };
}

async function workoutNames(member: Member): Promise<string[]> {
	const answer = await callApi(app, 'GET', '/api/v7.1/workout/', { token: member.token });
	return answer.json._embedded.workouts.map((workout: { name: string }) => workout.name);
}

describe('device clouds', () => {
	test('a member connects the test cloud, and what its watch records becomes a workout once', async () => {
		const types = await callApi(app, 'GET', '/api/v7.1/remoteconnectiontype/', { token: ada.token });
		expect(types.json._embedded.remoteconnectiontypes).toEqual([
			expect.objectContaining({ type: 'test', name: 'Test device cloud', test_connection: true }),
		]);

		const { sent, state, code } = await connectTestCloud(ada);
		expect(sent.pathname).toBe('/device-cloud/test/authorize');
		expect(sent.searchParams.get('code_challenge_method')).toBe('S256');
		expect(sent.searchParams.get('redirect_uri')).toBe(DEVICE_CALLBACK_PATH);
		const { connectionId } = await finishDeviceConnect(deps, ada.id, { state, code });
		// The cloud's tokens are kept sealed, and a first sync is queued.
		const [kept] = await deps.db
			.select()
			.from(deviceConnections)
			.where(eq(deviceConnections.id, connectionId));
		expect(kept.sealedTokens).not.toMatch(/accessToken|refreshToken/);
		expect((await deps.db.select().from(jobs)).map((job) => job.kind)).toContain(DEVICE_SYNC_JOB);

		const recorded = await recordTestWatchActivity(deps, ada.id, 'run');
		expect(recorded.activity.startTime.getTime()).toBeLessThan(clock().getTime());
		expect(
			await noticeDeviceActivities(deps, TEST_CLOUD_KEY, [
				{ cloudAccount: recorded.cloudAccount, activities: [recorded.activity] },
			]),
		).toBe(1);
		expect(await syncDeviceConnection(deps, connectionId)).toEqual({ imported: 1 });
		expect(await workoutNames(ada)).toEqual(['Easy run through Paxtang (test watch)']);
		const workouts = await callApi(app, 'GET', '/api/v7.1/workout/', { token: ada.token });
		expect(workouts.json._embedded.workouts[0].aggregates.distance_total).toBeGreaterThan(1000);

		// A second notice, a poll, two syncs at once: still one workout.
		await Promise.all([syncDeviceConnection(deps, connectionId), syncDeviceConnection(deps, connectionId)]);
		expect(await workoutNames(ada)).toHaveLength(1);
		const [imported] = await deps.db.select().from(deviceImports);
		expect(imported).toMatchObject({ status: 'imported', userId: ada.id });

		const listed = await callApi(app, 'GET', '/api/v7.1/remoteconnection/', { token: ada.token });
		expect(listed.json._embedded.remoteconnections).toEqual([
			expect.objectContaining({ id: String(connectionId), type: 'test', last_sync_error: null }),
		]);
		expect(listed.json._embedded.remoteconnections[0].last_sync_time).toMatch(/\+00:00$/);
		expect(JSON.stringify(listed.json)).not.toMatch(/sealed|token/i);
		expect(
			(await callApi(app, 'GET', '/api/v7.1/remoteconnection/', { token: bob.token })).json.total_count,
		).toBe(0);

		// Only its member may sync or remove a connection.
		const path = `/api/v7.1/remoteconnection/${connectionId}/`;
		expect((await callApi(app, 'DELETE', path, { token: bob.token })).status).toBe(404);
		expect((await callApi(app, 'POST', `${path}sync/`, { token: bob.token })).status).toBe(404);
		expect((await callApi(app, 'POST', `${path}sync/`, { token: ada.token })).status).toBe(202);
		expect((await callApi(app, 'DELETE', path, { token: ada.token })).status).toBe(204);
		expect(await deps.db.select().from(deviceConnections)).toEqual([]);
		// Disconnecting ended our access at the cloud too; the workout stays the member's.
		const live = await deps.db
			.select()
			.from(testCloudTokens)
			.where(and(eq(testCloudTokens.cloudAccount, kept.cloudAccount), isNull(testCloudTokens.usedAt)));
		expect(live).toEqual([]);
		expect(await workoutNames(ada)).toHaveLength(1);
	});

	test('disconnecting ends our access at the cloud, and a sync after it says so instead of importing', async () => {
		const { state, code } = await connectTestCloud(ada);
		const cloud = testDeviceCloud(deps);
		const tokens = await cloud
			.exchangeCode({
				code: (await connectTestCloud(ada)).code,
				redirectUri: DEVICE_CALLBACK_PATH,
				codeVerifier: 'x'.repeat(43),
			})
			.catch((error) => error);
		// A code is bound to its PKCE challenge: the wrong verifier gets nothing.
		expect(tokens).toBeInstanceOf(DeviceCloudError);
		const { connectionId } = await finishDeviceConnect(deps, ada.id, { state, code });
		const [row] = await deps.db
			.select()
			.from(deviceConnections)
			.where(eq(deviceConnections.id, connectionId));
		await cloud.deauthorize({ cloudAccount: row.cloudAccount, accessToken: '' });
		await recordTestWatchActivity(deps, ada.id, 'ride');
		expect(await syncDeviceConnection(deps, connectionId)).toEqual({ imported: 0 });
		const [after] = await deps.db
			.select()
			.from(deviceConnections)
			.where(eq(deviceConnections.id, connectionId));
		expect(after.lastError).toBe(
			'Test device cloud no longer lets us read your activities. Disconnect and connect it again.',
		);
		expect(await workoutNames(ada)).toEqual([]);
	});

	test('a connect comes back to the member who started it, once, in time, and only when allowed', async () => {
		const first = await connectTestCloud(ada);
		// Another member cannot finish it, and a made-up state finishes nothing.
		await expect(finishDeviceConnect(deps, bob.id, first)).rejects.toMatchObject({ code: 'bad_request' });
		await expect(
			finishDeviceConnect(deps, ada.id, { state: 'made-up', code: first.code }),
		).rejects.toMatchObject({
			code: 'bad_request',
		});
		// Refused at the cloud: nothing connected.
		const denied = await connectTestCloud(ada);
		await expect(
			finishDeviceConnect(deps, ada.id, { state: denied.state, error: 'access_denied' }),
		).rejects.toThrow('Test device cloud was not connected: access was not allowed.');
		// Too late: a quarter of an hour is the limit.
		const late = await connectTestCloud(ada);
		clock.advance(16 * 60);
		await expect(finishDeviceConnect(deps, ada.id, late)).rejects.toMatchObject({ code: 'bad_request' });
		expect(await deps.db.select().from(deviceConnections)).toEqual([]);
		// A code is good for a minute and once.
		const once = await connectTestCloud(ada);
		await finishDeviceConnect(deps, ada.id, once);
		await expect(finishDeviceConnect(deps, ada.id, once)).rejects.toMatchObject({ code: 'bad_request' });
		expect(await deps.db.select().from(deviceConnections)).toHaveLength(1);
	});

	test('a webhook that is not the cloud’s own is refused', async () => {
		for (const cloud of ['test', 'nowhere']) {
			const answer = await callApi(app, 'POST', `/api/device_clouds/${cloud}/webhook`, {
				body: { activityFiles: [{ userId: 'x', summaryId: '1' }] },
			});
			expect(answer.status).toBe(400);
		}
		const bad = await callApi(app, 'POST', '/api/device_clouds/Bad%00/webhook', { body: {} });
		expect(bad.status).toBe(400);
	});

	test('a member who deletes their account is disconnected, and the test cloud forgets their watch', async () => {
		const { state, code } = await connectTestCloud(ada);
		await finishDeviceConnect(deps, ada.id, { state, code });
		const { cloudAccount } = await recordTestWatchActivity(deps, ada.id, 'walk');
		await recordTestWatchActivity(deps, bob.id, 'walk');
		await deleteAccount(deps, ada.id);
		expect(await deps.db.select().from(deviceConnections)).toEqual([]);
		const left = await deps.db.select().from(testCloudActivities);
		expect(left.map((row) => row.cloudAccount)).not.toContain(cloudAccount);
		expect(left).toHaveLength(1);
		expect(
			await deps.db.select().from(testCloudTokens).where(eq(testCloudTokens.cloudAccount, cloudAccount)),
		).toEqual([]);
	});
});
