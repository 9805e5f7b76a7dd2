import { Hono } from 'hono';
import type { ApiEnv } from '../../api/context';
import { both } from '../../api/hal';
import { validate } from '../../api/validate';
import type { Viewer } from '../../auth/contract';
import { requireViewer } from '../../auth/server/middleware';
import { SurveyAnswerSchema } from '../contract';
import { answerSurvey, getSurveyState } from './service';

/** customer_survey/: whether the signed-in member is asked, and their one answer. */
export function createSurveysApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	for (const path of both('/v7.1/customer_survey/')) {
		app.get(path, requireViewer, async (c) => {
			c.header('Cache-Control', 'private, no-store');
			return c.json(await getSurveyState(c.var.deps, c.var.viewer as Viewer));
		});
		app.post(path, requireViewer, validate('json', SurveyAnswerSchema), async (c) => {
			const viewer = c.var.viewer as Viewer;
			await answerSurvey(c.var.deps, viewer, c.req.valid('json'));
			return c.json(await getSurveyState(c.var.deps, viewer), 201);
		});
	}
	return app;
}
