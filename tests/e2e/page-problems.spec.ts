import { expect, test } from './fixtures';

/**
 * The page watch every browser test runs under sees the faults members met unseen: a style the
 * page's CSP refuses (every progress bar was drawn full that way), an asset that does not load, an
 * error nobody caught. Each is provoked here and must be reported.
 */
test('the page watch reports a refused inline style, a missing asset and an uncaught error', async ({
	page,
	pageProblems,
}) => {
	await page.goto('/');
	await page.evaluate(() =>
		document.body.insertAdjacentHTML('beforeend', '<span style="color: red">inline</span>'),
	);
	await expect
		.poll(() => pageProblems.drain().join('\n'))
		.toMatch(/console error on \/: Refused by the Content-Security-Policy \(style-src-attr\): an inline one/);

	await page.evaluate(() => {
		const image = document.createElement('img');
		image.src = '/no-such-picture.png';
		image.alt = '';
		document.body.append(image);
	});
	await expect
		.poll(() => pageProblems.drain().join('\n'))
		.toMatch(/^404 for image \/no-such-picture\.png on \/$/);

	await page.evaluate(() => {
		setTimeout(() => {
			throw new Error('nobody caught this');
		});
	});
	await expect
		.poll(() => pageProblems.drain().join('\n'))
		.toMatch(/uncaught error on \/: Error: nobody caught this/);

	// A 4xx answer to the page's own fetch is the product talking, judged by what the page shows.
	await page.evaluate(() => fetch('/api/v7.1/user/self/').then((response) => response.status));
	expect(pageProblems.drain()).toEqual([]);
});
