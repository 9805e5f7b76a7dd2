import type { SiteAction } from './variants';

/** Home-page wording that changes with the site variant's action. */
export type HomeCopy = { headline: string; lead: string; routesLead: string };

const HOME_COPY: Record<SiteAction, HomeCopy> = {
	training: {
		headline: 'Every workout, mapped.',
		lead: 'Plan routes that follow real roads and trails, log workouts from your watch or by hand, and watch your progress add up week after week.',
		routesLead:
			'Browse runs, rides and walks that members have shared in cities across the country, or plan your own in minutes.',
	},
	running: {
		headline: 'Find your next run.',
		lead: 'Plan running routes that follow real streets and paths, log every run with pace and splits, and chase new personal records from 5 km to the marathon.',
		routesLead:
			'Browse running routes that members have shared in cities across the country, or draw your own loop in minutes.',
	},
	cycling: {
		headline: 'Plan the ride. Then ride it.',
		lead: 'Build cycling routes that follow real roads with the elevation in view, log every ride from your bike computer, and see your miles stack up.',
		routesLead:
			'Browse cycling routes that members have shared in cities across the country, or plan your own with every climb in view.',
	},
	walking: {
		headline: 'Every walk counts.',
		lead: 'Map walking routes around your neighbourhood, log every walk with distance and time, and set weekly goals that keep you moving.',
		routesLead:
			'Browse walking routes that members have shared in cities across the country, or map your own around the block.',
	},
};

export function getHomeCopy(action: SiteAction): HomeCopy {
	return HOME_COPY[action];
}

/** The training landing's headline and lead, by the site variant's action. */
const TRAIN_COPY: Record<SiteAction, { headline: string; lead: string }> = {
	training: {
		headline: 'Train with a plan.',
		lead: 'Pick a plan that fits your goal and your week, turn it into weekly goals, and watch every workout count toward it.',
	},
	running: {
		headline: 'Run your next race with a plan.',
		lead: 'From your first 5 km to a half marathon best: week-by-week plans, weekly goals that follow them, and every run logged against them.',
	},
	cycling: {
		headline: 'Ride stronger, week by week.',
		lead: 'Mix your rides with running plans built week by week, set weekly goals from them, and see every session add up.',
	},
	walking: {
		headline: 'From walking to running, one week at a time.',
		lead: 'Start with run-walk sessions and build to 5 km and beyond, with weekly goals that keep you moving.',
	},
};

export function getTrainCopy(action: SiteAction): { headline: string; lead: string } {
	return TRAIN_COPY[action];
}
