import L from 'leaflet';
import RoutingLine from 'leaflet-routing-machine/src/line.js';
import type { LatLng, PlannedLeg, Waypoint } from '../../lib/routes/planner';

/** How far the pointer must move along a line before letting go adds a point there rather than clicking. */
const DRAG_THRESHOLD_PX = 4;

/**
 * From this many points on, the route is drawn on one canvas, pins as dots: restyling and painting a thousand
 * DOM pins and SVG lines cost more on each edit than the edit itself. The point list still names, moves and
 * removes every point from the keyboard.
 */
export const CANVAS_FROM_POINTS = 150;

/** How far from a point's centre a mouse press still takes it; a finger reaches twice as far. */
const DOT_REACH_PX = 10;

type Pin = { layer: L.Marker | L.CircleMarker; index: number; lat: number; lng: number };

/** The route's colours on a canvas, from the custom properties planner.scss sets from the design tokens. */
type CanvasColours = { routed: string; straight: string; pin: string; pinEdge: string };

/**
 * The planner's route on the map, kept in step with the model by changing only what an edit changed: a drag
 * or an undo on a 1,000-point route moves a pin and redraws two lines instead of rebuilding two thousand layers.
 * Lines are matched by their gap (the same object while unchanged), else by its key and status (the key names
 * both ends and the options); pins by waypoint id.
 * Each gap is a leaflet-routing-machine line: pressing on it and dragging adds a point where it is let go.
 */
export class PlannerLayers {
	private readonly group: L.LayerGroup;
	/** The line of each gap drawn, and lines of gaps that appear twice (the same object at two places). */
	private lines = new Map<PlannedLeg, RoutingLine>();
	private duplicates: RoutingLine[] = [];
	/** Each drawn line's gap in the route as it is now: lines outlive edits that renumber the gaps. */
	private lineGaps = new Map<RoutingLine, number>();
	private legOf = new WeakMap<RoutingLine, PlannedLeg>();
	private pins = new Map<number, Pin>();
	/** The gaps and waypoints as last drawn: an edit that keeps their number is applied place by place. */
	private drawnLegs: readonly PlannedLeg[] = [];
	private drawnWaypoints: readonly Waypoint[] = [];
	/** Set while the route is long enough to be drawn on a canvas. */
	private canvas: { renderer: L.Canvas; colours: CanvasColours; hint: L.Tooltip } | null = null;
	/** The point a long route's hover is naming. */
	private hinted: number | null = null;
	/**
	 * A long route's dots where the map's layer has them, worked out once per zoom and edit: hovering asks for
	 * the nearest dot on every move of the mouse, and projecting a thousand points each time made garbage.
	 */
	private dotPlaces: { ids: number[]; x: Float64Array; y: Float64Array } | null = null;
	private readonly forgetDotPlaces = () => {
		this.dotPlaces = null;
	};

	constructor(
		private readonly map: L.Map,
		/** A pin was dragged to `point`; `index` is its place in the route when it was let go. */
		private readonly onMove: (index: number, point: LatLng) => void,
		/** A line was dragged: a new point at `point` becomes the route's point number `index`. */
		private readonly onInsert: (index: number, point: LatLng) => void,
	) {
		this.group = L.layerGroup().addTo(map);
		map.getContainer().addEventListener('pointerdown', this.pressPoint, { capture: true });
		map.on('viewreset zoomend', this.forgetDotPlaces);
	}

	update(legs: readonly PlannedLeg[], waypoints: readonly Waypoint[]): void {
		const onCanvas = waypoints.length >= CANVAS_FROM_POINTS;
		if (onCanvas !== Boolean(this.canvas)) {
			this.clear();
			this.canvas = onCanvas ? this.makeCanvas() : null;
		}
		this.updateLines(legs);
		this.updatePins(waypoints);
	}

	remove(): void {
		this.clear();
		this.group.remove();
		this.map.getContainer().removeEventListener('pointerdown', this.pressPoint, { capture: true });
		this.map.off('viewreset zoomend', this.forgetDotPlaces);
	}

	private clear(): void {
		this.group.clearLayers();
		if (this.canvas) {
			this.map.closeTooltip(this.canvas.hint);
			this.canvas.renderer.remove();
		}
		this.canvas = null;
		this.lines.clear();
		this.duplicates = [];
		this.lineGaps.clear();
		this.pins.clear();
		this.drawnLegs = [];
		this.drawnWaypoints = [];
		this.dotPlaces = null;
	}

	private makeCanvas() {
		const style = getComputedStyle(this.map.getContainer());
		const colour = (name: string) => style.getPropertyValue(`--planner-${name}`).trim();
		return {
			// A wider hit area than the lines' width: a finger or a quick press still lands on them. Drawn a tenth
			// beyond the view each side, as Leaflet draws its SVG lines: every redraw hands the whole canvas to the
			// compositor, and one half a view wider each side made that the largest part of an edit.
			renderer: L.canvas({ padding: 0.1, tolerance: 4 }),
			colours: {
				routed: colour('leg'),
				straight: colour('leg-straight'),
				pin: colour('pin'),
				pinEdge: colour('pin-edge'),
			},
			hint: L.tooltip({ direction: 'top', offset: [0, -8] }),
		};
	}

	private updateLines(legs: readonly PlannedLeg[]): void {
		if (!this.replaceLinesInPlace(legs)) this.matchLines(legs);
		this.drawnLegs = legs;
	}

	/**
	 * A drag, an undo or a redo that keeps the number of gaps changes a few of them where they are: only those
	 * lines are swapped, and every other line keeps its place. False when the edit is not of that kind.
	 */
	private replaceLinesInPlace(legs: readonly PlannedLeg[]): boolean {
		const before = this.drawnLegs;
		if (before.length !== legs.length || before.length === 0 || this.duplicates.length > 0) return false;
		const changed: number[] = [];
		for (let index = 0; index < legs.length; index++) {
			if (legs[index] === before[index]) continue;
			// A gap drawn elsewhere already, or twice in this edit: the general match handles lines shared so.
			if (this.lines.has(legs[index]) || changed.some((other) => legs[other] === legs[index])) return false;
			changed.push(index);
		}
		const spare = new Map<string, RoutingLine[]>();
		for (const index of changed) {
			const line = this.lines.get(before[index]) as RoutingLine;
			this.lines.delete(before[index]);
			this.lineGaps.delete(line);
			const id = lineId(before[index]);
			spare.set(id, [...(spare.get(id) ?? []), line]);
		}
		for (const index of changed) {
			const leg = legs[index];
			const line = spare.get(lineId(leg))?.pop() ?? this.makeLine(leg);
			this.legOf.set(line, leg);
			this.lines.set(leg, line);
			this.lineGaps.set(line, index);
		}
		for (const unused of spare.values()) for (const line of unused) line.remove();
		return true;
	}

	private matchLines(legs: readonly PlannedLeg[]): void {
		// The same gap object is the same line: the planner keeps a gap's object while the gap is unchanged.
		const drawn = new Map<PlannedLeg, RoutingLine>();
		const duplicates: RoutingLine[] = [];
		const missing: number[] = [];
		this.lineGaps.clear();
		legs.forEach((leg, index) => {
			const line = this.lines.get(leg);
			if (line && !drawn.has(leg)) {
				this.lines.delete(leg);
				drawn.set(leg, line);
				this.lineGaps.set(line, index);
			} else missing.push(index);
		});
		// Lines no longer matched: one of the same gap and status is taken over (an undo brings a gap back as a
		// new object), the rest are taken off.
		const spare = new Map<string, RoutingLine[]>();
		if (missing.length > 0) {
			for (const line of [...this.lines.values(), ...this.duplicates]) {
				const id = lineId(this.legOf.get(line) as PlannedLeg);
				const same = spare.get(id);
				if (same) same.push(line);
				else spare.set(id, [line]);
			}
		} else {
			for (const line of [...this.lines.values(), ...this.duplicates]) line.remove();
		}
		for (const index of missing) {
			const leg = legs[index];
			const line = spare.get(lineId(leg))?.pop() ?? this.makeLine(leg);
			this.legOf.set(line, leg);
			this.lineGaps.set(line, index);
			if (drawn.has(leg)) duplicates.push(line);
			else drawn.set(leg, line);
		}
		for (const unused of spare.values()) for (const line of unused) line.remove();
		this.lines = drawn;
		this.duplicates = duplicates;
	}

	private makeLine(leg: PlannedLeg): RoutingLine {
		const coordinates = leg.points.map((p) => L.latLng(p.lat, p.lng));
		const line = new RoutingLine(
			{ coordinates, waypointIndices: [0, coordinates.length - 1] },
			{ styles: [this.lineStyle(leg)], extendToWaypoints: false, addWaypoints: true },
		);
		line.on('linetouched', (event) => {
			const gap = this.lineGaps.get(line);
			if (gap === undefined) return;
			// A press let go where it began stays a click on the map, which adds a point at the end as always.
			// The line's mouse press goes on to the map, which would drag the view along.
			this.followPointer(gap + 1, (event as L.LeafletMouseEvent).latlng, true, (point) =>
				this.onInsert(gap + 1, point),
			);
		});
		line.addTo(this.group);
		// On a canvas the last drawn is on top and takes the press: lines stay under the pins.
		if (this.canvas) line.eachLayer((path) => (path as L.Path).bringToBack());
		return line;
	}

	private lineStyle(leg: PlannedLeg): L.PathOptions {
		const className = `planner-leg planner-leg--${leg.status}`;
		if (!this.canvas) return { className, weight: 5 };
		const { renderer, colours } = this.canvas;
		return {
			className,
			weight: 5,
			renderer,
			color: leg.status === 'straight' ? colours.straight : colours.routed,
			dashArray: leg.status === 'routed' ? undefined : '8 8',
		};
	}

	/**
	 * Follows the pointer from a press with a pin numbered `index`; letting go after a real move hands the
	 * place to `drop`, and letting go where it began calls `still`. `holdMap` stops the map's own drag, which
	 * the press would also start.
	 */
	private followPointer(
		index: number,
		from: L.LatLng,
		holdMap: boolean,
		drop: (point: LatLng) => void,
		still?: () => void,
	): void {
		const map = this.map;
		const ghost = L.marker(from, { icon: pinIcon(index), interactive: false, keyboard: false }).addTo(
			this.group,
		);
		const start = map.latLngToContainerPoint(from);
		let moved = false;
		if (holdMap) map.dragging.disable();
		// Pointer events, which a mouse and a finger both send, and on the document: the pointer may leave the map.
		const onMove = (event: PointerEvent) => {
			ghost.setLatLng(map.mouseEventToLatLng(event));
			if (start.distanceTo(map.mouseEventToContainerPoint(event)) > DRAG_THRESHOLD_PX) moved = true;
		};
		const onUp = (event: PointerEvent) => {
			// Read before the page changes below: reading the map's place after them would lay the page out twice.
			const at = map.mouseEventToLatLng(event);
			document.removeEventListener('pointermove', onMove);
			document.removeEventListener('pointerup', onUp);
			document.removeEventListener('pointercancel', onUp);
			if (holdMap) map.dragging.enable();
			ghost.remove();
			if (event.type === 'pointercancel') return;
			if (!moved) return still?.();
			// A mouse or pen let go after a drag still clicks; a finger that moved does not, and arming the
			// swallow then ate the member's next tap whenever the page was too busy to disarm it first.
			if (event.pointerType !== 'touch') swallowNextClick(map);
			drop({ lat: at.lat, lng: at.lng });
		};
		document.addEventListener('pointermove', onMove);
		document.addEventListener('pointerup', onUp);
		document.addEventListener('pointercancel', onUp);
	}

	private updatePins(waypoints: readonly Waypoint[]): void {
		const before = this.drawnWaypoints;
		this.drawnWaypoints = waypoints;
		if (waypoints !== before) this.dotPlaces = null;
		// The same points in the same order (a drag, an undo or a redo of one): only the moved ones change.
		if (
			before.length === waypoints.length &&
			before.every((point, index) => point.id === waypoints[index].id)
		) {
			for (let index = 0; index < waypoints.length; index++) {
				const waypoint = waypoints[index];
				if (waypoint !== before[index]) placePin(this.pins.get(waypoint.id) as Pin, waypoint, index);
			}
			return;
		}
		const kept = new Map<number, Pin>();
		waypoints.forEach((waypoint, index) => {
			const pin = this.pins.get(waypoint.id);
			if (!pin) {
				const layer = this.canvas ? this.makeDot(waypoint) : this.makePin(waypoint, index);
				kept.set(waypoint.id, { layer, index, ...waypoint });
				return;
			}
			this.pins.delete(waypoint.id);
			placePin(pin, waypoint, index);
			kept.set(waypoint.id, pin);
		});
		for (const unused of this.pins.values()) unused.layer.remove();
		this.pins = kept;
	}

	/** A pin dragged to a new place is moved there, wherever the route has renumbered it since. */
	private moveTo(waypointId: number, point: LatLng): void {
		const pin = this.pins.get(waypointId);
		if (pin) this.onMove(pin.index, point);
	}

	private makePin(waypoint: Waypoint, index: number): L.Marker {
		const marker = L.marker([waypoint.lat, waypoint.lng], {
			draggable: true,
			title: pointName(index),
			alt: pointName(index),
			icon: pinIcon(index),
		}).addTo(this.group);
		marker.on('dragend', () => {
			// Let go over another pin, the browser's click lands on the pane under both and would reach the map.
			swallowNextClick(this.map);
			const at = marker.getLatLng();
			this.moveTo(waypoint.id, { lat: at.lat, lng: at.lng });
		});
		return marker;
	}

	/**
	 * A long route's point: a dot on the canvas. Dots close together overlap, so a hover or a press means the
	 * point nearest the pointer. Pressing is handled by `pressPoint`.
	 */
	private makeDot(waypoint: Waypoint): L.CircleMarker {
		const { renderer, colours, hint } = this.canvas as NonNullable<typeof this.canvas>;
		const dot = L.circleMarker([waypoint.lat, waypoint.lng], {
			renderer,
			radius: 6,
			weight: 2,
			color: colours.pinEdge,
			fillColor: colours.pin,
			fillOpacity: 1,
			// A click on a point is not a click on the map, which would add a point at the end.
			bubblingMouseEvents: false,
		}).addTo(this.group);
		// Hover names the point, and so does a click: listening for it also keeps the click off the map, where it
		// would add a point. A press let go where it began names it on its own (pressPoint).
		dot.on('mouseover mousemove click', (event) => {
			const nearest = this.nearestPin((event as L.LeafletMouseEvent).containerPoint);
			if (nearest) this.nameDot(...nearest);
		});
		dot.on('mouseout', () => this.map.closeTooltip(hint));
		return dot;
	}

	/** Names a long route's point in the tooltip above it. */
	private nameDot(id: number, pin: Pin): void {
		const hint = this.canvas?.hint;
		if (!hint || (this.hinted === id && this.map.hasLayer(hint))) return;
		this.hinted = id;
		hint.setLatLng([pin.lat, pin.lng]).setContent(pointName(pin.index));
		this.map.openTooltip(hint);
	}

	/**
	 * A press on a long route's point, by mouse or finger, drags it with a ghost pin. Caught on its way down to
	 * the canvas, so neither the map's drag nor the line under the point starts; a click still follows.
	 */
	private readonly pressPoint = (event: PointerEvent): void => {
		if (!this.canvas || !event.isPrimary || event.button !== 0) return;
		if (!(event.target instanceof HTMLCanvasElement)) return;
		const at = this.map.mouseEventToContainerPoint(event);
		const nearest = this.nearestPin(at);
		if (!nearest) return;
		const [id, pin] = nearest;
		const reach = event.pointerType === 'mouse' ? DOT_REACH_PX : DOT_REACH_PX * 2;
		if (at.distanceTo(this.map.latLngToContainerPoint([pin.lat, pin.lng])) > reach) return;
		event.preventDefault();
		event.stopPropagation();
		this.map.closeTooltip(this.canvas.hint);
		// A tap names the point it reached: a finger gets twice a mouse's reach, more than the dot's own
		// outline, so the click that follows may land beside the dot.
		// The press stops here, so neither the map's pointer handling nor a mouse's mousedown reaches it; a
		// finger's touch events still do. Holding the map only when needed spares every mouse drag the restyling
		// of the map that switching its drag off and on again costs.
		this.followPointer(
			pin.index,
			L.latLng(pin.lat, pin.lng),
			event.pointerType === 'touch',
			(point) => this.moveTo(id, point),
			() => this.nameDot(id, pin),
		);
	};

	private nearestPin(at: L.Point): [number, Pin] | undefined {
		const places = this.dotPlaces ?? this.placeDots();
		const target = this.map.containerPointToLayerPoint(at);
		let nearest = -1;
		let best = Number.POSITIVE_INFINITY;
		for (let index = 0; index < places.ids.length; index++) {
			const distance = (places.x[index] - target.x) ** 2 + (places.y[index] - target.y) ** 2;
			if (distance < best) {
				best = distance;
				nearest = index;
			}
		}
		const id = places.ids[nearest];
		const pin = this.pins.get(id);
		return pin ? [id, pin] : undefined;
	}

	private placeDots(): NonNullable<typeof this.dotPlaces> {
		const ids = [...this.pins.keys()];
		const x = new Float64Array(ids.length);
		const y = new Float64Array(ids.length);
		ids.forEach((id, index) => {
			const pin = this.pins.get(id) as Pin;
			const point = this.map.latLngToLayerPoint([pin.lat, pin.lng]);
			x[index] = point.x;
			y[index] = point.y;
		});
		this.dotPlaces = { ids, x, y };
		return this.dotPlaces;
	}
}

/** The browser's click that follows a drag is not a new point at the end of the route. */
function swallowNextClick(map: L.Map): void {
	const container = map.getContainer();
	const swallow = (click: MouseEvent) => click.stopPropagation();
	container.addEventListener('click', swallow, { capture: true, once: true });
	setTimeout(() => container.removeEventListener('click', swallow, { capture: true }), 0);
}

/** Puts a drawn pin where its waypoint now is, numbered for its place in the route. */
function placePin(pin: Pin, waypoint: Waypoint, index: number): void {
	if (pin.lat !== waypoint.lat || pin.lng !== waypoint.lng) pin.layer.setLatLng([waypoint.lat, waypoint.lng]);
	if (pin.index !== index && pin.layer instanceof L.Marker) renumber(pin.layer, index);
	pin.index = index;
	pin.lat = waypoint.lat;
	pin.lng = waypoint.lng;
}

/** Lines are taken over by a gap with the same ends, options and status. */
const lineId = (leg: PlannedLeg) => `${leg.status}|${leg.key}`;

const pointName = (index: number) => `Point ${index + 1}`;

function renumber(marker: L.Marker, index: number): void {
	marker.options.title = pointName(index);
	marker.options.alt = pointName(index);
	marker.setIcon(pinIcon(index));
	// A div icon is redrawn into the same element, which keeps its old title.
	marker.getElement()?.setAttribute('title', pointName(index));
}

function pinIcon(index: number): L.DivIcon {
	return L.divIcon({ className: 'planner-pin', html: `<span>${index + 1}</span>`, iconSize: [28, 28] });
}
