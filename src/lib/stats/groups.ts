import type { ActivityGroup } from '../workouts/activity-groups';

/**
 * Each activity group's colour on calendars and charts: every one at least 3:1 against white, so
 * a coloured bar or dot stands out, with a label or table always beside it for those who cannot
 * tell colours apart.
 */
export const GROUP_COLOURS: Record<ActivityGroup, string> = {
	run: '#d9480f',
	ride: '#1864ab',
	walk: '#2b8a3e',
	hike: '#5c940d',
	swim: '#0b7285',
	gym: '#862e9c',
	class: '#c2255c',
	yoga: '#9c36b5',
	winter_sport: '#1971c2',
	other_sport: '#e67700',
	golf: '#2f9e44',
	basketball: '#c92a2a',
	baseball: '#a61e4d',
	generic: '#495057',
	other: '#5f3dc4',
};

export const GROUP_LABELS: Record<ActivityGroup, string> = {
	run: 'Run',
	ride: 'Ride',
	walk: 'Walk',
	hike: 'Hike',
	swim: 'Swim',
	gym: 'Gym',
	class: 'Class',
	yoga: 'Yoga',
	winter_sport: 'Winter sport',
	other_sport: 'Other sport',
	golf: 'Golf',
	basketball: 'Basketball',
	baseball: 'Baseball',
	generic: 'Workout',
	other: 'Other',
};
