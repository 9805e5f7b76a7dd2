import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isNull } from 'drizzle-orm';
import type { SMTPServer } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { requestPasswordReset } from '../../../src/lib/auth/server/service';
import { outboxMessages, users } from '../../../src/lib/auth/server/tables';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { runDueJobs } from '../../../src/lib/jobs/server/service';
import { jobs } from '../../../src/lib/jobs/server/tables';
import { mailJobs } from '../../../src/lib/mail/server/jobs';
import { deliverOutboxMessage, flushMail, resendUnsentMail } from '../../../src/lib/mail/server/service';
import { readDeliveredMail, startSmtpSink } from '../../e2e/smtp-sink';
import { createTestClock, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';

/**
 * Mail is never lost to a mail server that is down, nor to a crash, and never sent twice: the outbox
 * row is written first, a failed delivery becomes a job that tries again, and a sweep finds what
 * nobody is delivering.
 */
let database: TestDatabase;
let deps: AppDeps;
let clock: ReturnType<typeof createTestClock>;
let port: number;
let mailDir: string;
let sink: SMTPServer | null = null;

/** A port nothing listens on yet: the mail server is down until the sink starts there. */
async function freePort(): Promise<number> {
	const server = createServer();
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port: found } = server.address() as { port: number };
	await new Promise((resolve) => server.close(resolve));
	return found;
}

async function startSink() {
	sink = startSmtpSink(port, mailDir);
	await new Promise((resolve) => sink?.server.once('listening', resolve));
}

/** Delivered messages, once the sink has written the last one. */
async function deliveredTo(to: string) {
	await new Promise((resolve) => setTimeout(resolve, 100));
	return readDeliveredMail(mailDir, to);
}

beforeAll(async () => {
	database = await openTestDb();
});
beforeEach(async () => {
	await database.reset();
	port = await freePort();
	mailDir = mkdtempSync(path.join(tmpdir(), 'mapstride-durable-mail-'));
	clock = createTestClock(new Date());
	const base = createTestDeps(database.db, { clock });
	deps = { ...base, config: { ...base.config, smtpUrl: `smtp://127.0.0.1:${port}` } };
});
afterEach(async () => {
	await flushMail();
	sink?.close();
	sink = null;
	rmSync(mailDir, { recursive: true, force: true });
});
afterAll(() => database.close());

describe('mail that cannot be sent at once', () => {
	test('with the mail server down for a minute during 100 password resets, all 100 arrive once it is up, none twice', async () => {
		const members = await deps.db
			.insert(users)
			.values(
				Array.from({ length: 100 }, (_, i) => ({
					username: `resetter${i}`,
					email: `resetter${i}@example.test`,
					passwordHash: 'x',
					displayName: `Resetter ${i}`,
				})),
			)
			.returning({ email: users.email });
		for (const [i, member] of members.entries())
			await requestPasswordReset(
				deps,
				{ email: member.email },
				{ ip: `198.51.100.${i + 1}`, userAgent: 'drill' },
			);
		await flushMail();
		expect(await deps.db.select().from(outboxMessages).where(isNull(outboxMessages.sentAt))).toHaveLength(
			100,
		);

		// A minute later the server is still down: every try fails again and waits longer.
		clock.advance(60);
		expect(await runDueJobs(deps, mailJobs, 500)).toBe(100);
		expect(await deps.db.select().from(outboxMessages).where(isNull(outboxMessages.sentAt))).toHaveLength(
			100,
		);

		await startSink();
		clock.advance(120);
		expect(await runDueJobs(deps, mailJobs, 500)).toBe(100);
		expect(await deps.db.select().from(outboxMessages).where(isNull(outboxMessages.sentAt))).toHaveLength(0);
		for (const member of members) {
			const mail = await readDeliveredMail(mailDir, member.email);
			expect(mail.map((message) => message.subject)).toEqual(['Reset your password']);
		}
		// Nothing is left to try, and nothing gave up.
		clock.advance(3600);
		expect(await runDueJobs(deps, mailJobs, 500)).toBe(0);
		const failed = (await deps.db.select().from(jobs)).filter((job) => job.status === 'failed');
		expect(failed).toEqual([]);
		// Three hundred SMTP attempts and a hundred deliveries: seconds on a quiet machine, far more on a busy one.
	}, 180_000);

	test('a message a crash left unsent is found by the sweep and sent once', async () => {
		await startSink();
		// Written, then the process died before handing it to SMTP.
		const [row] = await deps.db
			.insert(outboxMessages)
			.values({
				toAddress: 'left@example.test',
				subject: 'Left behind',
				textBody: 'Hello',
				createdAt: clock(),
			})
			.returning({ id: outboxMessages.id });
		expect(await resendUnsentMail(deps)).toBe(0);
		clock.advance(180);
		expect(await resendUnsentMail(deps)).toBe(1);
		expect(await resendUnsentMail(deps)).toBe(0);
		expect(await runDueJobs(deps, mailJobs)).toBe(1);
		expect(await deliverOutboxMessage(deps, row.id)).toBe('sent');
		expect((await deliveredTo('left@example.test')).map((mail) => mail.subject)).toEqual(['Left behind']);
	});

	test('two processes delivering the same message at once send it once', async () => {
		await startSink();
		const [row] = await deps.db
			.insert(outboxMessages)
			.values({ toAddress: 'twice@example.test', subject: 'Once only', textBody: 'Hi', createdAt: clock() })
			.returning({ id: outboxMessages.id });
		const outcomes = await Promise.all([
			deliverOutboxMessage(deps, row.id),
			deliverOutboxMessage(deps, row.id),
		]);
		expect(outcomes.filter((outcome) => outcome === 'delivered')).toHaveLength(1);
		expect(outcomes.filter((outcome) => outcome !== 'delivered')[0]).toMatch(/^(busy|sent)$/);
		expect(await deliveredTo('twice@example.test')).toHaveLength(1);
	});
});
