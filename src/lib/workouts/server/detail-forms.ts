import * as v from 'valibot';
import {
	type WorkoutSaveInput,
	WorkoutSaveSchema,
	type WorkoutUpdateInput,
	WorkoutUpdateSchema,
} from '../contract';
import {
	formatDuration,
	fromLocalInput,
	METRES_PER_UNIT,
	parseDuration,
	toLocalInput,
} from '../detail-format';
import type { WorkoutWithOwner } from './service';

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
	// Only forms that offer gear send the field; an empty choice clears it.
	if (form.has('gear')) body.gear = text('gear') ? text('gear') : null;
	if (form.has('perceived_effort'))
		body.perceived_effort = text('perceived_effort') ? Number(text('perceived_effort')) : null;
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

export type WorkoutFormValues = {
	name: string;
	notes: string;
	activityTypeId: number;
	privacy: number;
	start: string;
	duration: string;
	distance: string;
	/** The gear id chosen, or '' for none. */
	gear: string;
	/** How hard it felt, 1–10, or '' for not given. */
	perceivedEffort: string;
	version?: number;
};

/**
 * What the edit and copy forms show: the workout's own values, or what the member posted when it was
 * refused, so nothing typed is lost. `start` and `notes` are where the two forms differ.
 */
export function workoutFormValues(
	workout: WorkoutWithOwner,
	options: {
		unit: 'km' | 'mi';
		posted: FormData | null;
		refused: boolean;
		start: string;
		notes: string;
		/** The gear the form starts with: the workout's own when editing, none for a copy. */
		gear?: string;
		/** How hard it felt as the form starts: the workout's own when editing, not given for a copy. */
		perceivedEffort?: string;
	},
): WorkoutFormValues {
	const field = (key: string, fallback: string) => {
		const value = options.posted?.get(key);
		return options.refused && typeof value === 'string' ? value : fallback;
	};
	const distance =
		workout.distanceTotal === null
			? ''
			: String(Math.round((workout.distanceTotal / METRES_PER_UNIT[options.unit]) * 100) / 100);
	return {
		name: field('name', workout.name),
		notes: field('notes', options.notes),
		activityTypeId: Number(field('activity_type', String(workout.activityTypeId))),
		privacy: Number(field('privacy', String(workout.privacy))),
		start: field('start', options.start),
		duration: field(
			'duration',
			workout.activeTimeTotal === null ? '' : formatDuration(workout.activeTimeTotal),
		),
		distance: field('distance', distance),
		gear: field('gear', options.gear ?? ''),
		perceivedEffort: field('perceived_effort', options.perceivedEffort ?? ''),
	};
}

/** The start a form shows for a workout: its own local date and time. */
export function localStart(workout: WorkoutWithOwner): string {
	return toLocalInput(workout.startDatetime, workout.startLocaleTimezone);
}
