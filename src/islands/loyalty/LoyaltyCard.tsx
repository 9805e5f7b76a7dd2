import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { LOYALTY_POINTS } from '../../lib/loyalty/contract';
import { $loyalty, loadLoyalty } from '../../lib/loyalty/store';
import './loyalty-card.scss';

export type LoyaltyCardProps = { userId: number };

const formatPoints = (points: number) => points.toLocaleString('en-US');

/** The loyalty pilot's card on the dashboard: status, balance and how to earn more. */
export default function LoyaltyCard({ userId }: LoyaltyCardProps) {
	const loyalty = useStore($loyalty);
	useEffect(() => {
		void loadLoyalty(userId);
	}, [userId]);
	return (
		<section className="loyalty-card" aria-labelledby="loyalty-title" data-testid="loyalty-card" id="loyalty">
			<h2 id="loyalty-title">Rewards</h2>
			{(loyalty.state === 'idle' || loyalty.state === 'loading') && (
				<p role="status" data-testid="loyalty-loading">
					Loading your points…
				</p>
			)}
			{loyalty.state === 'error' && (
				<p role="alert" data-testid="loyalty-error">
					Your points did not load.{' '}
					<button type="button" onClick={() => void loadLoyalty(userId, true)}>
						Try again
					</button>
				</p>
			)}
			{loyalty.state === 'success' && (
				<>
					<p className="loyalty-card__status" data-testid="loyalty-status">
						<strong>{loyalty.status.status}</strong> · {formatPoints(loyalty.status.pointsBalance)} points
					</p>
					{loyalty.status.next && (
						<p>
							{formatPoints(loyalty.status.next.points_needed)} points to {loyalty.status.next.status}.
						</p>
					)}
					<p className="loyalty-card__earn">
						Earn {LOYALTY_POINTS.workout} points for each workout, {LOYALTY_POINTS.goalMet} for each week you
						meet a goal and {LOYALTY_POINTS.challengeFinished} for each challenge you finish.
					</p>
				</>
			)}
		</section>
	);
}
