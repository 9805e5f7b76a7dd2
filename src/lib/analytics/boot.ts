/**
 * What every page loads for analytics: this visitor's consent, the device id cookie, and the
 * sender itself only for a visitor who may be counted. Most first visits may not be (no choice
 * yet in Europe or where the place is unknown), and the shell's script budget is spent on them.
 * Events the page's islands queue meanwhile wait in the queue and leave once the sender starts.
 */
import { browserConsent } from './browser-consent';

let loading = false;

/** Starts the sender when this visitor may be counted; called on load and after a yes in the cookie dialog. */
export function startAnalytics(): void {
	if (loading || browserConsent() === 'none') return;
	loading = true;
	void import('./beacon').then(({ runAnalytics }) => runAnalytics());
}
