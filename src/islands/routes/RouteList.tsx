import type { MouseEvent } from 'react';
import { paginationButtons, ROUTE_PRIVACY_LABELS, type RouteListItem } from '../../lib/routes/contract';
import { formatDistance, formatHeight, type Unit } from '../../lib/routes/render';
import './route-list.scss';

/**
 * The route lists of /routes, route search, my routes and bookmarks: one markup, rendered by
 * the Astro pages without script and by the search island alike.
 */
export type RouteDetail = 'climb' | 'city' | 'owner' | 'privacy';

export function RouteList(props: {
	routes: readonly RouteListItem[];
	unit: Unit;
	/** What follows the distance on each row, in this order. */
	details: readonly RouteDetail[];
	testId: string;
}) {
	if (props.routes.length === 0) return <p className="route-list__empty">No results found</p>;
	return (
		<ul className="route-list" data-testid={props.testId}>
			{props.routes.map((route) => (
				<li key={route.bookmarkId ?? route.id}>
					<a href={`/routes/view/${route.id}`}>{route.name}</a>
					<span>{describeRoute(route, props.unit, props.details)}</span>
					{route.bookmarkId !== undefined && (
						<form method="post">
							<input type="hidden" name="bookmark" value={route.bookmarkId} />
							<button type="submit">Remove</button>
						</form>
					)}
				</li>
			))}
		</ul>
	);
}

function describeRoute(route: RouteListItem, unit: Unit, details: readonly RouteDetail[]): string {
	const parts = [formatDistance(route.distanceM, unit)];
	for (const detail of details) {
		if (detail === 'climb') parts.push(`climb ${formatHeight(route.ascentM, unit)}`);
		else if (detail === 'city' && route.city) parts.push(route.city);
		else if (detail === 'owner') parts.push(`by ${route.ownerName}`);
		else if (detail === 'privacy') parts.push(ROUTE_PRIVACY_LABELS[route.privacy]);
	}
	return parts.join(' · ');
}

/**
 * Pagination: nothing for a single page, else Previous, a window of page numbers and
 * Next. The links work without script; with `onPage` a plain click stays on the page instead.
 */
export function RoutePages(props: {
	label: string;
	totalCount: number;
	pageSize: number;
	page: number;
	href: (page: number) => string;
	onPage?: (page: number) => void;
}) {
	const { page, onPage } = props;
	const pages = paginationButtons(props.totalCount, props.pageSize, page);
	if (pages.length === 0) return null;
	const link = (target: number, text: string | number) => (
		<a
			key={text}
			href={props.href(target)}
			onClick={
				onPage &&
				((event: MouseEvent) => {
					// A new tab or window keeps the browser's own behaviour.
					if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
					event.preventDefault();
					onPage(target);
				})
			}
		>
			{text}
		</a>
	);
	return (
		<nav aria-label={props.label} className="route-pages">
			{page > 1 && link(page - 1, 'Previous')}
			{pages.map((n) =>
				n === page ? (
					<span key={n} aria-current="page">
						{n}
					</span>
				) : (
					link(n, n)
				),
			)}
			{page * props.pageSize < props.totalCount && link(page + 1, 'Next')}
		</nav>
	);
}
