import { memo } from 'react';
import { trackEvent } from '../../lib/analytics/queue';
import { type LegStatus, removeWaypoint, shiftWaypoint } from '../../lib/routes/planner';
import type { PlannerStore } from '../../lib/routes/planner-store';

const GAP_LABELS: Record<LegStatus, string> = {
	routed: 'following roads',
	pending: 'finding roads…',
	straight: 'straight line',
};

export type PlannerPointRowProps = {
	store: PlannerStore;
	index: number;
	count: number;
	/** Only some rows of the list are drawn: the row says its place in the whole list. */
	windowed?: boolean;
	/** The street the point lies on, or its coordinates. */
	label: string;
	/** How the gap to the next point is travelled, and its length in the member's unit; absent for the last point. */
	gap?: { status: LegStatus; distance: string };
};

/**
 * One point of the planner's list with its keyboard controls. Rows take plain values, so an edit re-renders
 * only the rows it changed, however long the route.
 */
export const PlannerPointRow = memo(function PlannerPointRow({
	store,
	index,
	count,
	windowed = false,
	label,
	gap,
}: PlannerPointRowProps) {
	const n = index + 1;
	return (
		<li data-index={index} {...(windowed ? { 'aria-posinset': n, 'aria-setsize': count } : {})}>
			<span className="planner__point-name">{label}</span>
			<span className="planner__point-actions">
				<button
					type="button"
					aria-label={`Move point ${n} up`}
					disabled={index === 0}
					onClick={() => {
						trackEvent('route_point_interaction_performed', { interaction: 'move' });
						store.edit((s) => shiftWaypoint(s, index, -1));
					}}
				>
					↑
				</button>
				<button
					type="button"
					aria-label={`Move point ${n} down`}
					disabled={index === count - 1}
					onClick={() => {
						trackEvent('route_point_interaction_performed', { interaction: 'move' });
						store.edit((s) => shiftWaypoint(s, index, 1));
					}}
				>
					↓
				</button>
				<button
					type="button"
					aria-label={`Remove point ${n}`}
					onClick={() => {
						trackEvent('route_point_interaction_performed', { interaction: 'remove' });
						store.edit((s) => removeWaypoint(s, index));
					}}
				>
					✕
				</button>
			</span>
			{gap && (
				<span className="planner__gap" data-status={gap.status} data-testid="planner-gap">
					To point {n + 1}: {GAP_LABELS[gap.status]} ({gap.distance})
				</span>
			)}
		</li>
	);
}, sameRow);

function sameRow(a: PlannerPointRowProps, b: PlannerPointRowProps): boolean {
	return (
		a.store === b.store &&
		a.index === b.index &&
		a.count === b.count &&
		a.windowed === b.windowed &&
		a.label === b.label &&
		a.gap?.status === b.gap?.status &&
		a.gap?.distance === b.gap?.distance
	);
}
