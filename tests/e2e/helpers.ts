import AxeBuilder from '@axe-core/playwright';
import {
	type APIRequestContext,
	type Browser,
	type BrowserContext,
	expect,
	type Locator,
	type Page,
} from '@playwright/test';
import sharp from 'sharp';
import type { Viewer } from '../../src/lib/auth/contract';
import { encodeSessionHint, SESSION_HINT_COOKIE } from '../../src/lib/auth/hint';
import { MAP_VIEW_STORAGE_KEY } from '../../src/lib/site/cookie-choices';
import { readDeliveredMail } from './smtp-sink';

export const member: Viewer = { id: 42, username: 'ana.runner', displayName: 'Ana Runner', isPremium: false };
export const mvpMember: Viewer = { id: 43, username: 'mo', displayName: 'Mo Rider', isPremium: true };

/** Signs the browser in as far as pre-rendered pages can tell: the readable session hint cookie. */
export async function signInWithHint(
	context: BrowserContext,
	baseURL: string,
	viewer: Viewer,
): Promise<void> {
	await context.addCookies([{ name: SESSION_HINT_COOKIE, value: encodeSessionHint(viewer), url: baseURL }]);
}

export async function setGeo(context: BrowserContext, baseURL: string, value: string): Promise<void> {
	await context.addCookies([{ name: 'ms_geo', value, url: baseURL }]);
}

/**
 * Islands still waiting to hydrate, leaving out those that hydrate only when scrolled into view
 * (`client:visible`): a page is ready for a member once this matches nothing.
 */
export const HYDRATING_ISLANDS = 'astro-island[ssr]:not([client="visible"])';

/** Opens a page and waits until its scripts ran and the islands it hydrates on load did. */
export async function open(page: Page, path: string) {
	const response = await page.goto(path);
	await page.waitForLoadState('load');
	await expect(page.locator(HYDRATING_ISLANDS)).toHaveCount(0);
	return response;
}

/** Runs axe-core and fails on any serious or critical violation, naming them. */
export async function expectNoSeriousA11yIssues(page: Page): Promise<void> {
	const results = await new AxeBuilder({ page }).analyze();
	const serious = results.violations
		.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
		.map(
			(violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`,
		);
	expect(serious).toEqual([]);
}

/**
 * The share of a progress bar that is drawn filled, read from its pixels along the middle row: what a
 * member sees, whatever the markup says. The fill is the product's brand colour, #0b5cad.
 */
export async function drawnFill(bar: Locator): Promise<number> {
	const { data, info } = await sharp(await bar.screenshot({ animations: 'disabled' }))
		.raw()
		.toBuffer({ resolveWithObject: true });
	const row = Math.floor(info.height / 2);
	// The rounded ends and the border are neither fill nor track; count only the inner columns.
	const inset = Math.ceil(info.height / 2);
	let filled = 0;
	for (let x = inset; x < info.width - inset; x++) {
		const at = (row * info.width + x) * info.channels;
		const [r, g, b] = [data[at], data[at + 1], data[at + 2]];
		if (Math.abs(r - 0x0b) < 24 && Math.abs(g - 0x5c) < 24 && Math.abs(b - 0xad) < 24) filled++;
	}
	return filled / Math.max(1, info.width - 2 * inset);
}

/** Fails the test if the page asks anything of a host other than the server under test. */
export async function forbidExternalRequests(page: Page, baseURL: string): Promise<string[]> {
	const external: string[] = [];
	const origin = new URL(baseURL).origin;
	await page.route('**/*', (route) => {
		const url = route.request().url();
		if (url.startsWith(origin) || url.startsWith('data:') || url.startsWith('blob:')) return route.continue();
		external.push(url);
		return route.abort();
	});
	return external;
}

/** Signs a browser context (or its request client) in as a seeded member through the real login API. */
export async function logIn(
	request: APIRequestContext,
	baseURL: string,
	login: { email: string; password: string },
): Promise<string> {
	const response = await request.post('/api/auth/login', {
		data: { email: login.email, password: login.password },
		headers: { origin: new URL(baseURL).origin },
	});
	expect(response.ok()).toBe(true);
	return (await response.json()).access_token;
}

/**
 * Where a place is drawn on the planner's map, in page pixels: Web Mercator from the view the planner keeps
 * (its centre and zoom, saved when the map settles). Points of a long route are dots on a canvas with no
 * element of their own to find.
 */
export async function plannerPointOnPage(
	page: Page,
	place: { lat: number; lng: number },
): Promise<{ x: number; y: number }> {
	const { view, left, top, width, height } = await page.getByTestId('planner-map').evaluate((map, key) => {
		const box = map.getBoundingClientRect();
		return {
			view: JSON.parse(localStorage.getItem(key) ?? 'null') as {
				lat: number;
				lng: number;
				zoom: number;
			} | null,
			left: box.left + map.clientLeft,
			top: box.top + map.clientTop,
			width: map.clientWidth,
			height: map.clientHeight,
		};
	}, MAP_VIEW_STORAGE_KEY);
	if (!view) throw new Error('The planner has not kept its view.');
	const scale = 256 * 2 ** view.zoom;
	const project = (p: { lat: number; lng: number }) => {
		const sin = Math.sin((p.lat * Math.PI) / 180);
		return {
			x: scale * (0.5 + p.lng / 360),
			y: scale * (0.5 - Math.log((1 + sin) / (1 - sin)) / (4 * Math.PI)),
		};
	};
	const at = project(place);
	const centre = project(view);
	return { x: left + width / 2 + at.x - centre.x, y: top + height / 2 + at.y - centre.y };
}

export type NewMember = {
	first_name: string;
	last_name: string;
	email: string;
	password: string;
	id: number;
	token: string;
};

/** Who signs up in a test: a name, and anything the defaults below do not say. */
export type Applicant = { first_name: string; last_name: string; email: string; password: string } & Record<
	string,
	unknown
>;

/**
 * Signs a new member up and logs them in through the API, which leaves `request`'s context signed in.
 * They agreed at signup, as the signup form asks, so their pages open without the consent screen.
 */
export async function registerMember(request: APIRequestContext, baseURL: string, applicant: Applicant) {
	const person = {
		birthdate: '1990-05-05',
		gender: 'F',
		location: { country: 'US', region: 'PA', locality: 'Harrisburg' },
		consents: { terms_of_use: true, privacy_policy: true },
		...applicant,
	};
	const headers = { origin: new URL(baseURL).origin };
	const signup = await request.post('/api/auth/signup', { data: person, headers });
	expect(signup.status()).toBe(201);
	const login = await request.post('/api/auth/login', {
		data: { email: person.email, password: person.password },
		headers,
	});
	expect(login.status()).toBe(200);
	const answer = await login.json();
	return {
		person,
		user: answer.user as { id: number; time_zone: string },
		token: answer.access_token as string,
	};
}

/**
 * A new member signed up and logged in through the API in a context of their own, with a page
 * there: social tests make their own friends rather than change the demo world's.
 */
export async function signUp(browser: Browser, baseURL: string, first: string, stamp: string) {
	const context = await browser.newContext({ baseURL });
	const { person, user, token } = await registerMember(context.request, baseURL, {
		first_name: first,
		last_name: 'Social',
		email: `${first.toLowerCase()}.${stamp}@mapstride.example`,
		password: `Friendly-${first}-Trail-2026`,
		birthdate: '1991-03-03',
	});
	const member: NewMember = { ...person, id: user.id, token };
	// Signed in by the login API's cookies; the first member signs in again through the page.
	const page = await context.newPage();
	return { member, page };
}

/** The text of a mail as the test SMTP sink received it, once it has arrived. */
export async function deliveredMail(to: string, subject: string): Promise<string> {
	let text = '';
	await expect
		.poll(
			() => {
				text =
					readDeliveredMail(process.env.E2E_MAIL_DIR as string, to).find((mail) => mail.subject === subject)
						?.text ?? '';
				return text;
			},
			{ timeout: 15_000 },
		)
		.not.toBe('');
	return text;
}

/** The path of the newest link in the newest mail with this subject, once a mail newer than `after` arrived. */
export async function mailedLink(to: string, subject: string, after = 0): Promise<string> {
	let link = '';
	await expect
		.poll(
			() => {
				const mails = readDeliveredMail(process.env.E2E_MAIL_DIR as string, to).filter(
					(mail) => mail.subject === subject,
				);
				link = mails.length > after ? (mails.at(-1)?.text.match(/https?:\/\/\S+/)?.[0] ?? '') : '';
				return link;
			},
			{ timeout: 15_000 },
		)
		.not.toBe('');
	return new URL(link).pathname;
}

/**
 * The member playwright.config.ts puts in the vector map rollout: its username is `alternatemaps`.
 * Agreed at signup, as the signup form does, so logging in goes straight on.
 */
export const VECTOR_MAP_MEMBER = {
	first_name: 'Vera',
	last_name: 'Vector',
	email: 'alternate.maps@mapstride.example',
	password: 'Maple-Vector-Trail-2026',
	birthdate: '1990-02-02',
	gender: 'F',
	location: { country: 'US', region: 'PA', locality: 'Harrisburg' },
	consents: { terms_of_use: true, privacy_policy: true },
};

/** The centre of an element on the page, in the pixels page.mouse moves by. */
export async function centreOf(element: Locator): Promise<{ x: number; y: number }> {
	const box = await element.boundingBox();
	if (!box) throw new Error('The element is not drawn');
	return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** A point a share of the way along a line drawn as an SVG path (a Leaflet polyline), in page pixels. */
export async function pointAlongLine(line: Locator, share: number): Promise<{ x: number; y: number }> {
	return line.evaluate((path, at) => {
		const svg = path as SVGPathElement;
		const p = svg.getPointAtLength(svg.getTotalLength() * at);
		const m = svg.getScreenCTM() as DOMMatrix;
		return { x: m.a * p.x + m.c * p.y + m.e, y: m.b * p.x + m.d * p.y + m.f };
	}, share);
}

/** How far, in page pixels, a point is from a line drawn as an SVG path: the nearest of a thousand points along it. */
export async function distanceFromLine(line: Locator, point: { x: number; y: number }): Promise<number> {
	return line.evaluate((path, to) => {
		const svg = path as SVGPathElement;
		const m = svg.getScreenCTM() as DOMMatrix;
		const length = svg.getTotalLength();
		let nearest = Number.POSITIVE_INFINITY;
		for (let i = 0; i <= 1000; i++) {
			const p = svg.getPointAtLength((length * i) / 1000);
			const x = m.a * p.x + m.c * p.y + m.e;
			const y = m.b * p.x + m.d * p.y + m.f;
			nearest = Math.min(nearest, Math.hypot(x - to.x, y - to.y));
		}
		return nearest;
	}, point);
}

/** Types a card as soon as the form shows, before its script has loaded. */
export async function fillCard(page: Page, number: string) {
	await page.getByTestId('card-number').fill(number);
	await page.getByTestId('card-expiry').fill('12/34');
	await page.getByTestId('card-cvc').fill('123');
}

/** Types a card on the checkout page and presses Subscribe. */
export async function payWith(page: Page, number: string) {
	await fillCard(page, number);
	await page.getByTestId('checkout-pay').click();
}
