import L from 'leaflet';
import RoutingLine from 'leaflet-routing-machine/src/line.js';
import type { LatLng, PlannedLeg, Waypoint } from '../../lib/routes/planner';

/** How far the pointer must move along a line before letting go adds a point there rather than clicking. */
const DRAG_THRESHOLD_PX = 4;

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
	private pins = new Map<number, { marker: L.Marker; index: number; lat: number; lng: number }>();

	constructor(
		private readonly map: L.Map,
		/** A pin was dragged to `point`; `index` is its place in the route when it was let go. */
		private readonly onMove: (index: number, point: LatLng) => void,
		/** A line was dragged: a new point at `point` becomes the route's point number `index`. */
		private readonly onInsert: (index: number, point: LatLng) => void,
	) {
		this.group = L.layerGroup().addTo(map);
	}

	update(legs: readonly PlannedLeg[], waypoints: readonly Waypoint[]): void {
		this.updateLines(legs);
		this.updatePins(waypoints);
	}

	remove(): void {
		this.group.remove();
		this.lines.clear();
		this.duplicates = [];
		this.lineGaps.clear();
		this.pins.clear();
	}

	private updateLines(legs: readonly PlannedLeg[]): void {
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
			{
				styles: [{ className: `planner-leg planner-leg--${leg.status}`, weight: 5 }],
				extendToWaypoints: false,
				addWaypoints: true,
			},
		);
		line.on('linetouched', (event) => {
			const gap = this.lineGaps.get(line);
			if (gap !== undefined) this.dragNewPoint(gap + 1, (event as L.LeafletMouseEvent).latlng);
		});
		line.addTo(this.group);
		return line;
	}

	/**
	 * Follows the pointer from a press on a line with a new pin; letting go after a real move adds the point
	 * there. A press let go where it began stays a click on the map, which adds a point at the end as always.
	 */
	private dragNewPoint(index: number, from: L.LatLng): void {
		const map = this.map;
		const ghost = L.marker(from, { icon: pinIcon(index), interactive: false, keyboard: false }).addTo(
			this.group,
		);
		const start = map.latLngToContainerPoint(from);
		let moved = false;
		map.dragging.disable();
		const onMove = (event: L.LeafletMouseEvent) => {
			ghost.setLatLng(event.latlng);
			if (start.distanceTo(event.containerPoint) > DRAG_THRESHOLD_PX) moved = true;
		};
		const onUp = (event: L.LeafletMouseEvent) => {
			map.off('mousemove', onMove);
			map.off('mouseup', onUp);
			map.dragging.enable();
			ghost.remove();
			if (!moved) return;
			swallowNextClick(map);
			this.onInsert(index, { lat: event.latlng.lat, lng: event.latlng.lng });
		};
		map.on('mousemove', onMove);
		map.on('mouseup', onUp);
	}

	private updatePins(waypoints: readonly Waypoint[]): void {
		const kept = new Map<number, { marker: L.Marker; index: number; lat: number; lng: number }>();
		waypoints.forEach((waypoint, index) => {
			const pin = this.pins.get(waypoint.id);
			if (!pin) {
				kept.set(waypoint.id, { marker: this.makePin(waypoint, index), index, ...waypoint });
				return;
			}
			this.pins.delete(waypoint.id);
			if (pin.lat !== waypoint.lat || pin.lng !== waypoint.lng)
				pin.marker.setLatLng([waypoint.lat, waypoint.lng]);
			if (pin.index !== index) {
				pin.marker.options.title = pointName(index);
				pin.marker.options.alt = pointName(index);
				pin.marker.setIcon(pinIcon(index));
				// A div icon is redrawn into the same element, which keeps its old title.
				pin.marker.getElement()?.setAttribute('title', pointName(index));
			}
			pin.index = index;
			pin.lat = waypoint.lat;
			pin.lng = waypoint.lng;
			kept.set(waypoint.id, pin);
		});
		for (const unused of this.pins.values()) unused.marker.remove();
		this.pins = kept;
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
			const pin = this.pins.get(waypoint.id);
			const at = marker.getLatLng();
			if (pin) this.onMove(pin.index, { lat: at.lat, lng: at.lng });
		});
		return marker;
	}
}

/** The browser's click that follows a drag is not a new point at the end of the route. */
function swallowNextClick(map: L.Map): void {
	const container = map.getContainer();
	const swallow = (click: MouseEvent) => click.stopPropagation();
	container.addEventListener('click', swallow, { capture: true, once: true });
	setTimeout(() => container.removeEventListener('click', swallow, { capture: true }), 0);
}

/** Lines are taken over by a gap with the same ends, options and status. */
const lineId = (leg: PlannedLeg) => `${leg.status}|${leg.key}`;

const pointName = (index: number) => `Point ${index + 1}`;

function pinIcon(index: number): L.DivIcon {
	return L.divIcon({ className: 'planner-pin', html: `<span>${index + 1}</span>`, iconSize: [28, 28] });
}
