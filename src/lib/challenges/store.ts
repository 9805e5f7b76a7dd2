import { atom } from 'nanostores';
import { api, ensureSession } from '../api/client';

/**
 * The challenge page's name choice: whether the member's name shows on the leaderboard, saved
 * through the join call (which keeps progress and changes only the choice). The API client
 * retries once on 502.
 */
export type NameChoiceStatus = 'idle' | 'saving' | 'saved' | 'error';

export const $nameChoiceStatus = atom<NameChoiceStatus>('idle');

export async function saveNameChoice(challengeId: number, showName: boolean): Promise<boolean> {
	$nameChoiceStatus.set('saving');
	try {
		await ensureSession();
		await api(`/challenges/${challengeId}/users/`, { method: 'POST', body: { show_name: showName } });
		$nameChoiceStatus.set('saved');
		return true;
	} catch {
		$nameChoiceStatus.set('error');
		return false;
	}
}
