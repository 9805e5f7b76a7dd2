import { atom } from 'nanostores';
import { api, ensureSession } from '../api/client';
import type { LoyaltyStatusView } from './contract';

/** The signed-in member's loyalty status, as the dashboard card shows it. */
export type LoyaltyState =
	| { state: 'idle' }
	| { state: 'loading' }
	| { state: 'success'; status: LoyaltyStatusView }
	| { state: 'error' };

export const $loyalty = atom<LoyaltyState>({ state: 'idle' });

let loading: Promise<void> | null = null;

/** Loads the status once per page; `retry` asks again after an error. */
export function loadLoyalty(userId: number, retry = false): Promise<void> {
	if (retry) loading = null;
	loading ??= (async () => {
		$loyalty.set({ state: 'loading' });
		try {
			await ensureSession();
			$loyalty.set({
				state: 'success',
				status: await api<LoyaltyStatusView>(`/v1/loyalty/status/${userId}`),
			});
		} catch {
			$loyalty.set({ state: 'error' });
		}
	})();
	return loading;
}
