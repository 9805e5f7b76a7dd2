import { COOKIE_CHOICES_COOKIE } from '../../src/lib/site/cookie-choices';
import { LEGAL_LINKS, LEGAL_PATHS, PRIVACY_NOTICE_LINK } from '../../src/lib/site/footer';
import { expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, open } from './helpers';

/** The legal pages every footer and the signup form link to, and the cookie preferences dialog. */
const HEADINGS: Record<string, string> = {
	[LEGAL_PATHS.terms]: 'Terms of Use',
	[LEGAL_PATHS.privacy]: 'Privacy Policy',
	[LEGAL_PATHS.cookies]: 'Cookie Policy',
	[LEGAL_PATHS.privacyNotice]: 'Privacy Notice',
};

async function expectLegalPage(page: Page, href: string) {
	const response = await page.goto(href);
	expect(response?.status(), href).toBe(200);
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(HEADINGS[href]);
	await expect(page.getByText(/^Last updated/)).toBeVisible();
	// Every entry of the table of contents leads to a section of the page.
	const targets = await page
		.getByRole('navigation', { name: 'Contents' })
		.getByRole('link')
		.evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).hash.slice(1)));
	expect(targets.length).toBeGreaterThan(3);
	for (const id of targets) await expect(page.locator(`h2[id="${id}"]`)).toHaveCount(1);
}

test('every legal link in the footer opens its page', async ({ page }) => {
	await open(page, '/');
	const footer = page.getByRole('contentinfo');
	const hrefs: string[] = [];
	for (const link of [...LEGAL_LINKS, PRIVACY_NOTICE_LINK]) {
		const href = await footer.getByRole('link', { name: link.label, exact: true }).getAttribute('href');
		expect(href).toBe(link.href);
		hrefs.push(href as string);
	}
	// Each legal page is named once in the footer, whatever it holds besides its links.
	const footerText = (await footer.textContent()) ?? '';
	for (const link of [...LEGAL_LINKS, PRIVACY_NOTICE_LINK])
		expect(footerText.split(link.label).length - 1, link.label).toBe(1);
	for (const href of hrefs) await expectLegalPage(page, href);
	await expectNoSeriousA11yIssues(page);
});

test('the Terms of Use and Privacy Policy links of the signup form open their pages', async ({ page }) => {
	await open(page, '/auth/signup/');
	const consent = page.getByText('I agree to the');
	const terms = await consent.getByRole('link', { name: 'Terms of Use' }).getAttribute('href');
	const privacy = await consent.getByRole('link', { name: 'Privacy Policy' }).getAttribute('href');
	await consent.getByRole('link', { name: 'Terms of Use' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms of Use');
	await expectLegalPage(page, terms as string);
	await expectLegalPage(page, privacy as string);
});

test('the Cookie Policy lists every cookie and storage key with its purpose and lifetime', async ({
	page,
}) => {
	await open(page, LEGAL_PATHS.cookies);
	for (const name of [
		'ms_session',
		'ms_hint',
		'ms_geo',
		COOKIE_CHOICES_COOKIE,
		'ms_device_id',
		'mapstride:map-type',
		'ms_promo_dismissed',
		// One planner draft for a new route and one per route edited or copied.
		'mapstride:planner-draft:edit:',
	]) {
		const row = page
			.getByRole('row')
			.filter({ has: page.getByRole('rowheader', { name: new RegExp(name) }) });
		await expect(row, name).toHaveCount(1);
		await expect(row.getByRole('cell')).toHaveCount(3);
	}
});

test('the cookie preferences dialog saves a choice and shows it again when reopened', async ({
	page,
	context,
}) => {
	await open(page, '/');
	const opener = page.getByRole('button', { name: 'Manage Cookie Preferences' });
	await opener.click();
	const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
	await expect(dialog).toBeVisible();
	await expect(dialog.getByRole('checkbox', { name: 'Always on' })).toBeChecked();
	await expect(dialog.getByRole('checkbox', { name: 'Always on' })).toBeDisabled();
	await expect(dialog).toContainText('No advertising or other third-party cookies are used.');
	const remember = dialog.getByRole('checkbox', { name: 'Remember my preferences in this browser' });
	await expect(remember).toBeChecked();
	await expectNoSeriousA11yIssues(page);

	await remember.uncheck();
	await dialog.getByRole('button', { name: 'Save choices' }).click();
	await expect(dialog).toBeHidden();
	await expect(opener).toBeFocused();
	const saved = (await context.cookies()).find((cookie) => cookie.name === COOKIE_CHOICES_COOKIE);
	// Nothing located this visitor, so analytics waits for a yes.
	expect(saved?.value).toBe('preferences-off.analytics-off');

	// Another page, same choice.
	await open(page, '/us/');
	await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
	await expect(remember).not.toBeChecked();
	// Cancel keeps what was saved.
	await remember.check();
	await dialog.getByRole('button', { name: 'Cancel' }).click();
	await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
	await expect(remember).not.toBeChecked();
});

test('with preferences off, a dismissed MVP banner is not remembered from page to page', async ({ page }) => {
	const banner = page.getByRole('complementary', { name: 'MVP membership' });
	await open(page, '/');
	await page.getByRole('button', { name: 'Dismiss MVP offer' }).click();
	await open(page, '/us/');
	await expect(banner).toBeHidden();

	await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
	const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
	await dialog.getByRole('checkbox', { name: 'Remember my preferences in this browser' }).uncheck();
	await dialog.getByRole('button', { name: 'Save choices' }).click();
	await expect(dialog).toBeHidden();
	await expect.poll(() => page.evaluate(() => sessionStorage.length)).toBe(0);
	await open(page, '/');
	await expect(banner).toBeVisible();
	await page.getByRole('button', { name: 'Dismiss MVP offer' }).click();
	await open(page, '/us/');
	await expect(banner).toBeVisible();
});

test('the cookie preferences dialog works with the keyboard alone', async ({ page }) => {
	await open(page, LEGAL_PATHS.cookies);
	const opener = page.getByRole('contentinfo').getByRole('button', { name: 'Manage Cookie Preferences' });
	await opener.focus();
	await page.keyboard.press('Enter');
	const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
	await expect(dialog).toBeVisible();
	const remember = dialog.getByRole('checkbox', { name: 'Remember my preferences in this browser' });
	await expect(remember).toBeFocused();

	// Focus stays inside while tabbing forwards and backwards, past either end.
	const inDialog = () => page.evaluate(() => Boolean(document.activeElement?.closest('dialog')));
	for (let i = 0; i < 8; i++) {
		await page.keyboard.press('Tab');
		expect(await inDialog()).toBe(true);
	}
	for (let i = 0; i < 8; i++) {
		await page.keyboard.press('Shift+Tab');
		expect(await inDialog()).toBe(true);
	}

	// Escape closes without saving and returns focus to the button that opened it.
	await remember.focus();
	await page.keyboard.press('Space');
	await page.keyboard.press('Escape');
	await expect(dialog).toBeHidden();
	await expect(opener).toBeFocused();

	await page.keyboard.press('Enter');
	await expect(remember).toBeChecked();
	// The dialog hands the focus to its first box as it opens; Space before that ticks nothing.
	await expect(remember).toBeFocused();
	await page.keyboard.press('Space');
	await expect(remember).not.toBeChecked();
	while (
		!(await dialog
			.getByRole('button', { name: 'Save choices' })
			.evaluate((b) => b === document.activeElement))
	)
		await page.keyboard.press('Tab');
	await page.keyboard.press('Enter');
	await expect(dialog).toBeHidden();
	await expect(opener).toBeFocused();
	await page.keyboard.press('Enter');
	await expect(remember).not.toBeChecked();
});
