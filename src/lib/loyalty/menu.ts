import { $bootup, loadBootup } from '../site/store';

/**
 * The profile menu's loyalty line, for members in the pilot only: the bootup configuration carries
 * their status, read with the session cookie, so no access token is fetched on every page. Loaded on
 * demand by the menu's script, so visitors never download it.
 */
export async function mountLoyaltyMenu(item: HTMLElement): Promise<void> {
	await loadBootup();
	const loyalty = $bootup.get()?.loyalty;
	const text = item.querySelector<HTMLElement>('[data-loyalty-text]');
	if (!loyalty || !text) return;
	text.textContent = `${loyalty.status} · ${loyalty.pointsBalance.toLocaleString('en-US')} points`;
	item.hidden = false;
}
