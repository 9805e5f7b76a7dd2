import * as v from 'valibot';
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
