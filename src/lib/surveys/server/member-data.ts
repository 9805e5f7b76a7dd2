import type { ExportPart } from '../../core/server/member-data';
import { listSurveyAnswers } from './service';
import { surveyResponses } from './tables';

/** The member's survey answers, and the surveys they put off. */
export const surveysExport: ExportPart = {
	name: 'surveys',
	tables: [surveyResponses],
	write: async (deps, member, archive) =>
		archive.addJson('surveys.json', await listSurveyAnswers(deps, member.id)),
};
