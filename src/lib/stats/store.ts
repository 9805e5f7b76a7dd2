import { atom } from 'nanostores';
import type { SelfUser } from '../account/contract';
import { api, ensureSession, errorData } from '../api/client';
import { $session } from '../auth/store';
import type { WeekDay } from './calendar';
import type { StatsAnswer, TrackHeatmap, ZoneWeeks } from './contract';
import { WEEK_DAY_NAMES } from './format';

/**
 * The stats island's state: its filters' answers from the API, and the member's week start day,
 * which picking it on the stats page saves for goals, the calendar and the heatmap as well.
 */

export type WeekStartSave =
	| { status: 'idle' }
	| { status: 'saving'; day: WeekDay }
	| { status: 'saved'; day: WeekDay }
	| { status: 'failed'; day: WeekDay; message: string };

export const $weekStartSave = atom<WeekStartSave>({ status: 'idle' });

let latest = 0;
let queue: Promise<unknown> = Promise.resolve();

/**
 * Saves the day the member's weeks start on through the user API. Saves go one at a time, in the
 * order picked, and a pick replaced before its turn is not sent, so the member's setting ends as
 * the last pick and only that one's outcome is reported; the stats view follows the pick either way.
 */
export function saveWeekStartDay(userId: number, day: WeekDay): Promise<boolean> {
	const ticket = ++latest;
	$weekStartSave.set({ status: 'saving', day });
	const turn = queue.then(async () => {
		if (ticket !== latest) return false;
		try {
			await ensureSession();
			const updated = await api<SelfUser>(`/v7.1/user/${userId}/`, {
				method: 'PUT',
				body: { week_start_day: day },
			});
			const session = $session.get();
			if (session) $session.set({ ...session, user: updated });
			if (ticket === latest) $weekStartSave.set({ status: 'saved', day });
			return true;
		} catch (error) {
			const reason = errorData(error).message;
			if (ticket === latest)
				$weekStartSave.set({
					status: 'failed',
					day,
					message: `${WEEK_DAY_NAMES[day]} could not be saved as your week start${reason ? ` (${reason})` : ''}: goals and the calendar keep the day they had, and only these stats start on ${WEEK_DAY_NAMES[day]}. Pick it again to retry.`,
				});
			return false;
		}
	});
	queue = turn;
	return turn;
}

export type StatsFilterQuery = Record<string, string>;

/** The stats for the filters, as the island shows them. */
export async function fetchStats(userId: number, query: StatsFilterQuery): Promise<StatsAnswer> {
	await ensureSession();
	return api<StatsAnswer>('/v7.1/workout_stats/', { query: { ...query, user: userId } });
}

/** Time in heart-rate zones per week for the same filters (MVP only: the API answers 403 otherwise). */
export async function fetchZoneWeeks(userId: number, query: StatsFilterQuery): Promise<ZoneWeeks> {
	await ensureSession();
	return api<ZoneWeeks>('/v7.1/workout_stats/zone_weeks/', { query: { ...query, user: userId } });
}

/** The signed-in member's workout tracks for the heatmap, for an activity group ('all') and year (null: every year). */
export async function fetchTrackHeatmap(filters: {
	group: string;
	year: number | null;
}): Promise<TrackHeatmap> {
	await ensureSession();
	return api<TrackHeatmap>('/v7.1/workout_heatmap/', {
		query: {
			activity_groups: filters.group,
			...(filters.year === null ? {} : { year: String(filters.year) }),
		},
	});
}
