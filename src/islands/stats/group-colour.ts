import { GROUP_COLOURS } from '../../lib/stats/groups';
import type { ActivityGroup } from '../../lib/workouts/activity-groups';

/**
 * Gives an element its activity group's colour as `--group-colour`, set through the CSSOM once the island is
 * on the page: the page's content security policy refuses style attributes in server-rendered HTML, so a
 * `style` prop on an island the server renders never showed.
 */
export function groupColour(group: ActivityGroup): (element: HTMLElement | null) => void {
	return (element) => {
		element?.style.setProperty('--group-colour', GROUP_COLOURS[group]);
	};
}
