/**
 * The `test` and `expect` every browser test imports. Page-wide checks that hold for every journey
 * live here, so a new spec gets them by importing from this file rather than from Playwright.
 *
 * Every page a test opens (in its own context or in one it makes with `browser.newContext`) is
 * watched, and the test fails afterwards if any of them:
 * - logged a console error, or had something refused by its Content-Security-Policy;
 * - threw an uncaught error or left a promise rejection unhandled;
 * - failed to load one of its own assets (script, style, image, font, map tile), or got a 5xx
 *   answer from its own server.
 * A 4xx answer to the page's own fetch is the product talking (a wrong password, a session that
 * ended) and is judged by what the page then shows, not here. A test that provokes a console error
 * on purpose lists it with `pageProblems.expectConsoleError(pattern)`, and one that makes a request
 * fail (a stubbed 5xx) lists its path with `pageProblems.expectFailedRequest(pattern)`.
 */
import type { Browser, BrowserContext, ConsoleMessage, Page, Request, Response } from '@playwright/test';
import { test as base, expect } from '@playwright/test';

export * from '@playwright/test';

/** Resource types that are the page's own assets: a failure here leaves something undrawn. */
const ASSET_TYPES = new Set(['script', 'stylesheet', 'image', 'font', 'media', 'manifest']);
/** Chromium's console echo of a failed request: judged from the request itself, with its URL. */
const FAILED_LOAD_ECHO = /^Failed to load resource: /;

export type PageProblems = {
	/** Allows console errors matching the pattern for the rest of the test. */
	expectConsoleError(pattern: RegExp): void;
	/** Allows failed answers (a 5xx the test stubs, say) to requests whose path matches, for the rest of the test. */
	expectFailedRequest(pathPattern: RegExp): void;
	/** Hands over what has been found so far and forgets it, for a test that asserts on it itself. */
	drain(): string[];
};

function sameOrigin(url: string, origins: Set<string>): boolean {
	try {
		return origins.has(new URL(url).origin);
	} catch {
		return false;
	}
}

export const test = base.extend<{ pageProblems: PageProblems }>({
	pageProblems: [
		async ({ context, browser, baseURL }, use) => {
			const found: string[] = [];
			const allowed: RegExp[] = [];
			const allowedFailures: RegExp[] = [];
			const origins = new Set<string>(baseURL ? [new URL(baseURL).origin] : []);
			const where = (page: Page) => {
				const url = page.url();
				return url === 'about:blank' ? '' : ` on ${url.replace(/^https?:\/\/[^/]+/, '')}`;
			};
			const watchPage = (page: Page) => {
				page.on('console', (message: ConsoleMessage) => {
					if (message.type() !== 'error') return;
					const text = message.text();
					if (FAILED_LOAD_ECHO.test(text)) return;
					if (allowed.some((pattern) => pattern.test(text))) return;
					found.push(`console error${where(page)}: ${text}`);
				});
				page.on('pageerror', (error: Error) => {
					const text = `${error.name}: ${error.message}`;
					if (allowed.some((pattern) => pattern.test(text))) return;
					found.push(`uncaught error${where(page)}: ${text}`);
				});
				page.on('response', (response: Response) => {
					const request = response.request();
					if (!sameOrigin(response.url(), origins)) return;
					const status = response.status();
					const asset = ASSET_TYPES.has(request.resourceType());
					const pathname = new URL(response.url()).pathname;
					if (allowedFailures.some((pattern) => pattern.test(pathname))) return;
					if ((asset && status >= 400) || status >= 500) {
						found.push(
							`${status} for ${request.resourceType()} ${new URL(response.url()).pathname}${where(page)}`,
						);
					}
				});
				page.on('requestfailed', (request: Request) => {
					if (!sameOrigin(request.url(), origins) || !ASSET_TYPES.has(request.resourceType())) return;
					if (allowedFailures.some((pattern) => pattern.test(new URL(request.url()).pathname))) return;
					const reason = request.failure()?.errorText ?? 'failed';
					// A navigation or a removed element cancels loads in flight; nothing is left undrawn.
					if (reason === 'net::ERR_ABORTED') return;
					found.push(
						`${reason} for ${request.resourceType()} ${new URL(request.url()).pathname}${where(page)}`,
					);
				});
			};
			const watchContext = async (watched: BrowserContext) => {
				// Chromium reports a CSP refusal to DevTools' log, which Playwright does not pass on as a
				// console message; the page's own violation event does reach it, through console.error.
				await watched.addInitScript(() => {
					document.addEventListener('securitypolicyviolation', (event) => {
						const what =
							event.blockedURI && event.blockedURI !== 'inline' ? event.blockedURI : 'an inline one';
						console.error(`Refused by the Content-Security-Policy (${event.violatedDirective}): ${what}`);
					});
				});
				for (const page of watched.pages()) watchPage(page);
				watched.on('page', watchPage);
			};
			await watchContext(context);
			// Tests that sign in several members make their own contexts; those pages count too.
			const newContext = browser.newContext.bind(browser);
			const patched: Browser['newContext'] = async (options) => {
				const made = await newContext(options);
				const url = options?.baseURL;
				if (url) origins.add(new URL(url).origin);
				await watchContext(made);
				return made;
			};
			browser.newContext = patched;
			try {
				await use({
					expectConsoleError: (pattern) => allowed.push(pattern),
					expectFailedRequest: (pattern) => allowedFailures.push(pattern),
					drain: () => found.splice(0),
				});
			} finally {
				browser.newContext = newContext;
			}
			expect(found, 'the pages this test opened logged errors or failed to load their own assets').toEqual(
				[],
			);
		},
		{ auto: true },
	],
});
