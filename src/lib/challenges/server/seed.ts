import type { AppDeps } from '../../core/server/deps';
import { localDay } from '../windows';
import { type ChallengeRules, createChallenge } from './organise';
import { challenges } from './tables';

function monthBounds(day: string, months = 1): { first: string; last: string } {
	const [year, month] = day.split('-').map(Number);
	const first = new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);
	const last = new Date(Date.UTC(year, month - 1 + months, 0)).toISOString().slice(0, 10);
	return { first, last };
}

/** The address name of a year's You VS The Year challenge. */
export function yearChallengeSlug(year: number): string {
	return `yvty${year}`;
}

/** The year it is now, as the challenges count days (UTC unless a member's zone is asked for). */
export function challengeYear(now: Date): number {
	return Number(localDay(now, 'UTC').slice(0, 4));
}

/** You VS The Year: 1,000 km in a calendar year, running, walking, hiking or riding. */
function yearChallenge(year: number): ChallengeRules {
	return {
		slug: yearChallengeSlug(year),
		name: `You VS The Year ${year}`,
		description: `Cover 1,000 km in ${year} running, walking, hiking or riding: you against the year.`,
		metric: 'distance',
		activity_groups: ['run', 'walk', 'hike', 'ride'],
		starts_on: `${year}-01-01`,
		ends_on: `${year}-12-31`,
		target: 1_000_000,
		mode: 'solo',
		prizes: [`You VS The Year ${year} medal`],
		award_thresholds: [0.1, 0.25, 0.5, 0.75, 1],
	};
}

/**
 * The demo's challenges: this month's running distance, a club team relay, a two-month cycling
 * climb, and You VS The Year for last year and this one. Seeded at every start, so a new year's
 * challenge is there from the first start in that year.
 */
export function demoChallenges(now: Date): ChallengeRules[] {
	const today = localDay(now, 'UTC');
	const month = monthBounds(today);
	const twoMonths = monthBounds(today, 2);
	const monthName = new Date(`${month.first}T00:00:00Z`).toLocaleString('en-US', {
		month: 'long',
		year: 'numeric',
		timeZone: 'UTC',
	});
	return [
		{
			slug: `run-${month.first.slice(0, 7)}`,
			name: `${monthName} Running Challenge`,
			description: 'Run 100 km this month. Every run and treadmill run counts, on your own clock.',
			metric: 'distance',
			activity_groups: ['run'],
			starts_on: month.first,
			ends_on: month.last,
			target: 100_000,
			mode: 'solo',
			prizes: ['Finisher badge', 'A month of MVP for three finishers drawn at random'],
		},
		{
			slug: `relay-${month.first.slice(0, 7)}`,
			name: `${monthName} Club Relay`,
			description:
				'Run or walk for your team: every kilometre a member covers this month adds to the team’s total.',
			metric: 'distance',
			activity_groups: ['run', 'walk'],
			starts_on: month.first,
			ends_on: month.last,
			target: 50_000,
			mode: 'team',
			teams: ['Harriers', 'Striders', 'Trail Foxes'],
			prizes: ['Relay pennant for the winning team'],
		},
		{
			slug: `climb-${month.first.slice(0, 7)}`,
			name: 'Climb Everest by Bike',
			description: 'Ride 8,849 m of climbing in two months, measured from your recorded rides.',
			metric: 'climb',
			activity_groups: ['ride'],
			starts_on: twoMonths.first,
			ends_on: twoMonths.last,
			target: 8849,
			mode: 'solo',
			prizes: ['Summit badge'],
		},
		// Last year's, to look back on, and this year's, which the header's "You VS The Year" opens.
		...[challengeYear(now) - 1, challengeYear(now)].map(yearChallenge),
	];
}

/** Creates the demo challenges that do not exist yet (by their names in the address). */
export async function seedDemoChallenges(deps: Pick<AppDeps, 'db' | 'clock' | 'logger'>): Promise<number> {
	const existing = new Set(
		(await deps.db.select({ slug: challenges.slug }).from(challenges)).map((row) => row.slug),
	);
	let created = 0;
	for (const input of demoChallenges(deps.clock())) {
		if (existing.has(input.slug ?? null)) continue;
		await createChallenge(deps, input);
		created += 1;
	}
	return created;
}
