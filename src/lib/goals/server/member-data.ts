import type { ExportPart } from '../../core/server/member-data';
import { listGoalsWithProgress, representGoal } from './service';
import { userGoals } from './tables';

/** The member's weekly goals and how each week went. */
export const goalsExport: ExportPart = {
	name: 'goals',
	tables: [userGoals],
	write: async (deps, member, archive) => {
		const { goals } = await listGoalsWithProgress(deps, member, { user: member.id });
		archive.addJson(
			'goals.json',
			goals.map((goal) => representGoal(goal, 'UTC')),
		);
	},
};
