import { expect, type Page, test } from './fixtures';
import { mailedLink, open, registerMember } from './helpers';
import { readDeliveredMail } from './smtp-sink';

/**
 * Password-reset and email-confirmation links that no longer work: the page says why (not valid,
 * already used, expired) and sends a new link from where the member stands. Mail is read as the test
 * SMTP sink received it; a link is let expire from the development mailbox, as a developer would.
 */

const mailCount = (to: string, subject: string) =>
	readDeliveredMail(process.env.E2E_MAIL_DIR as string, to).filter((mail) => mail.subject === subject).length;

/** Lets a mailed link run out through the development mailbox's button. */
async function expireInMailbox(page: Page, to: string, subject: string) {
	await open(page, '/dev/mailbox');
	const mail = page.locator(`article[data-mail-to="${to}"]`).filter({ hasText: subject }).first();
	await mail.getByRole('button', { name: 'Let this link expire' }).click();
	await page.waitForURL('**/dev/mailbox');
}

/** Asks for a new link from the dead-link page and waits for it to arrive. */
async function askForNewLink(page: Page, email: string, button: string, subject: string): Promise<string> {
	const before = mailCount(email, subject);
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.getByRole('button', { name: button }).click();
	await expect(page.getByRole('status')).toContainText('we have sent it');
	return mailedLink(email, subject, before);
}

test('a reset link that is not valid, used or expired says so and sends a new one', async ({
	page,
	browser,
	baseURL,
}, testInfo) => {
	const email = `dead-reset-${testInfo.project.name}-${Date.now()}@example.test`;
	const other = await browser.newContext({ baseURL });
	await registerMember(other.request, baseURL as string, {
		first_name: 'Rhea',
		last_name: 'Reset',
		email,
		password: 'Quiet-Harbour-Lamp-52',
	});
	await other.close();

	// Cut short by a mail program: no token of ours, and the page still explains and offers a new link.
	const cut = await open(page, '/password_reset/abc');
	expect(cut?.status()).toBe(404);
	await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
	// Well formed but never mailed.
	await open(page, `/password_reset/${'x'.repeat(43)}`);
	await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();
	const first = await askForNewLink(page, email, 'Send reset link', 'Reset your password');

	// Used: set a password with it, then open it again.
	await open(page, first);
	await page.getByLabel('New password').fill('Amber-Willow-Creek-93');
	await page.getByRole('button', { name: 'Set new password' }).click();
	await expect(page.getByText(/Your password is changed/)).toBeVisible();
	await open(page, first);
	await expect(page.getByRole('heading', { name: 'This link was already used' })).toBeVisible();
	await expect(page.getByText(/or a newer one replaced it/)).toBeVisible();

	// Expired: ask for a new one from the used link's page, then let it run out.
	const second = await askForNewLink(page, email, 'Send reset link', 'Reset your password');
	await expireInMailbox(page, email, 'Reset your password');
	await open(page, second);
	await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
	await expect(page.getByText(/it works for 60 minutes/)).toBeVisible();
	await expect(page.getByLabel('New password')).toHaveCount(0);

	// The link sent from the expired page works.
	const third = await askForNewLink(page, email, 'Send reset link', 'Reset your password');
	await open(page, third);
	await expect(page.getByLabel('New password')).toBeVisible();
});

test('a confirmation link that is not valid, used or expired says so and sends a new one', async ({
	page,
	browser,
	baseURL,
}, testInfo) => {
	const email = `dead-verify-${testInfo.project.name}-${Date.now()}@example.test`;
	const other = await browser.newContext({ baseURL });
	await registerMember(other.request, baseURL as string, {
		first_name: 'Vic',
		last_name: 'Verify',
		email,
		password: 'Silver-Meadow-Bell-38',
	});
	await other.close();
	const subject = 'Confirm your email address';
	const signupLink = await mailedLink(email, subject);

	const cut = await open(page, '/verify_email/abc');
	expect(cut?.status()).toBe(404);
	await expect(page.getByRole('heading', { name: 'This link is not valid' })).toBeVisible();

	// Expired: the sign-up mail's link runs out; a new one comes from the page itself.
	await expireInMailbox(page, email, subject);
	await open(page, signupLink);
	await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
	await expect(page.getByText(/it works for 7 days/)).toBeVisible();
	const fresh = await askForNewLink(page, email, 'Send a new confirmation link', subject);
	expect(fresh).not.toBe(signupLink);

	await open(page, fresh);
	await expect(page.getByText('your email address is confirmed')).toBeVisible();
	// Used: opening it again says so, and that a confirmed address needs nothing more.
	await open(page, fresh);
	await expect(page.getByRole('heading', { name: 'This link was already used' })).toBeVisible();
	await expect(page.getByText(/there is nothing more to do/)).toBeVisible();
	// A confirmed address gets no more links, and the answer does not say so.
	const before = mailCount(email, subject);
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.getByRole('button', { name: 'Send a new confirmation link' }).click();
	await expect(page.getByRole('status')).toContainText('we have sent it a new link');
	// A mail sent after this answer would be another reset or a second one: wait for a mail that does arrive.
	const reset = await page.request.post('/api/auth/password-reset', {
		data: { email, redirect_uri: '/auth/login' },
		headers: { origin: new URL(baseURL as string).origin },
	});
	expect(reset.ok()).toBe(true);
	await mailedLink(email, 'Reset your password');
	expect(mailCount(email, subject)).toBe(before);
});
