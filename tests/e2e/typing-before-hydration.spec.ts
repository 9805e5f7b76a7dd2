import { DEMO_LOGIN } from '../../src/lib/db/seed';
import { expect, type Page, test } from './fixtures';

/**
 * Typing before hydration: on every page with an island that owns a text field, a member who types
 * into it while the island's script is still on its way keeps every key, the focus and the caret.
 * The island's script is held back until the keys are in, as on a slow connection.
 *
 * One entry per page with such an island (src/pages: `client:*` components whose server-rendered
 * HTML has a text field, and the city search widget of the pre-rendered pages). Islands left out own
 * no text field before they hydrate: they render "Loading…" (account tabs, personalization, account
 * deletion, password reset) or only dates, ranges, checkboxes and file pickers (stats, workout cut,
 * challenge name choice, imports).
 */
type IslandPage = {
	/** The page, or how to find it for the signed-in demo member. */
	path: string | ((page: Page) => Promise<string>);
	/** The island's component, as its script chunk is named (`/_astro/LoginForm.<hash>.js`). */
	island: string;
	signedIn?: boolean;
};

/** The city search of the pre-rendered pages takes over with a script of its own, not an astro-island. */
const CITY_SEARCH = 'mount-city-search';

const ISLAND_PAGES: IslandPage[] = [
	{ path: '/', island: CITY_SEARCH },
	{ path: '/us/', island: CITY_SEARCH },
	{ path: '/us/pa/', island: CITY_SEARCH },
	{ path: '/us/pa/harrisburg/', island: CITY_SEARCH },
	{ path: '/auth/login/', island: 'LoginForm' },
	{ path: '/auth/signup/', island: 'SignupForm' },
	{ path: '/auth/forgot_password/', island: 'RequestLinkForm' },
	{ path: '/routes/search/', island: 'RouteSearch', signedIn: true },
	{ path: '/workout/create/', island: 'WorkoutLog', signedIn: true },
	{ path: '/premium/checkout', island: 'Checkout', signedIn: true },
	{ path: hostedCheckout, island: 'Checkout', signedIn: true },
	{ path: '/activity_feed/', island: 'ActivityFeed', signedIn: true },
	{ path: demoProfileFeed, island: 'ActivityFeed', signedIn: true },
];

/** What is typed before the island hydrates, then after. */
const EARLY = 'Harr';
const LATE = 'isb';
/** Digits for a field that takes only digits (a card number, hours), short enough for any of them. */
const EARLY_DIGITS = '12';
const LATE_DIGITS = '3';

/** A field a member can type text into. */
const TEXT_FIELD =
	'input:is(:not([type]), [type="text"], [type="email"], [type="search"], [type="password"], [type="tel"], [type="url"]):visible, textarea:visible';

/**
 * The value the island renders the field with: React's props of a controlled field, or the field's
 * own value for one React leaves alone. A controlled field whose state missed the early keys still
 * shows them until the island next renders, then drops them (or sends the stale state on submit).
 */
function renderedValue(field: Element): string {
	const input = field as HTMLInputElement;
	const key = Object.keys(input).find((name) => name.startsWith('__reactProps$'));
	const props = key ? (input as unknown as Record<string, { value?: unknown }>)[key] : undefined;
	return props && props.value !== undefined ? String(props.value) : input.value;
}

/** The demo member's session in this page's context; answers their id. */
async function signIn(page: Page): Promise<{ id: number; token: string }> {
	const login = await page.request.post('/api/auth/login', { data: DEMO_LOGIN });
	expect(login.ok()).toBe(true);
	const answer = await login.json();
	return { id: answer.user.id, token: answer.access_token };
}

/** A hosted checkout of a payment intent the demo member starts, as an app would. */
async function hostedCheckout(page: Page): Promise<string> {
	const { token } = await signIn(page);
	const started = await page.request.post('/api/checkoutapi/paymentIntent', {
		headers: { authorization: `Bearer ${token}`, 'idempotency-key': `app_${crypto.randomUUID()}` },
		data: { product_id: 'mvp-annual' },
	});
	expect(started.status()).toBe(201);
	return `/checkout/en-us/MMF/${(await started.json()).id}`;
}

async function demoProfileFeed(page: Page): Promise<string> {
	return `/profile/${(await signIn(page)).id}/activity_feed`;
}

const titleOf = (entry: IslandPage) =>
	`${typeof entry.path === 'string' ? entry.path : entry.path.name} (${entry.island})`;

for (const entry of ISLAND_PAGES) {
	test(`${titleOf(entry)}: keys typed before hydration are all kept, with the focus and caret`, async ({
		page,
	}) => {
		if (entry.signedIn) await signIn(page);
		const path = typeof entry.path === 'string' ? entry.path : await entry.path(page);

		let release: () => void = () => {};
		const held = new Promise<void>((resolve) => {
			release = resolve;
		});
		await page.route(new RegExp(`/_astro/${entry.island}\\.[\\w-]+\\.js$`), async (route) => {
			await held;
			await route.continue();
		});
		const cityWidget = entry.island === CITY_SEARCH;
		const island = page
			.locator(cityWidget ? '[data-city-search]' : `astro-island[component-url*="/${entry.island}."]`)
			.first();
		const hydrated = cityWidget
			? page.locator('[data-city-search][data-hydrated="true"]')
			: page.locator(`astro-island[component-url*="/${entry.island}."]:not([ssr])`);

		await page.goto(path, { waitUntil: 'commit' });
		// The first field open to typing (one disabled until its island runs cannot lose keys), held by
		// its place among the island's text fields: the island may put its own field in that place.
		const fields = island.locator(TEXT_FIELD);
		await expect(fields.and(page.locator(':enabled')).first()).toBeVisible();
		const index = await fields.evaluateAll((list) =>
			list.findIndex((element) => !(element as HTMLInputElement).disabled),
		);
		const field = fields.nth(index);
		await field.click();
		const digitsOnly = ['numeric', 'decimal'].includes((await field.getAttribute('inputmode')) ?? '');
		const [early, late] = digitsOnly ? [EARLY_DIGITS, LATE_DIGITS] : [EARLY, LATE];
		await page.keyboard.type(early, { delay: 30 });
		// The keys really went in before the island ran.
		await expect(hydrated).toHaveCount(0);
		await expect(field).toHaveValue(early);

		release();
		await expect(hydrated.first()).toBeAttached({ timeout: 15_000 });
		// Whatever the island fetches or sets when it wakes up has landed.
		await page.waitForLoadState('networkidle');
		await expect(field).toHaveValue(early);
		await expect.poll(() => field.evaluate(renderedValue), { message: "the island's own state" }).toBe(early);
		await expect(field).toBeFocused();
		// Typing goes on at the caret, and stays when the island next renders.
		await page.keyboard.type(late, { delay: 30 });
		await expect(field).toHaveValue(early + late);
		await page.waitForLoadState('networkidle');
		await expect(field).toHaveValue(early + late);
		expect(await field.evaluate(renderedValue)).toBe(early + late);
	});
}
