// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { ProfilePhoto } from '../../../src/islands/account/ProfilePhoto';
import type { SelfUser } from '../../../src/lib/account/contract';
import { $session } from '../../../src/lib/auth/store';

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });

let answer: () => Response;

beforeEach(() => {
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user: { id: 7 } as never });
	vi.stubGlobal('fetch', async () => answer());
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

const user = { id: 7, username: 'ana', display_name: 'Ana' } as SelfUser;
const choose = () =>
	fireEvent.change(screen.getByLabelText(/Change photo/), {
		target: { files: [new File([new Uint8Array([0xff, 0xd8, 0xff])], 'me.jpg', { type: 'image/jpeg' })] },
	});

describe('ProfilePhoto', () => {
	test('a photo refused for a full disk says so in the server’s words, with when to try again', async () => {
		answer = () =>
			json(
				507,
				{
					error: 'storage_full',
					message:
						'We have no room to store this right now, so nothing was saved. Try again in a few minutes.',
				},
				{ 'retry-after': '300' },
			);
		render(<ProfilePhoto user={user} />);
		choose();
		expect((await screen.findByRole('alert')).textContent).toBe(
			'We have no room to store this right now, so nothing was saved. Try again in a few minutes.',
		);
	});

	test('any other failure on our side keeps the general message', async () => {
		answer = () => json(500, { error: 'internal', message: 'Something went wrong on our side.' });
		render(<ProfilePhoto user={user} />);
		choose();
		expect((await screen.findByRole('alert')).textContent).toBe(
			'The photo could not be saved. Please try again.',
		);
	});
});
