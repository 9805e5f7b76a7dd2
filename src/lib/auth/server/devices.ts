import { UAParser } from 'ua-parser-js';

/** Names members know: "Mobile Safari" is Safari to them, "Mac OS" is macOS. */
const BROWSER_NAMES: Record<string, string> = {
	'Mobile Safari': 'Safari',
	'Mobile Firefox': 'Firefox',
	'Chrome WebView': 'Chrome',
	'Chrome Headless': 'Chrome',
	'Android Browser': 'Android browser',
};
const SYSTEM_NAMES: Record<string, string> = { 'Mac OS': 'macOS', 'Chromium OS': 'ChromeOS' };

/**
 * "Firefox on Ubuntu", "Safari on iPhone": what "Where you're logged in" calls a sign-in, from the
 * browser's user-agent string. Apple's phones and tablets are named by model, as members call them.
 */
export function describeDevice(userAgent: string): string {
	const { browser, os, device } = new UAParser(userAgent).getResult();
	const browserName = browser.name ? (BROWSER_NAMES[browser.name] ?? browser.name) : null;
	const knownModel = device.model && /^(iPhone|iPad|iPod)$/.test(device.model) ? device.model : null;
	const systemName = knownModel ?? (os.name ? (SYSTEM_NAMES[os.name] ?? os.name) : null);
	if (browserName && systemName) return `${browserName} on ${systemName}`;
	// Apps and tools (curl/8.5.0) name themselves first.
	return browserName ?? systemName ?? (userAgent.trim().split(/\s+/)[0].slice(0, 40) || 'Unknown browser');
}
