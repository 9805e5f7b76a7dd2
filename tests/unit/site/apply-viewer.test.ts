// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyViewerHint } from '~/components/shell/apply-viewer';
import { encodeSessionHint } from '~/lib/auth/hint';

const shell = `
	<aside data-promo>MVP</aside>
	<div data-auth-links>
		<a data-auth-link="/auth/login/" href="/auth/login/?next=%2F">Log in</a>
		<a data-auth-link="/auth/signup/" href="/auth/signup/?next=%2F">Sign Up</a>
	</div>
	<div data-profile-menu hidden>
		<img data-avatar src="/images/default-avatar.svg" alt="" />
		<span data-display-name></span>
	</div>
	<ul>
		<li><a href="/dashboard/">Dashboard</a></li>
		<li data-members-only hidden><a href="/goals/">Goals</a></li>
	</ul>
	<ul>
		<li data-members-only hidden><a href="/account/settings/">Account Settings</a></li>
		<li data-visitors-only><a href="/auth/login/">Log In</a></li>
	</ul>`;

function signIn(isPremium: boolean) {
	const hint = encodeSessionHint({ id: 77, username: 'sam', displayName: 'Sam Walker', isPremium });
	document.cookie = `ms_hint=${hint}`;
}

const q = (selector: string) => document.querySelector(selector) as HTMLElement;

beforeEach(() => {
	document.body.innerHTML = shell;
	document.body.dataset.viewer = 'hint';
	window.history.replaceState(null, '', '/routes/?city=denver');
});

afterEach(() => {
	document.cookie = 'ms_hint=; expires=Thu, 01 Jan 1970 00:00:00 GMT';
});

describe('switching a pre-rendered shell to the signed-in member', () => {
	it('leaves the logged-out shell for visitors but points auth links back here', () => {
		applyViewerHint();
		expect(q('[data-profile-menu]').hidden).toBe(true);
		expect(q('[data-auth-links]').hidden).toBe(false);
		expect(q('[data-members-only]').hidden).toBe(true);
		expect(q('a[data-auth-link="/auth/login/"]').getAttribute('href')).toBe(
			'/auth/login/?next=%2Froutes%2F%3Fcity%3Ddenver',
		);
	});

	it('shows the member menu, members-only links and hides the visitor links', () => {
		signIn(false);
		applyViewerHint();
		expect(q('[data-profile-menu]').hidden).toBe(false);
		expect(q('[data-display-name]').textContent).toBe('Sam Walker');
		expect(q('img[data-avatar]').getAttribute('src')).toBe('/profile/sam/picture?size=Small');
		expect(q('[data-auth-links]').hidden).toBe(true);
		expect(q('[data-visitors-only]').hidden).toBe(true);
		for (const item of document.querySelectorAll<HTMLElement>('[data-members-only]'))
			expect(item.hidden).toBe(false);
		expect(q('[data-promo]').hidden).toBe(false);
	});

	it('hides the promo banner for MVP members', () => {
		signIn(true);
		applyViewerHint();
		expect(q('[data-promo]').hidden).toBe(true);
	});

	it('trusts the server when it already rendered the viewer', () => {
		signIn(false);
		document.body.dataset.viewer = 'known';
		applyViewerHint();
		expect(q('[data-profile-menu]').hidden).toBe(true);
		expect(q('[data-auth-links]').hidden).toBe(false);
	});

	it('ignores a malformed hint', () => {
		document.cookie = 'ms_hint=not-base64-json';
		applyViewerHint();
		expect(q('[data-profile-menu]').hidden).toBe(true);
	});
});
