import { afterEach, describe, expect, it, vi } from 'vitest';
import { $session } from '~/lib/auth/store';
import { buildBootup } from '~/lib/site/bootup';
import { requestBootup } from '~/lib/site/bootup-request';
import {
	$bootup,
	$notices,
	$rollouts,
	hideNotice,
	loadBootup,
	resetBootup,
	rolloutVariant,
	showNotice,
} from '~/lib/site/store';

const config = {
	publicUrl: 'http://localhost',
	siteVariant: 'run' as const,
	supportEmail: 's@x.test',
	tiles: { url: '', attribution: '' },
};

afterEach(() => {
	resetBootup();
	$session.set(null);
});

describe('site store', () => {
	it('loads the bootup configuration once and exposes its rollouts', async () => {
		const bootup = buildBootup({ config, viewer: { id: 1, isPremium: false }, geo: null, version: '1' });
		const fetchImpl = vi.fn(async () => new Response(JSON.stringify(bootup), { status: 200 }));
		await Promise.all([loadBootup(fetchImpl as never), loadBootup(fetchImpl as never)]);
		expect(fetchImpl).toHaveBeenCalledTimes(1);
		expect(fetchImpl).toHaveBeenCalledWith('/api/site/bootup', expect.anything());
		expect($bootup.get()?.site.variant).toBe('run');
		expect($rollouts.get()).toEqual(bootup.rollouts);
	});

	it('shares one request with the profile menu, whichever asks first', async () => {
		const bootup = buildBootup({ config, viewer: { id: 1, isPremium: false }, geo: null, version: '1' });
		const fetchImpl = vi.fn(async () => new Response(JSON.stringify(bootup), { status: 200 }));
		const menus = requestBootup(fetchImpl as never);
		await loadBootup(fetchImpl as never);
		expect(fetchImpl).toHaveBeenCalledTimes(1);
		expect((await menus)?.rollouts).toEqual(bootup.rollouts);
		expect($rollouts.get()).toEqual(bootup.rollouts);
	});

	it('asks as the signed-in member when the page holds their session, so their rollouts come back', async () => {
		$session.set({
			accessToken: 'token-1',
			expiresAt: Date.now() + 60_000,
			user: {} as never,
		});
		const fetchImpl = vi.fn(async (_url: string, _init: RequestInit) => new Response('{}', { status: 200 }));
		await loadBootup(fetchImpl as never);
		const headers = fetchImpl.mock.calls[0]?.[1].headers as Record<string, string>;
		expect(headers.authorization).toBe('Bearer token-1');
	});

	it('keeps control rollouts when the configuration cannot be loaded', async () => {
		const fetchImpl = vi.fn(async () => new Response('nope', { status: 503 }));
		expect(await loadBootup(fetchImpl as never)).toBeNull();
		expect(rolloutVariant('ads').get()).toBe('control');
	});

	it('survives a network failure', async () => {
		const fetchImpl = vi.fn(async () => {
			throw new TypeError('offline');
		});
		expect(await loadBootup(fetchImpl as never)).toBeNull();
		expect($bootup.get()).toBeNull();
	});

	it('toggles shell notices', () => {
		showNotice('refreshingToken');
		expect($notices.get().refreshingToken).toBe(true);
		hideNotice('refreshingToken');
		expect($notices.get()).toEqual({ refreshingToken: false, globalError: false, errorScreen: false });
	});
});
