import { describe, expect, test } from 'vitest';
import { isGuardedPath, loginPathFor } from '../../../src/lib/site/guards';
import { findRedirect } from '../../../src/lib/site/redirects';

describe('isGuardedPath', () => {
	test.each([
		'/dashboard',
		'/account',
		'/account/my_profile',
		'/workout/create/',
		'/workout/stats',
		'/routes/create',
		'/routes/my_routes/bookmarks',
		'/premium/checkout',
		'/profile/ana/goals',
		'/people/friends/find',
		'/mobile/account/delete',
	])('guards %s', (path) => expect(isGuardedPath(path)).toBe(true));

	test.each([
		'/',
		'/mvp',
		'/routes',
		'/routes/view/12',
		'/us',
		'/auth/login',
		'/premium/promo',
		'/dashboards',
		'/profile/ana/picture',
	])('leaves %s open', (path) => expect(isGuardedPath(path)).toBe(false));
});

describe('findRedirect', () => {
	test.each([
		['/premium', '/premium/membership'],
		['/premium/', '/premium/membership'],
		['/promo/UAWireless', '/premium/coupon'],
		['/promo/ua', '/premium/coupon'],
		['/workout/import/dashboard', '/account/connected_apps'],
	])('moves %s to %s', (from, to) => expect(findRedirect(from)).toBe(to));

	test('leaves other paths alone', () => expect(findRedirect('/premium/checkout')).toBeUndefined());
});

describe('loginPathFor', () => {
	test('brings the visitor back to the page and its query once signed in', () => {
		expect(loginPathFor({ pathname: '/routes/edit/7', search: '?layer=terrain&x=1' })).toBe(
			'/auth/login?next=%2Froutes%2Fedit%2F7%3Flayer%3Dterrain%26x%3D1',
		);
		expect(loginPathFor(new URL('http://localhost/workout/create'))).toBe(
			'/auth/login?next=%2Fworkout%2Fcreate',
		);
	});
});
