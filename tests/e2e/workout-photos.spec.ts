import sharp from 'sharp';
import { DEMO_FRIEND_LOGIN, DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, test } from './fixtures';
import { expectNoSeriousA11yIssues, logIn } from './helpers';

/** A member adds photos to a workout from its page, a friend sees them, and the owner removes one. */

const jpeg = (colour: string) =>
	sharp({ create: { width: 900, height: 600, channels: 3, background: colour } })
		.jpeg()
		.toBuffer();

test('a member adds photos to a workout, a friend sees them, and a file that is no photo is refused', async ({
	page,
	baseURL,
	browser,
}) => {
	const token = await logIn(page.request, baseURL as string, DEMO_LOGIN);
	// Dated within the last two hours, so the friend's feed shows it near the top, never above a story still to come.
	const name = `Hill reps with a view ${Math.random().toString(36).slice(2, 7)}`;
	const created = await page.request.post('/api/v7.1/workout/', {
		headers: { authorization: `Bearer ${token}` },
		data: {
			name,
			start_datetime: new Date(Date.now() - (2 + Math.floor(Math.random() * 118)) * 60_000)
				.toISOString()
				.replace(/\.\d{3}Z$/, '+00:00'),
			start_locale_timezone: 'America/New_York',
			activity_type: 16,
			privacy: 1,
			aggregates: { distance_total: 6000, active_time_total: 2100, elapsed_time_total: 2200 },
		},
	});
	expect(created.status()).toBe(201);
	const { id } = (await created.json()) as { id: number };

	await page.goto(`/workout/${id}`);
	const photos = page.locator('#photos');
	await photos.getByLabel(/^Add photos/).setInputFiles([
		{ name: 'summit.jpg', mimeType: 'image/jpeg', buffer: await jpeg('#2f6f4f') },
		{ name: 'river.jpg', mimeType: 'image/jpeg', buffer: await jpeg('#1f4f8f') },
	]);
	await photos.getByRole('button', { name: 'Add photos', exact: true }).click();
	await expect(photos.getByRole('status')).toHaveText('Added your photos.');
	const gallery = page.getByTestId('workout-photos');
	await expect(gallery.getByRole('img')).toHaveCount(2);
	const first = gallery.getByRole('img', { name: `Photo 1 of ${name}` });
	await expect(first).toHaveJSProperty('complete', true);
	expect(await first.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
	await expectNoSeriousA11yIssues(page);

	// A friend sees them on the workout's card in their feed, and on the workout, where the full
	// photo opens from its thumbnail.
	const friend = await browser.newPage({ baseURL });
	await logIn(friend.request, baseURL as string, DEMO_FRIEND_LOGIN);
	await friend.goto('/activity_feed/');
	const card = friend.locator(`[data-story="workout_${id}"]`);
	await expect(card.getByTestId('story-photos').getByRole('img')).toHaveCount(2);
	const cardPhoto = card.getByRole('img', { name: `1 of 2 from ${name}` });
	await cardPhoto.scrollIntoViewIfNeeded();
	await expect(cardPhoto).toHaveJSProperty('complete', true);
	expect(await cardPhoto.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(320);
	await card.getByRole('link', { name, exact: true }).click();
	await expect(friend).toHaveURL(new RegExp(`/workout/${id}$`));
	await expect(friend.getByTestId('workout-photos').getByRole('img')).toHaveCount(2);
	await expect(friend.getByRole('button', { name: /Remove/ })).toHaveCount(0);
	await expect(friend.getByLabel(/^Add photos/)).toHaveCount(0);
	const large = await friend.request.get(
		(await friend.getByTestId('workout-photos').getByRole('link').first().getAttribute('href')) ?? '',
	);
	expect(large.status()).toBe(200);
	expect(large.headers()['content-type']).toBe('image/jpeg');
	await friend.close();

	// A page of text named like a photo is refused by what it holds, and nothing is lost.
	await photos.getByLabel(/^Add photos/).setInputFiles({
		name: 'holiday.jpg',
		mimeType: 'image/jpeg',
		buffer: Buffer.from('<html><script>alert(1)</script></html>'),
	});
	await photos.getByRole('button', { name: 'Add photos', exact: true }).click();
	await expect(photos.getByRole('alert')).toHaveText('A photo must be a JPEG, PNG or GIF image.');
	await expect(gallery.getByRole('img')).toHaveCount(2);

	await gallery.getByRole('button', { name: 'Remove photo 1' }).click();
	await expect(photos.getByRole('status')).toHaveText('Removed the photo.');
	await expect(gallery.getByRole('img')).toHaveCount(1);
	await expect(gallery.getByRole('img')).toHaveAccessibleName(`Photo 1 of ${name}`);
});
