import { describe, expect, it } from 'vitest';
import { getPageType } from '~/lib/site/page-types';

describe('page types for analytics', () => {
	it.each([
		['/', 'Home'],
		['/mvp', 'MVP Landing'],
		['/mvp/', 'MVP Landing'],
		['/challenges', 'Challenges'],
		['/challenges/', 'Challenges'],
		['/challenges/42', 'Challenge Details'],
		['/challenges/yvty2025', 'You VS The Year'],
		['/challenges/42/leaderboard', 'Challenge Leaderboard'],
		['/workout/create/', 'Log Workout'],
		['/workout/import', 'Upload Workout'],
		['/workout/987', 'Workout Details'],
		['/dashboard', 'Dashboard Calendar'],
		['/account/personalization/', 'Onboarding Personalization'],
		['/account', 'Account Settings'],
		['/routes/view/embedded/5', 'Route Embedded'],
		['/routes/view/5', 'Route Details'],
		['/train/landing/spring', 'Training Landing'],
		['/us', 'Find Your City'],
		['/us/co', 'City Routes'],
		['/us/stores', 'Not Found'],
		['/profile/12/goals/create', 'Create Goal'],
		['/dashboard?date=2026-01-01', 'Dashboard Calendar'],
	])('%s is %s', (path, label) => {
		expect(getPageType(path)).toBe(label);
	});

	it.each(['/nothing-here', '/workouts', '/routes/view', '/abc/def', '/challenges/1/2/3'])(
		'%s is Unknown',
		(path) => {
			expect(getPageType(path)).toBe('Unknown');
		},
	);
});
