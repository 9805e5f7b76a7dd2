import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { type APIRequestContext, expect, test } from './fixtures';
import { logIn } from './helpers';

/**
 * Every link the site renders leads somewhere: from the home page and the member's own pages, each
 * link on this server is followed, as a visitor and as the demo member, and must not answer an error.
 * Pages that differ only in an id are followed a few times, not once per route or workout.
 */

const START = ['/', '/dashboard', '/activity_feed/', '/account/contact', '/legal/privacy'];
/** Following these would end the session the crawl runs in. */
const SKIP = [/^\/auth\/logout/];
const PER_SHAPE = 3;
const MOST = 700;

/** The links of a page that stay on this server, without their fragment. */
function linksOf(html: string, from: URL): string[] {
	const found: string[] = [];
	for (const match of html.matchAll(/<a\b[^>]*?\shref="([^"]*)"/g)) {
		const href = match[1].replaceAll('&amp;', '&');
		if (/^(mailto|tel|javascript):/i.test(href)) continue;
		const url = new URL(href, from);
		if (url.origin !== from.origin) continue;
		url.hash = '';
		found.push(url.pathname + url.search);
	}
	return found;
}

/** A path with its ids blanked: /routes/view/12 and /routes/view/34 are one kind of page. */
const shapeOf = (path: string) => path.replace(/\?.*$/, '').replace(/\d+/g, 'N');

async function crawl(request: APIRequestContext) {
	const seen = new Set<string>();
	const perShape = new Map<string, number>();
	const broken: string[] = [];
	const queue = START.map((path) => ({ path, from: '(start)' }));
	while (queue.length > 0 && seen.size < MOST) {
		const { path, from } = queue.shift() as { path: string; from: string };
		if (seen.has(path) || SKIP.some((pattern) => pattern.test(path))) continue;
		const shape = shapeOf(path);
		if ((perShape.get(shape) ?? 0) >= PER_SHAPE) continue;
		perShape.set(shape, (perShape.get(shape) ?? 0) + 1);
		seen.add(path);
		const response = await request.get(path, { maxRedirects: 5 });
		if (response.status() >= 400) {
			broken.push(`${path} answered ${response.status()} (linked from ${from})`);
			continue;
		}
		if (!(response.headers()['content-type'] ?? '').includes('text/html')) continue;
		for (const link of linksOf(await response.text(), new URL(response.url())))
			if (!seen.has(link)) queue.push({ path: link, from: path });
	}
	return { visited: seen.size, broken };
}

test.describe('links @desktop-layout', () => {
	test('every link a visitor is shown leads to a page', async ({ playwright, baseURL }) => {
		test.setTimeout(180_000);
		const visitor = await playwright.request.newContext({ baseURL });
		const { visited, broken } = await crawl(visitor);
		expect(visited).toBeGreaterThan(40);
		expect(broken).toEqual([]);
		await visitor.dispose();
	});

	test('every link the demo member is shown leads to a page', async ({ playwright, baseURL }) => {
		test.setTimeout(180_000);
		const member = await playwright.request.newContext({ baseURL });
		await logIn(member, baseURL as string, DEMO_LOGIN);
		const { visited, broken } = await crawl(member);
		expect(visited).toBeGreaterThan(80);
		expect(broken).toEqual([]);
		await member.dispose();
	});
});
