import type { AppDeps } from '../../api/context';
import { localDay } from '../windows';
import { type ChallengeRules, createChallenge } from './service';
import { challenges } from './tables';

function monthBounds(day: string, months = 1): { first: string; last: string } {
	const [year, month] = day.split('-').map(Number);
	const first = new Date(Date.UTC(year, month - 1, 1)).toISOString().slice(0, 10);
	const last = new Date(Date.UTC(year, month - 1 + months, 0)).toISOString().slice(0, 10);
	return { first, last };
}

/**
 * The demo's challenges: this month's running distance, a club team relay, a two-month cycling
 * climb and You VS The Year 2025.
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
		{
			slug: 'yvty2025',
			name: 'You VS The Year 2025',
			description: 'Cover 1,000 km in 2025 running, walking, hiking or riding: you against the year.',
			metric: 'distance',
			activity_groups: ['run', 'walk', 'hike', 'ride'],
			starts_on: '2025-01-01',
			ends_on: '2025-12-31',
			target: 1_000_000,
			mode: 'solo',
			prizes: ['You VS The Year 2025 medal'],
			award_thresholds: [0.1, 0.25, 0.5, 0.75, 1],
		},
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
