import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { readConfig } from '../../../src/lib/core/config';
import { flushMail } from '../../../src/lib/mail/server/service';
import { callApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { type App, createAccountsApp, signupBody } from './helpers';

type Delivered = { to: string[]; subject: string; text: string };

let database: TestDatabase;
let server: SMTPServer;
let app: App;
const inbox: Delivered[] = [];

beforeAll(async () => {
	database = await openTestDb();
	server = new SMTPServer({
		authOptional: true,
		disabledCommands: ['STARTTLS', 'AUTH'],
		onData(stream, session, callback) {
			const chunks: Buffer[] = [];
			stream.on('data', (chunk: Buffer) => chunks.push(chunk));
			stream.on('end', async () => {
				const parsed = await PostalMime.parse(Buffer.concat(chunks));
				inbox.push({
					to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
					subject: parsed.subject ?? '',
					text: parsed.text ?? '',
				});
				callback();
			});
		},
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const port = (server.server.address() as AddressInfo).port;
	const deps = createTestDeps(database.db, {
		config: readConfig({
			NODE_ENV: 'test',
			PUBLIC_URL: 'http://localhost:4321',
			SMTP_URL: `smtp://127.0.0.1:${port}`,
		}),
	});
	app = createAccountsApp(deps);
});
afterAll(async () => {
	await new Promise<void>((resolve) => server.close(() => resolve()));
	await database.close();
});

async function mailFor(address: string, subject: string): Promise<Delivered> {
	await flushMail();
	for (let i = 0; i < 50; i++) {
		const found = inbox.findLast((mail) => mail.to.includes(address) && mail.subject === subject);
		if (found) return found;
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	throw new Error(`no "${subject}" mail for ${address}`);
}

function linkIn(text: string): string {
	const link = text.match(/http:\/\/localhost:4321\/\S+/)?.[0];
	if (!link) throw new Error('no link in the mail');
	return link;
}

describe('mail over a real SMTP server', () => {
	test('delivers the confirmation link at signup and the reset link on request; both work once', async () => {
		const signup = await callApi(app, 'POST', '/api/auth/signup', {
			body: signupBody({ email: 'smtp@example.test' }),
		});
		expect(signup.status).toBe(201);
		const confirmation = await mailFor('smtp@example.test', 'Confirm your email address');
		const verifyLink = linkIn(confirmation.text);
		expect(verifyLink).toMatch(/\/verify_email\/[A-Za-z0-9_-]{43}$/);
		const token = verifyLink.split('/').pop();
		expect((await callApi(app, 'POST', `/api/auth/email/confirm/${token}`)).json.status).toBe('confirmed');
		expect((await callApi(app, 'POST', `/api/auth/email/confirm/${token}`)).status).toBe(400);

		await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: 'smtp@example.test' } });
		const reset = await mailFor('smtp@example.test', 'Reset your password');
		const resetLink = linkIn(reset.text);
		expect(resetLink).toMatch(/\/password_reset\/[A-Za-z0-9_-]{43}$/);
		const resetToken = resetLink.split('/').pop();
		const done = await callApi(app, 'POST', `/api/auth/password/reset/${resetToken}`, {
			body: { password: 'Copper-Lantern-Meadow-3' },
		});
		expect(done.json.status).toBe('success');
		const login = await callApi(app, 'POST', '/api/auth/login', {
			body: { email: 'smtp@example.test', password: 'Copper-Lantern-Meadow-3' },
		});
		expect(login.status).toBe(200);
		// Nothing was mailed to an address without an account.
		await callApi(app, 'POST', '/api/auth/password-reset', { body: { email: 'stranger@example.test' } });
		await flushMail();
		expect(inbox.some((mail) => mail.to.includes('stranger@example.test'))).toBe(false);
	});
});
