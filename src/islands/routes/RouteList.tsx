import type { MouseEvent } from 'react';
import {
	decodePreviewLine,
	paginationButtons,
	ROUTE_PRIVACY_LABELS,
	type RouteListItem,
} from '../../lib/routes/contract';
import { formatDistance, formatHeight, thumbnailPoints, type Unit } from '../../lib/routes/render';
import { ActivityIcon } from './ActivityIcon';
import './route-list.scss';

/**
 * The route lists of /routes, my routes and bookmarks: one markup, rendered by the Astro pages
 * without script. Route search shows its results as RouteCards.
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

/** A result card's thumbnail box, in CSS pixels. */
const THUMBNAIL_WIDTH = 72;
const THUMBNAIL_HEIGHT = 56;

/** The id of a result card, for the map to bring a result into view. */
export const routeCardId = (routeId: number) => `route-card-${routeId}`;

/**
 * Route search results as cards: the route's shape, its activity, distance and climb in the
 * member's unit, and its owner. Pointing at or focusing a card reports it, so the map can mark
 * that route; `highlighted` marks the card whose route the map points at.
 */
export function RouteCards(props: {
	routes: readonly RouteListItem[];
	unit: Unit;
	testId: string;
	highlighted?: number | null;
	/** A card pointed at or focused, or left (null); `by` tells which. */
	onHighlight?: (routeId: number | null, by: 'pointer' | 'focus') => void;
}) {
	const { onHighlight } = props;
	if (props.routes.length === 0) return <p className="route-list__empty">No results found</p>;
	return (
		<ul className="route-cards" data-testid={props.testId}>
			{props.routes.map((route) => {
				const points = thumbnailPoints(
					decodePreviewLine(route.previewLine),
					THUMBNAIL_WIDTH,
					THUMBNAIL_HEIGHT,
				);
				return (
					<li
						key={route.id}
						id={routeCardId(route.id)}
						className={route.id === props.highlighted ? 'route-card is-highlighted' : 'route-card'}
						data-route-id={route.id}
						onMouseEnter={onHighlight && (() => onHighlight(route.id, 'pointer'))}
						onMouseLeave={onHighlight && (() => onHighlight(null, 'pointer'))}
						onFocus={onHighlight && (() => onHighlight(route.id, 'focus'))}
						onBlur={onHighlight && (() => onHighlight(null, 'focus'))}
					>
						<svg
							className="route-card__thumbnail"
							viewBox={`0 0 ${THUMBNAIL_WIDTH} ${THUMBNAIL_HEIGHT}`}
							width={THUMBNAIL_WIDTH}
							height={THUMBNAIL_HEIGHT}
							aria-hidden="true"
							focusable="false"
							data-testid="route-thumbnail"
						>
							{points && <polyline points={points} />}
						</svg>
						<div className="route-card__body">
							<a href={`/routes/view/${route.id}`}>{route.name}</a>
							<p className="route-card__facts">
								<ActivityIcon activityTypeId={route.activityTypeId} />
								<span data-testid="route-distance">{formatDistance(route.distanceM, props.unit)}</span>
								<span data-testid="route-climb">climb {formatHeight(route.ascentM, props.unit)}</span>
								<span>by {route.ownerName}</span>
							</p>
						</div>
					</li>
				);
			})}
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
