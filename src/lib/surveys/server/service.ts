import { and, eq } from 'drizzle-orm';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { isUniqueViolation } from '../../db/errors';
import { rolloutVariantFor } from '../../site/rollouts';
import { SURVEY_KEY, type SurveyAnswerInput, type SurveyStateView } from '../contract';
import { surveyResponses } from './tables';

type Deps = Pick<AppDeps, 'db' | 'config' | 'clock'>;
type Member = { id: number; username?: string; isPremium?: boolean };

/** Members in the customer survey rollout are asked; everyone else is not. */
export function isAskedSurvey(config: Deps['config'], member: Member): boolean {
	return rolloutVariantFor(member, 'customer_survey', config.rollouts) === 'show_survey';
}

export async function getSurveyState(deps: Deps, member: Member): Promise<SurveyStateView> {
	const [row] = await deps.db
		.select({ id: surveyResponses.id })
		.from(surveyResponses)
		.where(and(eq(surveyResponses.userId, member.id), eq(surveyResponses.survey, SURVEY_KEY)));
	return { survey: SURVEY_KEY, eligible: isAskedSurvey(deps.config, member), answered: Boolean(row) };
}

/** A member's survey answers, for their data export. */
export async function listSurveyAnswers(deps: Pick<AppDeps, 'db'>, memberId: number) {
	const rows = await deps.db
		.select()
		.from(surveyResponses)
		.where(eq(surveyResponses.userId, memberId))
		.orderBy(surveyResponses.id);
	return rows.map((row) => ({
		survey: row.survey,
		dismissed: row.dismissed,
		score: row.score,
		main_use: row.mainUse,
		comment: row.comment,
		created_datetime: formatApiDateTime(row.createdAt),
	}));
}

/** Stores a member's one answer (or "not now"); only members in the rollout are asked. */
export async function answerSurvey(deps: Deps, member: Member, input: SurveyAnswerInput): Promise<void> {
	if (!isAskedSurvey(deps.config, member))
		throw new AppError('forbidden', 'This survey is not open to you.', { detail: 'not_in_rollout' });
	const values =
		'dismissed' in input
			? { dismissed: true }
			: { score: input.score, mainUse: input.main_use, comment: input.comment.trim() };
	try {
		await deps.db
			.insert(surveyResponses)
			.values({ userId: member.id, survey: SURVEY_KEY, createdAt: deps.clock(), ...values });
	} catch (error) {
		if (isUniqueViolation(error))
			throw new AppError('conflict', 'You have already answered this survey.', {
				detail: 'already_answered',
			});
		throw error;
	}
}
