import { readFile } from 'node:fs/promises';
import yauzl from 'yauzl';
import { type APIRequestContext, expect, type Page, test } from './fixtures';
import { expectNoSeriousA11yIssues, logIn, setGeo } from './helpers';
import { readDeliveredMail } from './smtp-sink';

/**
 * The privacy centre on the real server: consents by region, staged edits and declining, the
 * do-not-sell banner and Global Privacy Control, the data export by mail, the age gate, deletion
 * and the app's chrome-less twins. Each test signs up its own members.
 */

const PASSWORD = 'Amber-Falcon-Meadow-93';

async function signUpMember(
	request: APIRequestContext,
	baseURL: string,
	who: { name: string; country: string; region?: string },
	project: string,
) {
	const email = `${who.name}-${project}-${Date.now()}@example.test`;
	const response = await request.post('/api/auth/signup', {
		data: {
			first_name: who.name,
			last_name: 'Private',
			email,
			password: PASSWORD,
			birthdate: '1988-02-02',
			gender: 'F',
			location: { country: who.country, region: who.region ?? '' },
			consents: { terms_of_use: true, privacy_policy: true },
			gdpr_iso_code: who.country,
		},
	});
	expect(response.status()).toBe(201);
	const id = (await response.json()).user.id as number;
	await logIn(request, baseURL, { email, password: PASSWORD });
	return { email, id };
}

async function exportLink(to: string): Promise<string> {
	const folder = process.env.E2E_MAIL_DIR as string;
	let text = '';
	await expect
		.poll(
			() => {
				text =
					readDeliveredMail(folder, to).find((mail) => mail.subject === 'Your data export is ready')?.text ??
					'';
				return text;
			},
			{ timeout: 20_000 },
		)
		.toContain('/privacy_center/export/');
	const link = new URL(text.match(/https?:\/\/\S+/)?.[0] as string);
	return link.pathname + link.search;
}

function unzip(bytes: Buffer): Promise<Map<string, string>> {
	return new Promise((resolve, reject) => {
		yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, zip) => {
			if (error || !zip) return reject(error);
			const entries = new Map<string, string>();
			zip.on('entry', (entry: yauzl.Entry) =>
				zip.openReadStream(entry, (streamError, stream) => {
					if (streamError || !stream) return reject(streamError);
					const chunks: Buffer[] = [];
					stream.on('data', (chunk: Buffer) => chunks.push(chunk));
					stream.on('end', () => {
						entries.set(entry.fileName, Buffer.concat(chunks).toString('latin1'));
						zip.readEntry();
					});
				}),
			);
			zip.on('end', () => resolve(entries));
			zip.readEntry();
		});
	});
}

/**
 * Asks for the export on the manage page, waits for the page to offer the download (it reloads
 * itself while the archive is built), downloads it there, and checks the mailed link gives the same.
 */
async function exportFromManagePage(page: Page, me: { email: string; id: number }) {
	await page.getByTestId('export-password').fill(PASSWORD);
	await page.getByTestId('export-request').click();
	await expect(page.getByTestId('export-progress')).toBeVisible();
	const onPage = page.getByTestId('export-download');
	await expect(onPage).toBeVisible({ timeout: 20_000 });
	await expect(page.getByTestId('export-progress')).toHaveCount(0);
	const downloading = page.waitForEvent('download');
	await onPage.click();
	const download = await downloading;
	expect(download.suggestedFilename()).toMatch(/^mapstride-data-\d{4}-\d{2}-\d{2}\.zip$/);
	const entries = await unzip(await readFile(await download.path()));
	expect(JSON.parse(entries.get('profile.json') as string).id).toBe(me.id);
	const link = await exportLink(me.email);
	const mailed = await page.request.get(link);
	expect(mailed.status()).toBe(200);
	expect(mailed.headers()['content-type']).toBe('application/zip');
	expect(JSON.parse((await unzip(await mailed.body())).get('profile.json') as string).id).toBe(me.id);
	return { link, pageLink: (await onPage.getAttribute('href')) as string, entries };
}

async function editConsents(page: Page, base: string, changes: Record<string, boolean>) {
	await page.goto(`${base}/consents/edit`, { waitUntil: 'commit' });
	for (const [key, on] of Object.entries(changes)) await page.getByTestId(`consent-${key}`).setChecked(on);
	await page.getByTestId('edit-save').click();
}

test('a US member in California answers, edits, declines, exports and deletes', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(90_000);
	const me = await signUpMember(
		page.request,
		baseURL as string,
		{ name: 'cali', country: 'US', region: 'CA' },
		testInfo.project.name,
	);
	const other = await signUpMember(
		(await page.context().browser()?.newContext({ baseURL }))?.request as APIRequestContext,
		baseURL as string,
		{ name: 'othermember', country: 'US', region: 'NY' },
		testInfo.project.name,
	);

	// The consent screen: where we think they are, then what is asked.
	await page.goto('/privacy_center/consents', { waitUntil: 'commit' });
	await expect(page.getByRole('heading', { name: 'You appear to be in United States' })).toBeVisible();
	await expect(page.getByTestId('do-not-sell')).toBeVisible();
	await page.getByTestId('consent-marketing_email').setChecked(false);
	await page.getByTestId('consent-health_data').setChecked(true);
	await page.getByTestId('consents-save').click();
	await page.waitForURL('**/privacy_center/manage');
	await expect(page.getByTestId('state-health_data')).toContainText('Given');
	await expect(page.getByTestId('state-marketing_email')).toContainText('Not given');

	// Staged changes saved together, each one recorded.
	await editConsents(page, '/privacy_center', { sale_share: false, personalised_ads: false });
	await page.waitForURL('**/privacy_center/manage?saved=2');
	await expect(page.getByRole('status')).toHaveText('2 changes saved.');
	await expect(page.getByTestId('state-sale_share')).toContainText('Not given');
	await expect(page.getByTestId('consent-history').getByRole('row')).toHaveCount(1 + 2 + 5 + 2);

	// Declining a required consent explains itself and offers deletion.
	await editConsents(page, '/privacy_center', { terms: false });
	await page.waitForURL('**/privacy_center/consents/decline');
	await expect(page.getByTestId('decline-delete')).toHaveAttribute('href', '/account/delete');
	await page.getByTestId('decline-reconsider').click();
	await page.getByTestId('consent-terms').setChecked(true);
	await page.getByTestId('edit-save').click();
	await page.waitForURL('**/privacy_center/manage?saved=1');

	// Export: asked on the page, built in the background, linked by mail, for this member only.
	await page.getByTestId('export-password').fill('not-my-password');
	await page.getByTestId('export-request').click();
	await expect(page.getByRole('alert')).toContainText('That password is not right.');
	const { link, pageLink, entries } = await exportFromManagePage(page, me);
	const consents = JSON.parse(entries.get('consents.json') as string);
	expect(consents.current.find((c: { key: string }) => c.key === 'sale_share').granted).toBe(false);
	expect([...entries.values()].join('\n')).not.toContain(other.email);
	await expect(page.getByTestId('access-log')).toContainText('Data export');
	// Another member's session can use neither the mailed link nor the page's.
	const stranger = await page.context().browser()?.newContext({ baseURL });
	await logIn(stranger?.request as APIRequestContext, baseURL as string, {
		email: other.email,
		password: PASSWORD,
	});
	expect((await stranger?.request.get(link))?.status()).toBe(404);
	expect((await stranger?.request.get(pageLink))?.status()).toBe(404);
	await stranger?.close();

	// Deleting the account: the link and the login stop working.
	const deleted = await page.request.delete(`/api/auth/deletion-request/${me.id}`, {
		data: { password: PASSWORD },
		headers: {
			origin: new URL(baseURL as string).origin,
			authorization: `Bearer ${await logIn(page.request, baseURL as string, { email: me.email, password: PASSWORD })}`,
		},
	});
	expect(deleted.status()).toBe(200);
	const again = await page.request.post('/api/auth/login', {
		data: { email: me.email, password: PASSWORD },
		headers: { origin: new URL(baseURL as string).origin },
	});
	expect(again.status()).toBe(401);
});

test('an EU1 member corrects their country, declines health data, agrees, exports and deletes', async ({
	page,
	baseURL,
}, testInfo) => {
	test.setTimeout(60_000);
	const me = await signUpMember(
		page.request,
		baseURL as string,
		{ name: 'berlin', country: 'DE' },
		testInfo.project.name,
	);
	await page.goto('/privacy_center/consents', { waitUntil: 'commit' });
	await expect(page.getByRole('heading', { name: 'You appear to be in Germany' })).toBeVisible();
	await expect(page.getByTestId('do-not-sell')).toHaveCount(0);
	await page.getByTestId('region-country').selectOption('FR');
	await page.getByTestId('region-save').click();
	await expect(page.getByRole('heading', { name: 'You appear to be in France' })).toBeVisible();
	// In EU1 nothing optional starts ticked; health data is required.
	await expect(page.getByTestId('consent-personalised_ads')).not.toBeChecked();
	await expect(page.locator('#consent-health_data')).toContainText('Required');
	// Still EU1: what was answered at signup is not asked again.
	await expect(page.getByTestId('consent-terms')).toHaveCount(0);
	await page.getByTestId('consents-save').click();
	await page.waitForURL('**/privacy_center/consents/decline');
	await expect(page.getByRole('heading', { name: 'Declining a required consent' })).toBeVisible();

	await editConsents(page, '/privacy_center', { health_data: true });
	await page.waitForURL('**/privacy_center/manage?saved=1');
	await expect(page.getByTestId('state-health_data')).toContainText('Given');
	await expect(page.getByText('the EU1 privacy rules apply')).toBeVisible();
	await expect(page.getByText('You declined a consent your account needs.')).toHaveCount(0);

	const { link, entries } = await exportFromManagePage(page, me);
	const consents = JSON.parse(entries.get('consents.json') as string);
	expect(consents.current.find((c: { key: string }) => c.key === 'health_data').granted).toBe(true);
	expect(JSON.parse(entries.get('settings.json') as string).country).toBe('FR');

	// Deleting from the account page takes the archive and the login with it.
	await page.goto('/account/delete');
	await page.getByLabel('Your password').fill(PASSWORD);
	await page.getByRole('checkbox', { name: /permanently/ }).check();
	await page.getByRole('button', { name: 'Delete my account' }).click();
	await expect(page.getByText(/everything in it are deleted/)).toBeVisible();
	// Signed out with the account gone, the mailed link only leads to the login page.
	const after = await page.request.get(link, { maxRedirects: 0 });
	expect(after.status()).toBe(302);
	expect(after.headers().location).toMatch(/^\/auth\/login/);
	const again = await page.request.post('/api/auth/login', {
		data: { email: me.email, password: PASSWORD },
		headers: { origin: new URL(baseURL as string).origin },
	});
	expect(again.status()).toBe(401);
});

test('a 12-year-old cannot sign up and nothing of them is kept', async ({ page }, testInfo) => {
	const email = `kid-${testInfo.project.name}-${Date.now()}@example.test`;
	await page.goto('/auth/signup', { waitUntil: 'commit' });
	await page.getByLabel('First name').fill('Kid');
	await page.getByLabel('Last name').fill('Young');
	await page.getByRole('textbox', { name: 'Email' }).fill(email);
	await page.locator('input[name="password"]').fill(PASSWORD);
	const now = new Date();
	await page.getByLabel('Day').selectOption('01');
	await page.getByLabel('Month').selectOption('01');
	await page.getByLabel('Year').selectOption(String(now.getFullYear() - 12));
	await page.getByLabel('Gender').selectOption('M');
	await page.getByLabel('Country').selectOption('US');
	await page.getByRole('checkbox', { name: /Terms of Use/ }).check();
	await page.getByRole('button', { name: 'Sign up' }).click();
	await page.waitForURL('**/privacy_center/ineligible');
	await expect(page.getByTestId('ineligible')).toContainText('We did not keep anything you entered.');
	const login = await page.request.post('/api/auth/login', { data: { email, password: PASSWORD } });
	expect(login.status()).toBe(401);
});

test('a Global Privacy Control signal opts a Texan out of sale and sharing', async ({
	browser,
	baseURL,
}, testInfo) => {
	const context = await browser.newContext({ baseURL, extraHTTPHeaders: { 'Sec-GPC': '1' } });
	const page = await context.newPage();
	await signUpMember(
		page.request,
		baseURL as string,
		{ name: 'texan', country: 'US', region: 'TX' },
		testInfo.project.name,
	);
	await page.goto('/privacy_center/manage', { waitUntil: 'commit' });
	await expect(page.getByTestId('do-not-sell')).toContainText('we recorded it as your opt-out');
	await expect(page.getByTestId('state-sale_share')).toContainText('Not given');
	await expect(page.getByTestId('state-sale_share')).toContainText('Global Privacy Control');
	await expect(page.getByTestId('state-personalised_ads')).toContainText('Not given');
	await context.close();
});

test('the app twins render without header or footer', async ({ page, baseURL }, testInfo) => {
	await signUpMember(
		page.request,
		baseURL as string,
		{ name: 'appuser', country: 'GB' },
		testInfo.project.name,
	);
	for (const [path, heading] of [
		['/mobile/privacy_center/manage', 'Privacy Center'],
		['/mobile/privacy_center/help', 'Privacy help'],
		['/mobile/privacy_center/ineligible', "Sorry, you can't have an account yet"],
		['/mobile/privacy_center/consents/decline', 'Declining a required consent'],
		['/mobile/privacy_center/consents/edit', 'Change your consents'],
	]) {
		const response = await page.goto(path, { waitUntil: 'commit' });
		expect(response?.status(), path).toBe(200);
		await expect(page.getByRole('heading', { level: 1, name: heading })).toBeVisible();
		await expect(page.locator('header.site-header')).toHaveCount(0);
		await expect(page.locator('footer')).toHaveCount(0);
	}
	// The app's edit screen stays in the app when it saves; the consents never answered are answered now.
	await page.getByTestId('consent-marketing_email').check();
	await page.getByTestId('edit-save').click();
	await page.waitForURL('**/mobile/privacy_center/manage?saved=5');
	await expect(page.getByTestId('state-marketing_email')).toContainText('Given');
	await expect(page.locator('header.site-header')).toHaveCount(0);
	// The site's own pages keep their chrome.
	await page.goto('/privacy_center/help', { waitUntil: 'commit' });
	await expect(page.locator('header.site-header')).toHaveCount(1);
});

test('visitors placed in an opt-out state see the do-not-sell banner on the help page', async ({
	page,
	context,
	baseURL,
}) => {
	await setGeo(context, baseURL as string, 'US-OR');
	await page.goto('/privacy_center/help');
	await expect(page.getByTestId('do-not-sell')).toBeVisible();
	await expect(page.getByTestId('do-not-sell').getByRole('link')).toHaveAttribute(
		'href',
		'/auth/login?next=%2Fprivacy_center%2Fconsents%2Fedit',
	);
	await setGeo(context, baseURL as string, 'US-OH');
	await page.goto('/privacy_center/help');
	await expect(page.getByRole('heading', { name: 'Privacy help' })).toBeVisible();
	await expect(page.getByTestId('do-not-sell')).toBeHidden();
});

test('a visitor’s Global Privacy Control signal is kept without an account and carried into one', async ({
	browser,
	baseURL,
}, testInfo) => {
	const signalling = await browser.newContext({ baseURL, extraHTTPHeaders: { 'Sec-GPC': '1' } });
	const page = await signalling.newPage();
	await page.goto('/');
	await page.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
	const dialog = page.getByRole('dialog', { name: 'Cookie preferences' });
	await expect(dialog).toContainText('Your browser’s Global Privacy Control signal is on');
	await expectNoSeriousA11yIssues(page);
	// Saving another choice keeps the opt-out beside it, and analytics stays off under the signal.
	await dialog.getByRole('checkbox', { name: 'Remember my preferences in this browser' }).uncheck();
	await dialog.getByRole('button', { name: 'Save choices' }).click();
	// The dialog's close event, which saves, comes a moment after the click.
	await expect
		.poll(
			async () => (await signalling.cookies()).find((cookie) => cookie.name === 'ms_cookie_choices')?.value,
		)
		.toBe('preferences-off.analytics-off.gpc');

	// The same browser later without the header (another network, a settings change): still opted out.
	const later = await browser.newContext({ baseURL, storageState: await signalling.storageState() });
	await signalling.close();
	const again = await later.newPage();
	await again.goto('/privacy_center/help');
	await again.getByRole('button', { name: 'Manage Cookie Preferences' }).click();
	await expect(again.getByRole('dialog', { name: 'Cookie preferences' })).toContainText(
		'Your browser’s Global Privacy Control signal is on',
	);
	// Signing up in Ohio, where the law does not make the signal an opt-out, still carries it over.
	await signUpMember(
		again.request,
		baseURL as string,
		{ name: 'ohio', country: 'US', region: 'OH' },
		testInfo.project.name,
	);
	await again.goto('/privacy_center/manage', { waitUntil: 'commit' });
	await expect(again.getByTestId('state-sale_share')).toContainText('Not given');
	await expect(again.getByTestId('state-sale_share')).toContainText('Global Privacy Control');
	await expect(again.getByTestId('state-personalised_ads')).toContainText('Not given');
	await later.close();
});
