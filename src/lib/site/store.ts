import { atom, computed, map } from 'nanostores';
import { $session } from '../auth/store';
import type { RolloutName } from '../core/rollout-names';
import { forgetBootupRequest, requestBootup } from './bootup-request';
import type { Bootup } from './contract';
import { CONTROL, type Rollout } from './rollouts';

/** The bootup configuration once loaded; null before. */
export const $bootup = atom<Bootup | null>(null);

/** Rollouts for the current visitor; empty until the bootup configuration arrives. */
export const $rollouts = computed($bootup, (bootup): Rollout[] => (bootup?.rollouts ?? []) as Rollout[]);

/** The variant of one rollout as a store, CONTROL until known. */
export function rolloutVariant(name: RolloutName) {
	return computed(
		$rollouts,
		(rollouts) => rollouts.find((rollout) => rollout.rollout_name === name)?.variant_name ?? CONTROL,
	);
}

/** Shell-wide notices, shown by the components of the same names. */
export const $notices = map({ refreshingToken: false, globalError: false, errorScreen: false });

export type NoticeName = keyof ReturnType<typeof $notices.get>;

export function showNotice(name: NoticeName): void {
	$notices.setKey(name, true);
}

export function hideNotice(name: NoticeName): void {
	$notices.setKey(name, false);
}

let loading: Promise<Bootup | null> | null = null;

/**
 * Loads the bootup configuration once per page, as the signed-in member when the page holds their
 * session (rollouts are per member). A failure leaves `$bootup` null so islands keep their defaults
 * (control rollouts) rather than break.
 */
export function loadBootup(fetchImpl: typeof fetch = fetch): Promise<Bootup | null> {
	loading ??= requestBootup(fetchImpl, $session.get()?.accessToken).then((bootup) => {
		if (bootup) $bootup.set(bootup);
		return bootup;
	});
	return loading;
}

/** Forgets the loaded configuration; tests and sign-in changes call it. */
export function resetBootup(): void {
	loading = null;
	forgetBootupRequest();
	$bootup.set(null);
}
