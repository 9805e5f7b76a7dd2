import { readSessionHint } from '../../lib/auth/hint';
import { authLink, avatarUrl } from '../../lib/site/navigation';

/**
 * Pre-rendered pages are built logged out. This switches the header, drawer, footer and promo
 * banner to the signed-in member named by the session hint cookie.
 */
export function applyViewerHint(doc: Document = document): void {
	if (doc.body.dataset.viewer === 'hint') {
		const viewer = readSessionHint(doc.cookie);
		if (viewer) {
			for (const item of doc.querySelectorAll<HTMLElement>('[data-members-only]')) item.hidden = false;
			for (const item of doc.querySelectorAll<HTMLElement>('[data-visitors-only], [data-auth-links]')) {
				item.hidden = true;
			}
			for (const menu of doc.querySelectorAll<HTMLElement>('[data-profile-menu]')) {
				const name = menu.querySelector('[data-display-name]');
				if (name) name.textContent = viewer.displayName;
				menu
					.querySelector<HTMLImageElement>('img[data-avatar]')
					?.setAttribute('src', avatarUrl(viewer.username));
				menu.hidden = false;
			}
			if (viewer.isPremium) {
				for (const banner of doc.querySelectorAll<HTMLElement>('[data-promo]')) banner.hidden = true;
			}
		}
	}
	showUnreadNotifications(doc);
	// Built pages know their path but not the query string the visitor arrived with.
	const here = `${location.pathname}${location.search}`;
	for (const link of doc.querySelectorAll<HTMLAnchorElement>('a[data-auth-link]')) {
		link.href = authLink(link.dataset.authLink as '/auth/login/' | '/auth/signup/', here);
	}
}

/** Puts the number of new notifications on the header's bell, once a member is known to be here. */
async function showUnreadNotifications(doc: Document): Promise<void> {
	const bell = doc.querySelector<HTMLElement>('[data-notification-bell]');
	if (!bell || bell.hidden) return;
	const answer = await fetch('/activity_feed/unread', { headers: { accept: 'application/json' } }).catch(
		() => null,
	);
	const unread = answer?.ok ? Number((await answer.json().catch(() => null))?.unread) : 0;
	const count = bell.querySelector<HTMLElement>('[data-unread]');
	const label = bell.querySelector<HTMLElement>('[data-bell-label]');
	if (!count || !label || !(unread > 0)) return;
	count.textContent = unread > 9 ? '9+' : String(unread);
	count.hidden = false;
	label.textContent = `Notifications, ${unread > 9 ? 'more than 9' : unread} new`;
}
