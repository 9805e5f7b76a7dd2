import { DEMO_ADMIN_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, logIn } from './helpers';

/** The demo world's operator runs a challenge from the browser; members cannot reach the tools. */
test('an operator creates, corrects, edits and ends a challenge; a member finds no admin pages', async ({
	page,
	baseURL,
	browser,
}, testInfo) => {
	// A whole journey: two sign-ins, five forms and two accessibility checks.
	test.setTimeout(60_000);
	await logIn(page.request, baseURL as string, DEMO_ADMIN_LOGIN);
	const name = `Autumn Ten ${testInfo.project.name} ${Date.now()}`;
	await page.goto('/admin/');
	await page.getByRole('link', { name: 'Challenges' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Challenges');
	await expectNoSeriousA11yIssues(page);

	const form = page.locator('form.challenge-form');
	await form.getByLabel('Name', { exact: true }).fill(name);
	await form.getByLabel('Run', { exact: true }).check();
	await form.getByLabel('Metric').selectOption('distance');
	await form.getByLabel(/^Target/).fill('10');
	// Ends before it starts: refused, with what was typed kept.
	await form.getByLabel('Starts on').fill('2026-11-30');
	await form.getByLabel('Ends on').fill('2026-11-01');
	await form.getByRole('button', { name: 'Create challenge' }).click();
	await expect(page.getByRole('alert')).toContainText('A challenge ends on or after the day it starts.');
	await expect(form.getByLabel('Name', { exact: true })).toHaveValue(name);
	await expect(form.getByLabel('Run', { exact: true })).toBeChecked();
	await form.getByLabel('Ends on').fill('2026-12-31');
	await form.getByRole('button', { name: 'Create challenge' }).click();
	await expect(page.getByRole('status')).toHaveText('Created the challenge.');
	await expect(page.getByRole('heading', { level: 1 })).toHaveText(name);

	// Its public page shows the rules the operator set.
	const publicPath = await page.getByRole('link', { name: 'its page' }).getAttribute('href');
	const member = await browser.newPage({ baseURL });
	await logIn(member.request, baseURL as string, DEMO_LOGIN);
	await member.goto(publicPath ?? '');
	await expect(member.getByTestId('challenge-name')).toHaveText(name);
	await expect(member.locator('main')).toContainText('10 km');

	await page
		.locator('form.challenge-form')
		.getByLabel(/^Target/)
		.fill('21.1');
	await page.getByRole('button', { name: 'Save changes' }).click();
	await expect(page.getByRole('status')).toHaveText('Saved; everyone in it was recounted.');
	await expect(page.locator('form.challenge-form').getByLabel(/^Target/)).toHaveValue('21.1');
	await page.getByRole('button', { name: 'End this challenge now' }).click();
	await expect(page.getByRole('status')).toHaveText('Ended; its standings are final.');
	await expect(page.getByRole('button', { name: 'End this challenge now' })).toHaveCount(0);
	await page.goto('/admin/');
	await page.getByRole('link', { name: 'Payments' }).click();
	await expect(page.getByRole('heading', { level: 1 })).toHaveText('Payments');
	await page.goto('/admin/challenges/');
	await expect(
		page.getByTestId('admin-challenges').getByRole('row', { name: new RegExp(name) }),
	).toContainText('Ended');

	// A member is told the admin pages do not exist, and cannot post to them either.
	for (const path of [
		'/admin/',
		'/admin/challenges/',
		publicPath?.replace('/challenges/', '/admin/challenges/') ?? '',
	])
		expect((await member.goto(path))?.status(), path).toBe(404);
	const forged = await member.request.post('/admin/challenges/', {
		headers: { origin: new URL(baseURL as string).origin },
		form: {
			name: 'Sneaky',
			metric: 'count',
			activity_groups: 'run',
			target: '1',
			starts_on: '2026-01-01',
			ends_on: '2026-12-31',
		},
	});
	expect(forged.status()).toBe(404);
	await member.goto('/challenges/');
	await expect(member.getByText('Sneaky')).toHaveCount(0);
	await member.close();
});
