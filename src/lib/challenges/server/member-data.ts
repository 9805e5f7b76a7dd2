import { formatApiDateTime } from '../../core/dates';
import type { ExportPart } from '../../core/server/member-data';
import { listOwnChallengeEntries } from './catalogue';
import { challengeParticipants } from './tables';

/** The challenges the member joined and where they stand in each. */
export const challengesExport: ExportPart = {
	name: 'challenges',
	tables: [challengeParticipants],
	write: async (deps, member, archive) =>
		archive.addJson(
			'challenges.json',
			(await listOwnChallengeEntries(deps, member.id)).map((entry) => ({
				challenge: entry.challengeId,
				name: entry.name,
				name_shown_on_leaderboard: entry.showName,
				progress: entry.progress,
				workouts_counted: entry.workoutCount,
				progress_datetime: formatApiDateTime(entry.reachedAt),
			})),
		),
};
