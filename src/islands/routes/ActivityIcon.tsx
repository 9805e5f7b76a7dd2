import { activityLabel } from '../../lib/routes/contract';

/**
 * Line drawings (24 × 24, drawn with the text colour) for the activities the route search offers;
 * any other activity gets a plain route pin. The label beside the icon names it, so the drawing is hidden
 * from assistive technology.
 */
const ACTIVITY_DRAWINGS: Record<number, string> = {
	// Run: a runner mid-stride, leaning forward.
	16: 'M15 4.5a1.5 1.5 0 1 0 0 .01M9 9l4-2 3 3 3 1M13 7l-2 6 4 3-1 5M11 13l-3 3-4-1',
	// Walk: an upright walker.
	9: 'M13 4a1.5 1.5 0 1 0 0 .01M12 7l-1 6 3 3v5M11 13l-2 8M12 8l-3 3M12 8l3 3',
	// Bike Ride: two wheels and a frame.
	11: 'M6 17a3.5 3.5 0 1 0 0 .01M18 17a3.5 3.5 0 1 0 0 .01M6 17l4-7h6l2 7M10 10l3 7h5M14 6h3l-1 4',
	// Hike: two peaks and a trail.
	24: 'M2 20l7-12 4 6 3-4 6 10zM9 8l2 4M6 20l3-4 3 2 2-3',
};
const OTHER_DRAWING = 'M12 21s-6-6.5-6-11a6 6 0 0 1 12 0c0 4.5-6 11-6 11zM12 10a1.5 1.5 0 1 0 0 .01';

export function ActivityIcon({ activityTypeId }: { activityTypeId: number }) {
	return (
		<span className="activity" data-activity={activityTypeId}>
			<svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
				<path
					d={ACTIVITY_DRAWINGS[activityTypeId] ?? OTHER_DRAWING}
					fill="none"
					stroke="currentColor"
					strokeWidth="1.8"
					strokeLinecap="round"
					strokeLinejoin="round"
				/>
			</svg>
			<span className="activity__label">{activityLabel(activityTypeId)}</span>
		</span>
	);
}
