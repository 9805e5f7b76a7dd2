import * as v from 'valibot';
import { UserUpdateSchema } from '../../account/contract';
import type { WeekDay } from '../../stats/calendar';
import { goalInputUnit, type Unit } from '../../stats/format';
import { GOAL_GROUPS, GOAL_METRICS, type GoalCreateInput, GoalCreateSchema } from '../contract';

/** What the goal form posts, in the member's units, read into the API's goal or a list of problems. */
export function readGoalForm(
	form: FormData,
	unit: Unit,
): { input: GoalCreateInput | null; errors: string[] } {
	const text = (key: string) => {
		const value = form.get(key);
		return typeof value === 'string' ? value.trim() : '';
	};
	const metric = text('metric');
	const group = text('activity_group') || 'all';
	const errors: string[] = [];
	if (!(GOAL_METRICS as readonly string[]).includes(metric)) errors.push('Choose what the goal counts.');
	if (!(GOAL_GROUPS as readonly string[]).includes(group)) errors.push('Choose an activity.');
	const amount = text('value').replace(',', '.');
	const number = /^\d{1,9}(\.\d{1,3})?$/.test(amount) ? Number(amount) : Number.NaN;
	if (!(number > 0)) errors.push('Enter a target above 0, such as 20.');
	if (errors.length > 0) return { input: null, errors };
	const factor = goalInputUnit(metric as (typeof GOAL_METRICS)[number], unit).factor;
	const parsed = v.safeParse(GoalCreateSchema, {
		period: 'P1W',
		criteria: {
			threshold_metrics: { data_type_field: metric, value: number * factor },
			activity_group: group,
		},
	});
	if (!parsed.success) return { input: null, errors: ['That target is more than a week could hold.'] };
	return { input: parsed.output, errors: [] };
}

/** The week start day a goals form posts (0 Sunday … 6 Saturday), by the settings' own rule. */
export function readWeekStartForm(form: FormData): { weekStartDay: WeekDay | null; error: string | null } {
	const value = form.get('week_start_day');
	const text = typeof value === 'string' ? value.trim() : '';
	const parsed = v.safeParse(UserUpdateSchema, { week_start_day: /^\d$/.test(text) ? Number(text) : -1 });
	if (!parsed.success || parsed.output.week_start_day === undefined)
		return { weekStartDay: null, error: 'Choose the day your weeks start on.' };
	return { weekStartDay: parsed.output.week_start_day as WeekDay, error: null };
}
