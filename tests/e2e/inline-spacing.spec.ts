import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';
import { logIn, open } from './helpers';

/**
 * Copy keeps its spaces around inline links and code: a line break between text and an `<a>` or a
 * `<code>` in a template is dropped by JSX whitespace rules, and the page reads "onconnected apps".
 * Each page's text is scanned where an inline element meets the text beside it. Layout does not
 * matter here, so desktop only.
 */

/** Where a word runs straight into an inline element's text or out of it, quoted with a little context. */
async function joinedWords(page: Page): Promise<string[]> {
	return page.evaluate(() => {
		const INLINE = 'a, code, strong, em, b, i, kbd, abbr, time, small, mark, q, cite, var, samp';
		// "you,friends" and "Questions:support@…" are joined as much as "onconnected".
		const wordEnd = /[\p{L}\p{N},.;:!?)]$/u;
		const wordStart = /^[\p{L}\p{N}(“‘/]/u;
		const textOf = (node: ChildNode | null) =>
			node?.nodeType === Node.TEXT_NODE ? (node.textContent ?? '') : '';
		const found: string[] = [];
		for (const element of document.body.querySelectorAll(INLINE)) {
			// Preformatted text keeps its own spacing; hidden text is not read.
			if (element.closest('pre, script, style, template, [hidden]')) continue;
			const text = element.textContent ?? '';
			const before = textOf(element.previousSibling);
			const after = textOf(element.nextSibling);
			const tag = element.tagName.toLowerCase();
			if (wordEnd.test(before) && wordStart.test(text))
				found.push(`…${before.slice(-20)}<${tag}>${text.slice(0, 20)}…`);
			if (wordEnd.test(text) && wordStart.test(after))
				found.push(`…${text.slice(-20)}</${tag}>${after.slice(0, 20)}…`);
		}
		return found;
	});
}

const VISITOR_PAGES = [
	'/',
	'/mvp/',
	'/developers/',
	'/legal/terms/',
	'/legal/privacy/',
	'/legal/cookies/',
	'/legal/privacy-notice/',
	'/email_verified',
	'/auth/login',
	'/auth/signup',
	'/us/pa/harrisburg/',
	'/training-plans/',
	'/challenges/',
];

const MEMBER_PAGES = [
	'/device-cloud/test/',
	'/account/connected_apps',
	'/account/privacy',
	'/developers/apps',
	'/privacy_center/manage',
	'/dashboard/',
	'/activity_feed/',
	'/people/friends/find/',
	'/premium/membership',
];

test.describe('spaces around inline links and code @desktop-layout', () => {
	for (const path of VISITOR_PAGES) {
		test(`${path} keeps a space where text meets a link or code`, async ({ page }) => {
			await open(page, path);
			expect(await joinedWords(page)).toEqual([]);
		});
	}

	for (const path of MEMBER_PAGES) {
		test(`${path} signed in keeps a space where text meets a link or code`, async ({ page, baseURL }) => {
			await logIn(page.request, baseURL as string, DEMO_LOGIN);
			await open(page, path);
			expect(await joinedWords(page)).toEqual([]);
		});
	}
});
