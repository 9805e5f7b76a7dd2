import { Secret, TOTP } from 'otpauth';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, HYDRATING_ISLANDS, registerMember } from './helpers';

/** The code an authenticator app holding `secret` shows now. */
const codeNow = (secret: string) =>
	new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate();

/**
 * A member turns on two-step sign-in under Settings with an authenticator app, keeps the recovery codes,
 * then signs in again: the password alone leads to the code step, and a recovery code gets them in.
 */
test('a member turns on two-step sign-in, and signing in then asks for a code', async ({
	page,
	browser,
	baseURL,
}) => {
	test.setTimeout(120_000);
	const stamp = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
	const email = `two-step-${stamp}@example.test`;
	const password = 'Gravel-Loop-Lantern-58';
	await registerMember(page.request, baseURL as string, {
		first_name: 'Tess',
		last_name: 'Token',
		email,
		password,
	});
	await page.goto('/account/settings');
	const section = page.getByTestId('two-factor');
	await expect(section).toContainText('Off.');
	await section.getByRole('button', { name: 'Turn on two-step sign-in' }).click();
	await section.getByLabel('Your password').fill(password);
	await section.getByRole('button', { name: 'Continue' }).click();
	await expect(section.getByRole('img', { name: 'QR code for your authenticator app' })).toBeVisible();
	const box = await section.locator('.qr-code svg').boundingBox();
	expect(box?.width).toBeGreaterThan(100);
	const secret = ((await section.getByTestId('two-factor-secret').textContent()) ?? '').replace(/\s/g, '');
	expect(secret).toMatch(/^[A-Z2-7]{32}$/);
	await expectNoSeriousA11yIssues(page);

	await section.getByLabel('Code from your authenticator app').fill(codeNow(secret));
	await section.getByRole('button', { name: 'Turn on', exact: true }).click();
	const codes = section.getByTestId('recovery-codes').getByRole('listitem');
	await expect(codes).toHaveCount(10);
	const recovery = (await codes.nth(0).textContent()) as string;
	await section.getByRole('button', { name: 'I have kept them' }).click();
	await expect(section).toContainText(
		'On: signing in asks for a code from your authenticator app. 10 recovery codes left.',
	);

	// In another browser, the password alone leads to the code step; a wrong code is refused by name.
	const context = await browser.newContext({ baseURL });
	const other = await context.newPage();
	await other.goto('/auth/login?next=%2Faccount%2Fsettings');
	await expect(other.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	await other.getByRole('textbox', { name: 'Email' }).fill(email);
	await other.locator('input[name="password"]').fill(password);
	await other.getByRole('button', { name: 'Log in' }).click();
	const step = other.getByTestId('second-factor-form');
	await expect(step).toContainText('Two-step sign-in is on for this account');
	await step.getByLabel('Code from your authenticator app').fill('aaaaa-aaaaa');
	await step.getByRole('button', { name: 'Verify and log in' }).click();
	await expect(step.getByRole('alert')).toContainText('That code is not right, or was already used.');
	await expectNoSeriousA11yIssues(other);
	await step.getByLabel('Code from your authenticator app').fill(recovery);
	await step.getByRole('button', { name: 'Verify and log in' }).click();
	await other.waitForURL('**/account/settings');
	await expect(other.getByTestId('two-factor')).toContainText('9 recovery codes left.');
	await context.close();
});
