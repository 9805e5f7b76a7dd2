/**
 * The loyalty pilot: points for what a member does, a balance and a status tier. Points are counted
 * from the member's own records whenever they are read, like goal progress, so a deleted workout or a
 * week that fell below its goal never leaves points behind.
 */
export const LOYALTY_POINTS = {
	/** Each workout saved. */
	workout: 10,
	/** Each week a weekly goal was met. */
	goalMet: 50,
	/** Each challenge whose target the member reached. */
	challengeFinished: 200,
} as const;

export const LOYALTY_TIERS = [
	{ status: 'Blue', from: 0 },
	{ status: 'Bronze', from: 250 },
	{ status: 'Silver', from: 1000 },
	{ status: 'Gold', from: 2500 },
] as const;
export type LoyaltyStatus = (typeof LOYALTY_TIERS)[number]['status'];

/** GET /v1/loyalty/rewards-points/{userId}. */
export type RewardsPointsView = {
	user_id: number;
	pointsBalance: number;
	earned: { workouts: number; goals_met: number; challenges_finished: number };
};

/** GET /v1/loyalty/status/{userId}. */
export type LoyaltyStatusView = {
	user_id: number;
	status: LoyaltyStatus;
	pointsBalance: number;
	/** The next tier and the points still needed for it; null at the top tier. */
	next: { status: LoyaltyStatus; points_needed: number } | null;
};

/** The tier a balance reaches, and what the next one needs. */
export function tierFor(points: number): Pick<LoyaltyStatusView, 'status' | 'next'> {
	let index = 0;
	for (let i = 0; i < LOYALTY_TIERS.length; i++) if (points >= LOYALTY_TIERS[i].from) index = i;
	const next = LOYALTY_TIERS[index + 1];
	return {
		status: LOYALTY_TIERS[index].status,
		next: next ? { status: next.status, points_needed: next.from - points } : null,
	};
}
