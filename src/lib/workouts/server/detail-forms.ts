import * as v from 'valibot';
import {
	type WorkoutSaveInput,
	WorkoutSaveSchema,
	type WorkoutUpdateInput,
	WorkoutUpdateSchema,
} from '../contract';
import { fromLocalInput, parseDuration } from '../detail-format';

const METRES_PER_UNIT = { km: 1000, mi: 1609.344 } as const;

/** What the edit and copy forms post, before the API's own schema checks it. */
function readFields(
	form: FormData,
	options: { timeZone: string; unit: 'km' | 'mi'; totals: boolean },
): { body: Record<string, unknown>; errors: string[] } {
	const text = (key: string) => {
		const value = form.get(key);
		return typeof value === 'string' ? value : '';
	};
	const errors: string[] = [];
	const body: Record<string, unknown> = {
		name: text('name'),
		notes: text('notes'),
		activity_type: Number(text('activity_type')),
		privacy: Number(text('privacy')),
	};
	const start = fromLocalInput(text('start'), options.timeZone);
	if (start) body.start_datetime = start;
	else errors.push('Give the start as a date and a time.');
	if (options.totals) {
		const aggregates: Record<string, number> = {};
		if (text('duration').trim()) {
			const seconds = parseDuration(text('duration'));
			if (seconds === null) errors.push('Give the duration as h:mm:ss, mm:ss or minutes.');
			else {
				aggregates.active_time_total = seconds;
				aggregates.elapsed_time_total = seconds;
			}
		}
		if (text('distance').trim()) {
			const value = Number(text('distance').trim());
			if (!Number.isFinite(value) || value < 0)
				errors.push(`Give the distance as a number of ${options.unit}.`);
			else aggregates.distance_total = value * METRES_PER_UNIT[options.unit];
		}
		body.aggregates = aggregates;
	}
	return { body, errors };
}

const messagesOf = (issues: readonly { message: string }[]) => issues.map((issue) => issue.message);

/** The edit form as a change to the workout, checked by the API's schema; `version` is the one it was loaded at. */
export function readEditForm(
	form: FormData,
	options: { timeZone: string; unit: 'km' | 'mi'; totals: boolean },
): { input: WorkoutUpdateInput; errors: [] } | { input: null; errors: string[] } {
	const { body, errors } = readFields(form, options);
	const version = Number(form.get('version'));
	const parsed = v.safeParse(WorkoutUpdateSchema, { ...body, version });
	if (errors.length > 0 || !parsed.success)
		return { input: null, errors: [...errors, ...(parsed.success ? [] : messagesOf(parsed.issues))] };
	return { input: parsed.output, errors: [] };
}

/** The copy form as a new hand-logged workout, checked by the API's schema. */
export function readCopyForm(
	form: FormData,
	options: { timeZone: string; unit: 'km' | 'mi' },
): { input: WorkoutSaveInput; errors: [] } | { input: null; errors: string[] } {
	const { body, errors } = readFields(form, { ...options, totals: true });
	const parsed = v.safeParse(WorkoutSaveSchema, { ...body, start_locale_timezone: options.timeZone });
	if (errors.length > 0 || !parsed.success)
		return { input: null, errors: [...errors, ...(parsed.success ? [] : messagesOf(parsed.issues))] };
	return { input: parsed.output, errors: [] };
}
