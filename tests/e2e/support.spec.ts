import { DEMO_ADMIN_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, logIn, signUp } from './helpers';
import { type DeliveredMail, readDeliveredMail } from './smtp-sink';

/**
 * Writing to support without an account, and turning off an optional e-mail from the link in a
 * delivered message, on the real server with its mail going through a real SMTP sink.
 */

async function mailTo(to: string, subject: RegExp): Promise<DeliveredMail> {
	const folder = process.env.E2E_MAIL_DIR as string;
	let found: DeliveredMail | undefined;
	await expect
		.poll(
			() => {
				found = readDeliveredMail(folder, to).find((mail) => subject.test(mail.subject));
				return found !== undefined;
			},
			{ timeout: 20_000 },
		)
		.toBe(true);
	return found as DeliveredMail;
}

test('a visitor writes to support from the footer, fixes a mistake without retyping, and an operator reads it', async ({
	page,
	browser,
	baseURL,
}, testInfo) => {
	const email = `visitor.${testInfo.project.name}.${Date.now()}@example.test`;
	const message = `My route <b>lost</b> its last kilometre.\nIt happened twice (${testInfo.project.name}).`;
	await page.goto('/');
	await page.getByRole('contentinfo').getByRole('link', { name: 'Support' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Contact support');

	await page.getByLabel('Your e-mail address').fill(email);
	await page.getByLabel('Your message').fill(message);
	await page.getByLabel(/A workout or route/).fill('https://elsewhere.example/login');
	await page.getByRole('button', { name: 'Send to support' }).click();
	// Refused field by field, with everything typed still there.
	await expect(page.getByText('Choose what your message is about.')).toBeVisible();
	await expect(page.getByText(/Paste the address of one of your workouts or routes/)).toBeVisible();
	await expect(page.getByLabel('Your e-mail address')).toHaveValue(email);
	await expect(page.getByLabel('Your message')).toHaveValue(message);
	await expect(page.getByLabel('What is it about?')).toHaveAttribute('aria-invalid', 'true');
	await expectNoSeriousA11yIssues(page);

	await page.getByLabel('What is it about?').selectOption({ label: 'Routes and maps' });
	await page.getByLabel(/A workout or route/).fill(`${baseURL}/routes/view/1`);
	await page.getByRole('button', { name: 'Send to support' }).click();
	const sent = page.getByTestId('support-sent');
	await expect(sent).toContainText('your message is on its way');
	const id = /request #(\d+)/.exec((await sent.textContent()) ?? '')?.[1] as string;
	await expectNoSeriousA11yIssues(page);

	const ack = await mailTo(email, /^We received your message/);
	expect(ack.subject).toBe(`We received your message (request #${id})`);
	expect(ack.text).not.toContain('kilometre');

	// The operator reads it as text: the markup typed is shown, not applied.
	const operatorContext = await browser.newContext({ baseURL });
	const operator = await operatorContext.newPage();
	await logIn(operator.request, baseURL as string, DEMO_ADMIN_LOGIN);
	await operator.goto('/admin/');
	await operator.getByRole('link', { name: 'Support requests' }).click();
	const entry = operator
		.getByTestId('admin-support-requests')
		.getByRole('listitem')
		.filter({ hasText: email });
	await expect(entry).toContainText(`#${id} · Routes and maps`);
	await expect(entry).toContainText('My route <b>lost</b> its last kilometre.');
	await expect(entry.locator('b')).toHaveCount(0);
	await expect(entry.getByRole('link', { name: '/routes/view/1' })).toHaveAttribute('href', '/routes/view/1');
	await expectNoSeriousA11yIssues(operator);
	await operatorContext.close();
});

test('a member unsubscribes from friend-request e-mails with the link in one, without logging in', async ({
	browser,
	baseURL,
}, testInfo) => {
	const stamp = `${testInfo.project.name}${Date.now()}`;
	const { member: asked, page: askedPage } = await signUp(browser, baseURL as string, 'Asked', stamp);
	const { member: asker, page: askerPage } = await signUp(browser, baseURL as string, 'Asker', stamp);
	const request = await askerPage.request.post('/api/v7.1/friendship/', {
		data: { to_user: String(asked.id) },
		headers: { authorization: `Bearer ${asker.token}`, origin: new URL(baseURL as string).origin },
	});
	expect(request.status()).toBe(201);

	const mail = await mailTo(asked.email, /wants to be your friend/);
	expect(mail.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
	expect(mail.headers['list-unsubscribe']).toMatch(/^<http.+\/api\/internal\/emailOptOuts\/one-click\?/);
	const link = /(https?:\/\/\S+\/email\/unsubscribe\?\S+)/.exec(mail.text)?.[1] as string;
	expect(link).toBeDefined();

	// A fresh browser with no session, as when the link is opened from a mail program.
	const strangerContext = await browser.newContext();
	const stranger = await strangerContext.newPage();
	await stranger.goto(link);
	await stranger.getByRole('button', { name: 'Unsubscribe from friend-request e-mails' }).click();
	await expect(stranger.getByTestId('unsubscribe-done')).toContainText(
		'You are unsubscribed from friend-request e-mails.',
	);
	await expectNoSeriousA11yIssues(stranger);
	// A link changed by hand is refused.
	await stranger.goto(link.replace(/token=([\w-])/, (_all, first) => `token=${first === 'A' ? 'B' : 'A'}`));
	await expect(stranger.getByTestId('unsubscribe-invalid')).toBeVisible();
	await strangerContext.close();

	// The member's settings show the choice, and turning it back on is one tick.
	await askedPage.goto('/account/contact');
	const choice = askedPage.getByTestId('email-preferences').getByLabel('Friend requests');
	await expect(choice).not.toBeChecked();
	await expectNoSeriousA11yIssues(askedPage);
	await choice.check();
	await askedPage.getByRole('button', { name: 'Save e-mail preferences' }).click();
	await expect(askedPage.getByText('Your e-mail preferences are saved.')).toBeVisible();
	await expect(askedPage.getByTestId('email-preferences').getByLabel('Friend requests')).toBeChecked();

	// A member writing to support finds their own address already filled in.
	await askedPage.goto('/support/');
	await expect(askedPage.getByLabel('Your e-mail address')).toHaveValue(asked.email);
	await askedPage.context().close();
	await askerPage.context().close();
});
