import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { closeSharedParsePool } from '../../../src/lib/workout-files/server/parse-pool';
import { makeBombs } from '../../helpers/bombs';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { healthLatenciesDuring, STALL_MS } from '../../helpers/health-latency';
import { addMember, createRoutesTestApp, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createRoutesTestApp>;
let alice: Member;
let bombs: ReturnType<typeof makeBombs>;

beforeAll(async () => {
	database = await openTestDb();
	made = createRoutesTestApp(database);
	bombs = makeBombs(200 * 1024 * 1024);
}, 120_000);
beforeEach(async () => {
	await database.reset();
	alice = await addMember(made.deps, 'alice');
});
afterAll(async () => {
	await closeSharedParsePool();
	await database.close();
});

const upload = (bytes: Uint8Array, token = alice.token) =>
	made.app.request('/api/v7.1/route/upload/', {
		method: 'POST',
		headers: { authorization: `Bearer ${token}`, 'content-type': 'application/octet-stream' },
		body: new Uint8Array(bytes),
	});

describe('uploads that unpack to far more than they weigh', () => {
	test('ten gzip bombs and two zip bombs get 413 naming the limit, do not stall health answers, and a real GPX still imports', async () => {
		expect(bombs.gzip.length).toBeLessThan(250_000);
		// Start the pool's thread first: the first upload of a process pays for starting it, once.
		const gpx = readFileSync('tests/fixtures/workouts/gpx/Mojstrovka.gpx');
		expect((await upload(gpx)).status).toBe(201);

		// The same thirteen requests with nothing to unpack (bytes of the bombs' size that no reader
		// accepts) beside the same real import: the difference is the unpacking alone.
		const junk = new Uint8Array(bombs.gzip.length);
		const light = await healthLatenciesDuring(
			made.app,
			Promise.all([...Array.from({ length: 12 }, () => upload(junk)), upload(gpx)]),
		);
		expect(light.result.map((response) => response.status)).toEqual([...Array(12).fill(422), 201]);
		const { result, latencies, worst, failures } = await healthLatenciesDuring(
			made.app,
			Promise.all([
				...Array.from({ length: 10 }, () => upload(bombs.gzip)),
				upload(bombs.lyingZip),
				upload(bombs.zip),
				upload(gpx),
			]),
		);
		expect(failures).toBe(0);
		expect(latencies.length).toBeGreaterThan(5);
		expect(worst).toBeLessThan(light.worst + STALL_MS);
		const answers = await Promise.all(
			result.map(async (response) => ({ status: response.status, body: await response.json() })),
		);
		const imported = answers.pop();
		expect(imported?.status).toBe(201);
		expect(imported?.body.name).toBeTruthy();
		for (const answer of answers) {
			expect(answer.status).toBe(413);
			expect(answer.body).toMatchObject({
				error: 'file_too_large',
				message: 'This file unpacks to more than 16 MB, more than we accept.',
			});
		}

		// Nothing from a refused upload was stored: alice has the three real imports only.
		const list = await made.app.request(`/api/v7.1/route/?user=${alice.id}`, {
			headers: { authorization: `Bearer ${alice.token}` },
		});
		expect((await list.json()).total_count).toBe(3);
	}, 120_000);
});
