import type { GoalCreateInput } from './contract';

/**
 * Training plans: written week by week, read on pre-rendered pages (so no valibot here), and turned
 * into weekly goals when a member follows one. Distances are kilometres; goals store metres.
 */
export const PLAN_LEVELS = ['Beginner', 'Intermediate'] as const;
export type PlanLevel = (typeof PLAN_LEVELS)[number];

export const PLAN_TARGETS = ['5 km', '10 km', 'Half marathon'] as const;
export type PlanTarget = (typeof PLAN_TARGETS)[number];

export type PlanWeek = {
	/** Runs in the week. */
	runs: number;
	/** The one session the week is built around. */
	key: string;
	/** The longest run of the week, as a time or a distance. */
	long: string;
	/** Everything run in the week, in kilometres. */
	km: number;
};

export type TrainingPlan = {
	slug: string;
	title: string;
	target: PlanTarget;
	level: PlanLevel;
	/** Who the plan is for, in a sentence. */
	forWhom: string;
	/** How the weeks build, a short paragraph. */
	approach: string;
	weeks: readonly PlanWeek[];
};

const w = (runs: number, key: string, long: string, km: number): PlanWeek => ({ runs, key, long, km });

export const TRAINING_PLANS: readonly TrainingPlan[] = [
	{
		slug: 'couch-to-5k',
		title: 'Couch to 5 km',
		target: '5 km',
		level: 'Beginner',
		forWhom: 'For anyone who can walk briskly for half an hour and wants to run 5 km without stopping.',
		approach:
			'Three sessions a week, each starting and ending with five minutes of walking. Running stretches grow a little every week while the walking breaks shrink, until the breaks are gone. Repeat a week whenever it felt too hard; there is no prize for rushing.',
		weeks: [
			w(3, '8 × (1 min run, 90 s walk)', '25 min run-walk', 7),
			w(3, '6 × (90 s run, 2 min walk)', '28 min run-walk', 8),
			w(3, '5 × (3 min run, 90 s walk)', '30 min run-walk', 9),
			w(3, '4 × (5 min run, 2 min walk)', '32 min run-walk', 10),
			w(3, '3 × (8 min run, 2 min walk)', '20 min steady run', 11),
			w(3, '2 × (12 min run, 2 min walk)', '22 min steady run', 12),
			w(3, '25 min easy run', '25 min steady run', 13),
			w(3, '28 min easy run', '4 km steady run', 14),
			w(3, '30 min easy run', '5 km run', 15),
		],
	},
	{
		slug: '5k-faster',
		title: 'A faster 5 km',
		target: '5 km',
		level: 'Intermediate',
		forWhom:
			'For runners who already finish 5 km comfortably and want to take a minute or more off their time.',
		approach:
			'Four runs a week: one interval session at 5 km effort, one tempo run a little slower, one long easy run and one short recovery jog. The fifth week eases off so the sixth can end in a time trial on fresh legs.',
		weeks: [
			w(4, '6 × 400 m at 5 km pace, 90 s jog between', '8 km easy', 22),
			w(4, '15 min tempo inside a 5 km run', '9 km easy', 24),
			w(4, '5 × 800 m at 5 km pace, 2 min jog between', '10 km easy', 26),
			w(4, '2 × 10 min tempo, 3 min jog between', '10 km easy', 27),
			w(4, '8 × 200 m fast, 200 m jog between', '7 km easy', 20),
			w(3, '5 km time trial', '6 km easy', 16),
		],
	},
	{
		slug: 'first-10k',
		title: 'Your first 10 km',
		target: '10 km',
		level: 'Beginner',
		forWhom: 'For runners who can run 5 km without stopping and want to double it.',
		approach:
			'Three runs a week, all at a pace you could talk at. The long run adds about a kilometre a week and the other two runs stay short, so only one day each week asks more of you than the last. Week seven steps back before the last push.',
		weeks: [
			w(3, '30 min easy', '5 km', 12),
			w(3, '30 min easy with 4 × 20 s strides', '6 km', 13),
			w(3, '35 min easy', '6.5 km', 14),
			w(3, '35 min with 5 × 1 min brisk, 2 min easy', '7 km', 15),
			w(3, '40 min easy', '8 km', 17),
			w(3, '40 min with 6 × 1 min brisk, 2 min easy', '9 km', 18),
			w(3, '30 min easy', '7 km', 14),
			w(3, '25 min easy with 4 strides', '10 km', 17),
		],
	},
	{
		slug: '10k-stronger',
		title: 'A stronger 10 km',
		target: '10 km',
		level: 'Intermediate',
		forWhom: 'For runners who have finished a 10 km and want to hold a steadier, faster pace all the way.',
		approach:
			'Four runs a week. Intervals teach the pace you are aiming for, tempo runs teach you to hold it, and the long run grows to 14 km so that 10 km feels short on the day. Every third week is a little lighter.',
		weeks: [
			w(4, '5 × 1 km at 10 km pace, 2 min jog between', '11 km easy', 30),
			w(4, '20 min tempo', '12 km easy', 32),
			w(4, '6 × 800 m at 5 km pace, 2 min jog between', '10 km easy', 28),
			w(4, '4 × 1.5 km at 10 km pace, 2 min jog between', '13 km easy', 35),
			w(4, '25 min tempo', '14 km easy', 37),
			w(4, '8 × 400 m fast, 400 m jog between', '11 km easy', 30),
			w(4, '3 × 2 km at 10 km pace, 3 min jog between', '14 km easy', 38),
			w(3, '3 km at 10 km pace', '10 km race or time trial', 22),
		],
	},
	{
		slug: 'first-half-marathon',
		title: 'Your first half marathon',
		target: 'Half marathon',
		level: 'Beginner',
		forWhom: 'For runners who can run 10 km and have twelve weeks before a half marathon.',
		approach:
			'Three runs a week for the first half and four after that. The long run is the heart of the plan: it climbs from 8 km to 19 km, with a lighter week every fourth week so the body catches up. The last two weeks taper, so you start the race rested.',
		weeks: [
			w(3, '35 min easy', '8 km', 16),
			w(3, '35 min with 4 strides', '9 km', 17),
			w(3, '40 min easy', '10 km', 19),
			w(3, '30 min easy', '8 km', 15),
			w(4, '40 min with 10 min steady', '12 km', 25),
			w(4, '45 min easy', '13 km', 27),
			w(4, '45 min with 15 min steady', '15 km', 30),
			w(3, '35 min easy', '11 km', 21),
			w(4, '50 min with 20 min steady', '17 km', 34),
			w(4, '50 min easy', '19 km', 36),
			w(3, '40 min with 10 min steady', '12 km', 24),
			w(3, '20 min easy with 4 strides', 'Half marathon, 21.1 km', 30),
		],
	},
	{
		slug: 'half-marathon-pb',
		title: 'A half marathon best',
		target: 'Half marathon',
		level: 'Intermediate',
		forWhom: 'For runners with a half marathon behind them who want a new best in ten weeks.',
		approach:
			'Five runs a week: one session at half marathon pace, one faster interval session, a long run with its last kilometres at goal pace and two easy runs. The long run peaks at 20 km in week eight before a two-week taper.',
		weeks: [
			w(5, '3 × 3 km at half marathon pace', '14 km easy', 42),
			w(5, '6 × 1 km at 10 km pace', '15 km, last 3 km at goal pace', 45),
			w(5, '2 × 5 km at half marathon pace', '16 km easy', 48),
			w(4, '5 × 1 km at 10 km pace', '12 km easy', 36),
			w(5, '10 km at half marathon pace', '18 km, last 5 km at goal pace', 52),
			w(5, '8 × 800 m at 5 km pace', '18 km easy', 52),
			w(5, '3 × 4 km at half marathon pace', '19 km, last 6 km at goal pace', 55),
			w(5, '6 × 1 km at 10 km pace', '20 km easy', 56),
			w(4, '6 km at half marathon pace', '14 km easy', 40),
			w(3, '3 km at half marathon pace', 'Half marathon, 21.1 km', 36),
		],
	},
];

export function findPlan(slug: string): TrainingPlan | undefined {
	return TRAINING_PLANS.find((plan) => plan.slug === slug);
}

export const planHref = (plan: Pick<TrainingPlan, 'slug'>) => `/training-plans/${plan.slug}/`;

/**
 * The weekly goals following a plan sets: its first week's number of runs and its first week's
 * distance, both counted over running workouts. Goals hold one target each for as long as they run,
 * so the plan starts where week one does and the table shows how it climbs.
 */
export function planGoals(plan: TrainingPlan): GoalCreateInput[] {
	const first = plan.weeks[0];
	return [
		{
			period: 'P1W',
			criteria: { threshold_metrics: { data_type_field: 'count', value: first.runs }, activity_group: 'run' },
		},
		{
			period: 'P1W',
			criteria: {
				threshold_metrics: { data_type_field: 'distance', value: first.km * 1000 },
				activity_group: 'run',
			},
		},
	];
}
