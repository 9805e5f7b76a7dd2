import { type FocusEvent, memo, useLayoutEffect, useRef, useState } from 'react';
import type { PlannedLeg, Waypoint } from '../../lib/routes/planner';
import type { PlannerStore } from '../../lib/routes/planner-store';
import { formatDistance, type Unit } from '../../lib/routes/render';
import { PlannerPointRow } from './PlannerPointRow';

/** A list this long or shorter is drawn whole; a longer one draws only the rows in and near its view. */
export const WINDOW_FROM_POINTS = 60;
/** Rows drawn beyond each edge of the view, so Tab always finds the next row already there. */
export const OVERSCAN_ROWS = 8;
/** Rows drawn before the list is measured (its first paint). */
const FIRST_ROWS = 30;

export type RowWindow = { first: number; last: number };

/**
 * Which rows of a fixed-height list to draw: those in view plus `OVERSCAN_ROWS` each side, widened to keep the
 * row that holds the focus and its neighbours (so Tab finds the next row before the list has scrolled, and
 * scrolling away never drops the keyboard's place). `last` is exclusive.
 */
export function rowWindow(view: {
	count: number;
	scrollTop: number;
	viewHeight: number;
	rowHeight: number;
	focused: number | null;
}): RowWindow {
	const { count, scrollTop, viewHeight, rowHeight, focused } = view;
	let first = 0;
	let last = Math.min(count, FIRST_ROWS);
	if (rowHeight > 0 && viewHeight > 0) {
		first = Math.max(0, Math.floor(scrollTop / rowHeight) - OVERSCAN_ROWS);
		last = Math.min(count, Math.ceil((scrollTop + viewHeight) / rowHeight) + OVERSCAN_ROWS);
		first = Math.min(first, Math.max(0, last - 1));
	}
	if (focused !== null && focused < count) {
		first = Math.min(first, Math.max(0, focused - OVERSCAN_ROWS));
		last = Math.max(last, Math.min(count, focused + OVERSCAN_ROWS + 1));
	}
	return { first, last };
}

export type PlannerPointListProps = {
	store: PlannerStore;
	waypoints: readonly Waypoint[];
	legs: readonly PlannedLeg[];
	/** The store's street names: a new map when one arrives, so the rows show it. */
	streets: ReadonlyMap<string, string>;
	unit: Unit;
	labelledBy: string;
};

/**
 * The waypoint list. A long route's list scrolls in its own box and draws only the rows near its view, each
 * row of one fixed height, so an edit of a 1,000-point route renders a few dozen rows, not a thousand. The
 * list keeps its numbering (`start`) and tells assistive technology each row's place in the whole list.
 */
export const PlannerPointList = memo(function PlannerPointList({
	store,
	waypoints,
	legs,
	unit,
	labelledBy,
}: PlannerPointListProps) {
	const count = waypoints.length;
	const windowed = count > WINDOW_FROM_POINTS;
	const box = useRef<HTMLDivElement>(null);
	const [scroll, setScroll] = useState({ top: 0, view: 0, row: 0 });
	const [focused, setFocused] = useState<number | null>(null);
	const frame = useRef(0);

	// Measured before the first windowed paint and whenever the box changes size (a turned phone).
	useLayoutEffect(() => {
		const element = box.current;
		if (!windowed || !element) return;
		const measure = () => {
			const row = element.querySelector('li')?.offsetHeight ?? 0;
			setScroll({ top: element.scrollTop, view: element.clientHeight, row });
		};
		measure();
		const observer = typeof ResizeObserver === 'function' ? new ResizeObserver(measure) : null;
		observer?.observe(element);
		return () => {
			observer?.disconnect();
			cancelAnimationFrame(frame.current);
		};
	}, [windowed]);

	const onScroll = () => {
		if (!windowed) return;
		cancelAnimationFrame(frame.current);
		frame.current = requestAnimationFrame(() => {
			const element = box.current;
			if (element) setScroll((s) => (s.top === element.scrollTop ? s : { ...s, top: element.scrollTop }));
		});
	};
	const onFocus = (event: FocusEvent) => {
		if (!windowed) return;
		const row = (event.target as HTMLElement).closest('li')?.dataset.index;
		setFocused(row === undefined ? null : Number(row));
	};
	const onBlur = (event: FocusEvent<HTMLOListElement>) => {
		if (windowed && !event.currentTarget.contains(event.relatedTarget as Node | null)) setFocused(null);
	};

	const { first, last } = windowed
		? rowWindow({ count, scrollTop: scroll.top, viewHeight: scroll.view, rowHeight: scroll.row, focused })
		: { first: 0, last: count };
	const rows = [];
	for (let index = first; index < last; index++) {
		const waypoint = waypoints[index];
		const gap = legs[index];
		rows.push(
			<PlannerPointRow
				key={waypoint.id}
				store={store}
				index={index}
				count={count}
				windowed={windowed}
				label={store.streetAt(waypoint) ?? `${waypoint.lat.toFixed(5)}, ${waypoint.lng.toFixed(5)}`}
				gap={gap && { status: gap.status, distance: formatDistance(gap.distance, unit) }}
			/>,
		);
	}
	const padding = windowed && scroll.row > 0;
	// The box scrolls, not the list: the list's padding stands for the rows not drawn, and a scrolling box
	// of limited height cannot hold padding taller than itself.
	return (
		<div ref={box} className="planner__points-box" onScroll={onScroll}>
			<ol
				className={windowed ? 'planner__points planner__points--windowed' : 'planner__points'}
				aria-labelledby={labelledBy}
				data-testid="planner-points"
				// Numbered from the first row drawn (one attribute, not a value on every row: setting those makes
				// the browser number the list again for each).
				start={first + 1}
				onFocus={onFocus}
				onBlur={onBlur}
				style={
					padding ? { paddingTop: first * scroll.row, paddingBottom: (count - last) * scroll.row } : undefined
				}
			>
				{rows}
			</ol>
		</div>
	);
});
