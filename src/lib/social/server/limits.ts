import { createLimiter, spendOrRefuse } from '../../api/rate-limit';
import type { Db } from '../../core/server/deps';
import { COMMENTS_PER_HOUR, FRIEND_REQUESTS_PER_HOUR } from '../contract';

/** A per-member hourly budget for one kind of write; 429 with Retry-After once spent. */
export function hourlyBudget(db: Db, name: string, points: number, what: string) {
	const limiter = createLimiter(db, { name, points, duration: 3600 });
	return async (memberId: number) => {
		await spendOrRefuse(limiter, String(memberId), `At most ${points} ${what} an hour; try again later.`);
	};
}

export type SocialBudgets = {
	friendRequest: (memberId: number) => Promise<void>;
	comment: (memberId: number) => Promise<void>;
};

export type SocialBudgetSizes = { friendRequestsPerHour?: number; commentsPerHour?: number };

const shared = new WeakMap<Db, SocialBudgets>();

/**
 * The budgets for one database: one pair per database for the API and the pages alike, so a
 * member cannot spend both (in memory, counters must outlive the request that made them). A size
 * given makes a budget of its own instead.
 */
export function socialBudgets(db: Db, sizes: SocialBudgetSizes = {}): SocialBudgets {
	let common = shared.get(db);
	if (!common) {
		common = {
			friendRequest: hourlyBudget(db, 'friend-requests', FRIEND_REQUESTS_PER_HOUR, 'friend requests'),
			comment: hourlyBudget(db, 'comments', COMMENTS_PER_HOUR, 'comments'),
		};
		shared.set(db, common);
	}
	const { friendRequestsPerHour, commentsPerHour } = sizes;
	return {
		friendRequest:
			friendRequestsPerHour === undefined
				? common.friendRequest
				: hourlyBudget(db, 'friend-requests', friendRequestsPerHour, 'friend requests'),
		comment:
			commentsPerHour === undefined
				? common.comment
				: hourlyBudget(db, 'comments', commentsPerHour, 'comments'),
	};
}
