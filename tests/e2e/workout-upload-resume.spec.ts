import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { forbidExternalRequests, logIn } from './helpers';

/**
 * A device file uploads through the resumable (tus) path: the connection drops in the middle, the
 * browser asks the server how far the bytes got and sends only the rest, by itself, and the member
 * gets the workout, whose kept file is the one they chose.
 */

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

test('a workout file whose upload is cut halfway resumes by itself and becomes the workout', async ({
	page,
	baseURL,
}) => {
	test.setTimeout(90_000);
	await forbidExternalRequests(page, baseURL as string);
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	// A real watch recording (820 KB, two parts of an upload), moved to a year of its own so no other
	// test's upload of it makes this one a duplicate: one of the 1980s, as no GPS fix predates 1980
	// (earlier times are a clock that was never set, and are not taken as the workout's).
	const year = 1981 + Math.floor(Math.random() * 9);
	const recording = Buffer.from(
		gunzipSync(readFileSync('tests/fixtures/workouts/tcx/running_activity_2.tcx.gz'))
			.toString('utf8')
			.replaceAll('2016-', `${year}-`),
	);
	const seen: string[] = [];
	let patches = 0;
	await page.route('**/api/workout_uploads/**', async (route) => {
		const request = route.request();
		seen.push(`${request.method()} ${request.headers()['upload-offset'] ?? ''}`.trim());
		// The second part never arrives: the connection is reset under it.
		if (request.method() === 'PATCH' && ++patches === 2) return route.abort('connectionreset');
		return route.fallback();
	});

	await page.goto('/workout/import/');
	await page
		.locator('#workout-files')
		.setInputFiles([
			{ name: 'running_activity_2.tcx', mimeType: 'application/octet-stream', buffer: recording },
		]);
	const item = page.getByTestId('upload-item');
	await expect(item).toHaveAttribute('data-status', 'imported', { timeout: 60_000 });
	const half = String(512 * 1024);
	expect(seen.slice(0, 5)).toEqual(['POST', 'PATCH 0', `PATCH ${half}`, 'HEAD', `PATCH ${half}`]);
	expect(seen).toContain('GET');

	const link = item.getByRole('link');
	const href = (await link.getAttribute('href')) as string;
	await link.click();
	await page.waitForURL(`**${href}`);
	await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
	const id = href.split('/').at(-1);
	const auth = { authorization: `Bearer ${token}` };
	const original = await page.request.get(`/api/v7.1/workout/${id}/export/?format=original`, {
		headers: auth,
	});
	expect(sha256(await original.body())).toBe(sha256(recording));
	const stored = await (await page.request.get(`/api/v7.1/workout/${id}/`, { headers: auth })).json();
	expect(stored.start_datetime.slice(0, 4)).toBe(String(year));
	expect((await page.request.delete(`/api/v7.1/workout/${id}/`, { headers: auth })).status()).toBe(204);
});
