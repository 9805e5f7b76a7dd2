import { describe, expect, it } from 'vitest';
import { authLink, avatarUrl, navigationFor, profileMenuFor } from '~/lib/site/navigation';

const labels = (sections: ReturnType<typeof navigationFor>) =>
	sections.map((section) => [section.label, section.links.map((link) => `${link.label} ${link.href}`)]);

describe('main navigation', () => {
	it('shows visitors only the public links, in order', () => {
		expect(labels(navigationFor(null))).toEqual([
			['Workouts', ['Dashboard /dashboard/']],
			['Routes', ['Routes home /routes/', 'Find Your City /us/']],
			['Community', ['Activity Feed /activity_feed/', 'Friends /people/friends/']],
			['Challenges', ['Find Challenges /challenges/', 'You VS The Year /challenges/yvty']],
		]);
	});

	it('adds the members-only links for a member', () => {
		expect(labels(navigationFor({ id: 123 }))).toEqual([
			['Workouts', ['Dashboard /dashboard/', 'Workout Stats /workout/stats/', 'Goals /goals/']],
			[
				'Routes',
				[
					'Routes home /routes/',
					'Find Routes /routes/search/',
					'Create Route /routes/create/',
					'My Routes /routes/my_routes/',
					'Find Your City /us/',
				],
			],
			['Community', ['Activity Feed /activity_feed/', 'Friends /people/friends/']],
			['Challenges', ['Find Challenges /challenges/', 'You VS The Year /challenges/yvty']],
		]);
	});

	it('lists the profile menu with logout last', () => {
		expect(profileMenuFor('mailto:help@example.test').map((link) => link.label)).toEqual([
			'Profile and Settings',
			'Connected Apps',
			'Privacy Center',
			'Support',
			'Logout',
		]);
		expect(profileMenuFor('x').at(-1)?.href).toBe('/auth/logout');
	});

	it('builds avatar urls with the size', () => {
		expect(avatarUrl('ana b')).toBe('/profile/ana%20b/picture?size=Small');
		expect(avatarUrl('ana', 'Medium')).toBe('/profile/ana/picture?size=Medium');
	});
});

describe('auth links', () => {
	it.each([
		['/auth/login/', '/routes/?city=denver', '/auth/login/?next=%2Froutes%2F%3Fcity%3Ddenver'],
		['/auth/signup/', '/', '/auth/signup/?next=%2F'],
		['/auth/login/', '/auth/signup/', '/auth/login/'],
		['/auth/signup/', '/auth/forgot_password/', '/auth/signup/'],
	] as const)('%s from %s is %s', (base, from, expected) => {
		expect(authLink(base, from)).toBe(expected);
	});
});
