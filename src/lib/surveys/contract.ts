import * as v from 'valibot';
import { multiLineText } from '../core/text';

/**
 * The short customer survey shown to members in the customer survey rollout. One answer per member
 * and survey; a member who says "not now" is not asked again either.
 */
export const SURVEY_KEY = 'customer-2026';

export const SURVEY_USES = ['routes', 'workouts', 'goals', 'friends'] as const;
export type SurveyUse = (typeof SURVEY_USES)[number];

export const SURVEY_USE_LABELS: Record<SurveyUse, string> = {
	routes: 'Planning and finding routes',
	workouts: 'Logging workouts',
	goals: 'Goals and challenges',
	friends: 'Friends and the activity feed',
};

export const SURVEY_COMMENT_MAX = 1000;

export const SurveyAnswerSchema = v.union([
	v.strictObject({ dismissed: v.literal(true) }),
	v.strictObject({
		score: v.pipe(
			v.number('score must be a number from 0 to 10.'),
			v.integer('score must be a whole number.'),
			v.minValue(0, 'score must be from 0 to 10.'),
			v.maxValue(10, 'score must be from 0 to 10.'),
		),
		main_use: v.picklist(SURVEY_USES, `main_use is one of ${SURVEY_USES.join(', ')}.`),
		comment: v.optional(multiLineText('The comment', SURVEY_COMMENT_MAX), ''),
	}),
]);
export type SurveyAnswerInput = v.InferOutput<typeof SurveyAnswerSchema>;

/** Whether the signed-in member is asked, and whether they already answered. */
export type SurveyStateView = { survey: string; eligible: boolean; answered: boolean };
