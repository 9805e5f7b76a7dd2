import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../../core/errors';
import { COMMENTS_PER_HOUR, FRIEND_REQUESTS_PER_HOUR } from '../contract';

/** A per-member hourly budget for one kind of write; 429 with Retry-After once spent. */
export function hourlyBudget(points: number, what: string) {
	const limiter = new RateLimiterMemory({ points, duration: 3600 });
	return async (memberId: number) => {
		try {
			await limiter.consume(String(memberId));
		} catch (refusal) {
			if (!(refusal instanceof RateLimiterRes)) throw refusal;
			throw new AppError('rate_limited', `At most ${points} ${what} an hour; try again later.`, {
				detail: 'too_many_requests',
				headers: { 'Retry-After': String(Math.max(1, Math.ceil(refusal.msBeforeNext / 1000))) },
			});
		}
	};
}

export type SocialBudgets = {
	friendRequest: (memberId: number) => Promise<void>;
	comment: (memberId: number) => Promise<void>;
};

/** One budget per process for the API and the pages alike, so a member cannot spend both. */
export const sharedBudgets: SocialBudgets = {
	friendRequest: hourlyBudget(FRIEND_REQUESTS_PER_HOUR, 'friend requests'),
	comment: hourlyBudget(COMMENTS_PER_HOUR, 'comments'),
};
