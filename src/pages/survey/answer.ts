import type { APIRoute } from 'astro';
import * as v from 'valibot';
import { getRuntime } from '../../lib/api/runtime';
import { AppError } from '../../lib/core/errors';
import { loginPathFor } from '../../lib/site/guards';
import { SurveyAnswerSchema } from '../../lib/surveys/contract';
import { answerSurvey } from '../../lib/surveys/server/service';

export const prerender = false;

const BACK = '/dashboard/';

/** The dashboard's survey form posts here (it works without script); the answer goes through the survey service. */
export const POST: APIRoute = async ({ request, locals, redirect }) => {
	const viewer = locals.viewer;
	if (!viewer) return redirect(loginPathFor({ pathname: BACK, search: '' }), 303);
	const form = await request.formData().catch(() => null);
	const text = (key: string) => {
		const value = form?.get(key);
		return typeof value === 'string' ? value : '';
	};
	const score = text('score');
	const parsed = v.safeParse(
		SurveyAnswerSchema,
		text('action') === 'dismiss'
			? { dismissed: true }
			: {
					score: /^\d{1,2}$/.test(score) ? Number(score) : Number.NaN,
					main_use: text('main_use'),
					comment: text('comment'),
				},
	);
	if (!parsed.success) return redirect(`${BACK}?survey=incomplete#survey`, 303);
	try {
		await answerSurvey((await getRuntime()).deps, viewer, parsed.output);
	} catch (error) {
		// Outside the rollout there is nothing to answer; a second answer changes nothing.
		if (error instanceof AppError && (error.code === 'forbidden' || error.code === 'conflict'))
			return redirect(BACK, 303);
		throw error;
	}
	return redirect('dismissed' in parsed.output ? BACK : `${BACK}?survey=thanks#survey`, 303);
};
