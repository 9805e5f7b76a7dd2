/**
 * Lighthouse CI's puppeteerScript for the signed-in pages: before each audited page the browser
 * signs in as the demo member the way the sign-in form does (a same-origin POST that sets the
 * session cookie), so every audit starts from a fresh session of its own. Cookies stay in the
 * browser, where the page's own session refresh can rotate them as it does for a member.
 */
const DEMO_LOGIN = { email: 'demo@mapstride.example', password: 'stride-demo-2026' };

module.exports = async (browser, { url }) => {
	// The last audit's session would send the sign-in page on to the dashboard.
	await browser.deleteCookie(...(await browser.cookies()));
	const page = await browser.newPage();
	try {
		await page.goto(new URL('/auth/login', url).href, { waitUntil: 'load' });
		const status = await page.evaluate(async (login) => {
			const answer = await fetch('/api/auth/login', {
				method: 'POST',
				headers: { 'content-type': 'application/json' },
				body: JSON.stringify(login),
			});
			return answer.status;
		}, DEMO_LOGIN);
		if (status !== 200) throw new Error(`The demo member could not sign in for ${url}: ${status}`);
	} finally {
		await page.close();
	}
};
