import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createLogger } from '../../../src/lib/api/logger';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { createRoutesApi } from '../../../src/lib/routes/server/api';
import { pageErrorPage } from '../../../src/lib/site/server/unavailable';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { signupBody, signupMember } from '../auth/helpers';
import { linePayload } from '../routes/helpers';

/**
 * Security review: a failing write must not put the member's data into the logs. Each domain's
 * write is made to fail inside the database, and the real logger's output is searched.
 */
let database: TestDatabase;
let lines: string[];
let app: ReturnType<typeof createTestApi>;

const EMAIL = 'grace.hopper.logs@example.test';
const BIRTHDATE = '1987-11-23';
const LAT = 40.271234;
const LNG = -76.884321;

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	lines = [];
	const logger = createLogger('info', { write: (chunk: string) => void lines.push(chunk) });
	const deps = createTestDeps(database.db, { logger });
	app = createTestApi(deps, { routes: [createAuthApi(), createAccountApi(), createRoutesApi()] });
});
afterAll(async () => {
	await database.db.execute(sql.raw('drop function if exists fail_for_logs_test() cascade'));
	await database.close();
});

/** Makes every write to `table` fail the way a database fault would, after the row was built. */
async function breakWrites(table: string, operation: 'insert' | 'update') {
	await database.db.execute(
		sql.raw(`create or replace function fail_for_logs_test() returns trigger language plpgsql as $$
			begin raise exception 'the disk is on fire' using errcode = '58030'; end $$`),
	);
	await database.db.execute(
		sql.raw(`create trigger fail_for_logs_test before ${operation} on ${table}
			for each row execute function fail_for_logs_test()`),
	);
}

async function repairWrites(table: string) {
	await database.db.execute(sql.raw(`drop trigger if exists fail_for_logs_test on ${table}`));
}

function unhandledErrors() {
	return lines
		.map((line) => JSON.parse(line))
		.filter((entry: { msg: string }) => entry.msg === 'unhandled error');
}

function expectNothingPersonal(secrets: string[]) {
	const output = lines.join('');
	for (const secret of secrets) expect(output).not.toContain(secret);
	expect(output).not.toContain('$argon2id$');
}

describe('logs of failed requests', () => {
	test('a signup that fails in the database logs the error, not the email, hash, name or birthdate', async () => {
		await breakWrites('users', 'insert');
		try {
			const response = await callApi(app, 'POST', '/api/auth/signup', {
				body: signupBody({ email: EMAIL, birthdate: BIRTHDATE, first_name: 'Gracelyn' }),
			});
			expect(response.status).toBe(500);
			expect(response.text).not.toContain('fire');
		} finally {
			await repairWrites('users');
		}
		const [logged] = unhandledErrors();
		expect(logged.path).toBe('/api/auth/signup');
		expect(logged.err.type).toBe('DrizzleQueryError');
		expect(logged.err.cause.code).toBe('58030');
		expect(logged.err.cause.message).toBe('the disk is on fire');
		expectNothingPersonal([EMAIL, 'grace.hopper', BIRTHDATE, 'Gracelyn']);
	});

	test('a route save that fails logs no coordinates', async () => {
		const member = await signupMember(app, { email: EMAIL });
		await breakWrites('routes', 'insert');
		try {
			const response = await callApi(app, 'POST', '/api/v7.1/route/', {
				token: member.token,
				body: linePayload('Morning loop by the river', { lat: LAT, lng: LNG }),
			});
			expect(response.status).toBe(500);
		} finally {
			await repairWrites('routes');
		}
		const [logged] = unhandledErrors();
		expect(logged.path).toBe('/api/v7.1/route/');
		expect(logged.err.cause.code).toBe('58030');
		expectNothingPersonal([EMAIL, '40.27', '76.88', '271234', '884321', 'Morning loop']);
	});

	test('an account update that fails logs nothing the member sent', async () => {
		const member = await signupMember(app, { email: EMAIL });
		await breakWrites('users', 'update');
		try {
			const response = await callApi(app, 'PUT', `/api/v7.1/user/${member.id}/`, {
				token: member.token,
				body: { first_name: 'Hildegard', birthdate: BIRTHDATE, location: { locality: 'Arlington' } },
			});
			expect(response.status).toBe(500);
		} finally {
			await repairWrites('users');
		}
		expect(unhandledErrors()).toHaveLength(1);
		expectNothingPersonal([EMAIL, 'Hildegard', BIRTHDATE, 'Arlington']);
	});

	test('request lines name the route, not the address, which can carry a reset token or an email', async () => {
		const token = 'a'.repeat(43);
		await callApi(app, 'GET', `/api/auth/password/reset/${token}`);
		const request = lines.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'request');
		expect(request.path).toBe('/api/auth/password/reset/:token');
		expect(lines.join('')).not.toContain(token);
	});
});

describe('logs of failed pages', () => {
	test('a page whose query fails is answered 500 and logged without the query’s parameters', async () => {
		const logger = createLogger('info', { write: (chunk: string) => void lines.push(chunk) });
		await breakWrites('users', 'insert');
		let failure: unknown;
		try {
			// A write as a page would make it, with a member's values as the query's parameters.
			await database.db.execute(
				sql`insert into users (username, email, password_hash, first_name, birthdate) values (${'gracelyn'}, ${EMAIL}, ${'x'}, ${'Gracelyn'}, ${BIRTHDATE})`,
			);
		} catch (error) {
			failure = error;
		} finally {
			await repairWrites('users');
		}
		// The error as the database client throws it carries the values: what the framework would log.
		expect(`${(failure as Error).message}`).toContain(EMAIL);
		const page = pageErrorPage(failure, logger, '/profile/gracelyn/dashboard/');
		expect(page.status).toBe(500);
		const body = await page.text();
		expect(body).toContain('Something went wrong on our side');
		expect(body).not.toContain('fire');
		expect(body).not.toContain(EMAIL);
		await new Promise((resolve) => setImmediate(resolve));
		const [logged] = lines.map((line) => JSON.parse(line)).filter((entry) => entry.msg === 'page error');
		expect(logged).toMatchObject({ path: '/profile/gracelyn/dashboard/', err: { type: expect.any(String) } });
		expectNothingPersonal([EMAIL, 'Gracelyn', BIRTHDATE]);
	});
});
