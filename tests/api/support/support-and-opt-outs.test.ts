import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { outboxMessages } from '../../../src/lib/auth/server/tables';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { createMailApi } from '../../../src/lib/mail/server/api';
import { flushMail } from '../../../src/lib/mail/server/service';
import { emailOptOuts } from '../../../src/lib/mail/server/tables';
import { createSocialApi } from '../../../src/lib/social/server/api';
import { SUPPORT_REQUESTS_PER_HOUR } from '../../../src/lib/support/contract';
import { createSupportApi } from '../../../src/lib/support/server/api';
import { supportRequests } from '../../../src/lib/support/server/tables';
import { readDeliveredMail, startSmtpSink } from '../../e2e/smtp-sink';
import { addSignedInMember, callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

let database: TestDatabase;
let deps: AppDeps;
let app: ReturnType<typeof createTestApi>;
let sink: SMTPServer;
let mailDir: string;

// The database is not reset between tests: the support budget counts per member id and address
// for the whole file, so every test writes as members and addresses of its own.
beforeAll(async () => {
	database = await openTestDb();
	mailDir = mkdtempSync(path.join(tmpdir(), 'mapstride-support-mail-'));
	sink = startSmtpSink(0, mailDir);
	await new Promise((resolve) => sink.server.once('listening', resolve));
	const port = (sink.server.address() as AddressInfo).port;
	const base = createTestDeps(database.db);
	deps = {
		...base,
		config: {
			...base.config,
			trustedProxy: true,
			smtpUrl: `smtp://127.0.0.1:${port}`,
			supportEmail: 'help@mapstride.test',
		},
	};
	app = createTestApi(deps, { routes: [createSupportApi(), createMailApi(), createSocialApi()] });
});
afterAll(async () => {
	await flushMail();
	sink.close();
	await database.close();
	rmSync(mailDir, { recursive: true, force: true });
});

const request = (body: Record<string, unknown>) => ({
	email: 'walker@example.test',
	topic: 'routes',
	message: 'My saved route lost its last kilometre after I edited it.',
	...body,
});

function postSupport(body: unknown, options: { ip?: string; token?: string } = {}) {
	return callApi(app, 'POST', '/api/internal/zendesk/post', {
		body,
		token: options.token,
		headers: { 'x-forwarded-for': options.ip ?? '203.0.113.1' },
	});
}

/** Delivered messages to an address, once background deliveries are done. */
async function delivered(to: string) {
	await flushMail();
	// The sink writes each file when the SMTP transaction ends, a moment after the client hears OK.
	await new Promise((resolve) => setTimeout(resolve, 100));
	return readDeliveredMail(mailDir, to);
}

describe('writing to support', () => {
	test('a visitor’s request is kept, sent to the support address and acknowledged without its words', async () => {
		const message = 'Route 42 <b>vanished</b>\nafter I edited it & saved.';
		const answer = await postSupport(
			request({ email: 'visitor-1@example.test', message, link: 'https://mapstride.test/routes/view/42' }),
			{ ip: '203.0.113.10' },
		);
		expect(answer.status, answer.text).toBe(201);
		const [row] = await deps.db.select().from(supportRequests).where(eq(supportRequests.id, answer.json.id));
		expect(row).toMatchObject({ email: 'visitor-1@example.test', topic: 'routes', message, userId: null });
		expect(row.linkPath).toBe('/routes/view/42');

		const [toTeam] = (await delivered('help@mapstride.test')).filter((mail) =>
			mail.subject.includes(`#${answer.json.id}`),
		);
		expect(toTeam.subject).toBe(`Support request #${answer.json.id}: Routes and maps`);
		expect(toTeam.headers['reply-to']).toContain('visitor-1@example.test');
		// Text only: the message arrives exactly as typed, never as markup.
		expect(toTeam.html).toBe(false);
		expect(toTeam.text).toContain(message);
		expect(toTeam.text).toContain('http://localhost:4321/routes/view/42');
		expect(toTeam.text).not.toContain('e-mail preferences');

		const [ack] = await delivered('visitor-1@example.test');
		expect(ack.subject).toBe(`We received your message (request #${answer.json.id})`);
		expect(ack.text).not.toContain('vanished');
		expect(ack.text).toContain('sent whatever your e-mail preferences');
		expect(ack.headers['list-unsubscribe']).toBeUndefined();
	});

	test('a member’s request is kept as theirs', async () => {
		const { viewer, token } = await addSignedInMember(deps, 'support-member');
		const answer = await postSupport(request({ email: 'support-member@example.test' }), { token });
		expect(answer.status, answer.text).toBe(201);
		const [row] = await deps.db.select().from(supportRequests).where(eq(supportRequests.id, answer.json.id));
		expect(row.userId).toBe(viewer.id);
	});

	test.each([
		['no topic', { topic: undefined }, 'topic'],
		['an unknown topic', { topic: 'refund-now' }, 'topic'],
		['an address that is not one', { email: 'walker at example' }, 'email'],
		['an empty message', { message: '   ' }, 'message'],
		['a message over the limit', { message: 'x'.repeat(5001) }, 'message'],
		['a NUL byte in the message', { message: 'Hello support,\u0000 my route is gone.' }, 'message'],
		['a NUL byte in the address', { email: 'walker\u0000@example.test' }, 'email'],
		['a link to another kind of page', { link: 'https://evil.test/phish?x=/workout/1' }, 'link'],
		['a link with a line break', { link: '/workout/1\n/workout/2' }, 'link'],
	])('refuses %s with 400 and keeps nothing', async (_name, change, field) => {
		const before = await deps.db.$count(supportRequests);
		const answer = await postSupport(request(change), { ip: '203.0.113.20' });
		expect(answer.status, answer.text).toBe(400);
		expect(answer.text).toContain(field);
		expect(await deps.db.$count(supportRequests)).toBe(before);
	});

	test(`a visitor may send ${SUPPORT_REQUESTS_PER_HOUR} an hour, then gets 429 with Retry-After`, async () => {
		for (let index = 0; index < SUPPORT_REQUESTS_PER_HOUR; index++)
			expect((await postSupport(request({}), { ip: '203.0.113.30' })).status).toBe(201);
		const refused = await postSupport(request({}), { ip: '203.0.113.30' });
		expect(refused.status).toBe(429);
		expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
		expect(Number(refused.headers.get('retry-after'))).toBeLessThanOrEqual(3600);
		// Another address has its own budget.
		expect((await postSupport(request({}), { ip: '203.0.113.31' })).status).toBe(201);
	});

	test('a member is counted by account, whichever address they write from', async () => {
		const { token } = await addSignedInMember(deps, 'support-busy');
		for (let index = 0; index < SUPPORT_REQUESTS_PER_HOUR; index++)
			expect((await postSupport(request({}), { token, ip: `198.51.100.${index}` })).status).toBe(201);
		expect((await postSupport(request({}), { token, ip: '198.51.100.99' })).status).toBe(429);
	});
});

describe('e-mail opt-outs', () => {
	test('only the member reads and sets their own preferences', async () => {
		expect((await callApi(app, 'GET', '/api/internal/emailOptOuts')).status).toBe(401);
		expect(
			(await callApi(app, 'POST', '/api/internal/emailOptOuts', { body: { opted_out: ['friend_requests'] } }))
				.status,
		).toBe(401);
		const { token } = await addSignedInMember(deps, 'prefs-owner');
		const first = await callApi(app, 'GET', '/api/internal/emailOptOuts', { token });
		expect(first.json.preferences).toEqual([
			expect.objectContaining({ category: 'friend_requests', subscribed: true }),
		]);
		const saved = await callApi(app, 'POST', '/api/internal/emailOptOuts', {
			token,
			body: { opted_out: ['friend_requests'] },
		});
		expect(saved.status, saved.text).toBe(200);
		const again = await callApi(app, 'GET', '/api/internal/emailOptOuts', { token });
		expect(again.json.preferences[0].subscribed).toBe(false);
		const bad = await callApi(app, 'POST', '/api/internal/emailOptOuts', {
			token,
			body: { opted_out: ['password_reset'] },
		});
		expect(bad.status).toBe(400);
	});

	test('friend-request mail carries one-click unsubscribe, and stops once the member opts out', async () => {
		const asked = await addSignedInMember(deps, 'asked');
		const first = await addSignedInMember(deps, 'asker-one');
		const second = await addSignedInMember(deps, 'asker-two');
		const ask = (token: string) =>
			callApi(app, 'POST', '/api/v7.1/friendship/', { token, body: { to_user: String(asked.viewer.id) } });

		expect((await ask(first.token)).status).toBe(201);
		const [mail] = await delivered('asked@example.test');
		expect(mail.subject).toBe('asker-one wants to be your friend on Mapstride');
		expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
		const oneClick = /^<(.+)>$/.exec(mail.headers['list-unsubscribe'])?.[1] as string;
		expect(oneClick).toMatch(/^http:\/\/localhost:4321\/api\/internal\/emailOptOuts\/one-click\?/);
		const bodyLink = /(http:\/\/localhost:4321\/email\/unsubscribe\?\S+)/.exec(mail.text)?.[1];
		expect(bodyLink).toBeDefined();

		// A tampered link is refused and changes nothing: another member, another token.
		const url = new URL(oneClick);
		const forged = new URL(url);
		forged.searchParams.set('member', String(first.viewer.id));
		const clicked = (target: URL) =>
			callApi(app, 'POST', `${target.pathname}${target.search}`, {
				body: 'List-Unsubscribe=One-Click',
				headers: { 'content-type': 'application/x-www-form-urlencoded' },
			});
		expect((await clicked(forged)).status).toBe(403);
		const flipped = new URL(url);
		const token = url.searchParams.get('token') as string;
		flipped.searchParams.set('token', `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`);
		expect((await clicked(flipped)).status).toBe(403);
		for (const member of [asked, first])
			expect(await deps.db.$count(emailOptOuts, eq(emailOptOuts.userId, member.viewer.id))).toBe(0);

		// The real link works without any session, and twice is the same as once.
		expect((await clicked(url)).status).toBe(200);
		expect((await clicked(url)).status).toBe(200);
		const preferences = await callApi(app, 'GET', '/api/internal/emailOptOuts', { token: asked.token });
		expect(preferences.json.preferences[0].subscribed).toBe(false);

		expect((await ask(second.token)).status).toBe(201);
		await flushMail();
		const outbox = await deps.db
			.select({ subject: outboxMessages.subject })
			.from(outboxMessages)
			.where(eq(outboxMessages.toAddress, 'asked@example.test'));
		expect(outbox.map((row) => row.subject)).toEqual(['asker-one wants to be your friend on Mapstride']);
	});

	test('a link with a malformed token or unknown kind is a 400', async () => {
		const { viewer } = await addSignedInMember(deps, 'malformed');
		for (const query of [
			`member=${viewer.id}&category=friend_requests&token=short`,
			`member=${viewer.id}&category=password_reset&token=${'a'.repeat(43)}`,
			`member=abc&category=friend_requests&token=${'a'.repeat(43)}`,
		])
			expect(
				(
					await callApi(app, 'POST', `/api/internal/emailOptOuts/one-click?${query}`, {
						body: 'List-Unsubscribe=One-Click',
						headers: { 'content-type': 'application/x-www-form-urlencoded' },
					})
				).status,
			).toBe(400);
	});
});
