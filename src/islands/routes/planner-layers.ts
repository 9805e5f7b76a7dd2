import L from 'leaflet';
import RoutingLine from 'leaflet-routing-machine/src/line.js';
import type { LatLng, PlannedLeg, Waypoint } from '../../lib/routes/planner';

/** How far the pointer must move along a line before letting go adds a point there rather than clicking. */
const DRAG_THRESHOLD_PX = 4;

/**
 * The planner's route on the map, kept in step with the model by changing only what an edit changed: a drag
 * or an undo on a 1,000-point route moves a pin and redraws two lines instead of rebuilding two thousand layers.
 * Lines are matched by their gap key and status (the key names both ends and the options), pins by waypoint id.
 * Each gap is a leaflet-routing-machine line: pressing on it and dragging adds a point where it is let go.
 */
export class PlannerLayers {
	private readonly group: L.LayerGroup;
	private lines = new Map<string, RoutingLine[]>();
	/** Each drawn line's gap in the route as it is now: lines outlive edits that renumber the gaps. */
	private lineGaps = new Map<RoutingLine, number>();
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
		this.lineGaps.clear();
		this.pins.clear();
	}

	private updateLines(legs: readonly PlannedLeg[]): void {
		const kept = new Map<string, RoutingLine[]>();
		this.lineGaps.clear();
		legs.forEach((leg, index) => {
			const id = `${leg.status}|${leg.key}`;
			let line = this.lines.get(id)?.pop();
			if (!line) {
				const coordinates = leg.points.map((p) => L.latLng(p.lat, p.lng));
				line = new RoutingLine(
					{ coordinates, waypointIndices: [0, coordinates.length - 1] },
					{
						styles: [{ className: `planner-leg planner-leg--${leg.status}`, weight: 5 }],
						extendToWaypoints: false,
						addWaypoints: true,
					},
				);
				const drawn = line;
				drawn.on('linetouched', (event) => {
					const gap = this.lineGaps.get(drawn);
					if (gap !== undefined) this.dragNewPoint(gap + 1, (event as L.LeafletMouseEvent).latlng);
				});
				line.addTo(this.group);
			}
			this.lineGaps.set(line, index);
			kept.set(id, [...(kept.get(id) ?? []), line]);
		});
		for (const unused of this.lines.values()) for (const line of unused) line.remove();
		this.lines = kept;
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
			// The browser's click that follows the drag is not a new point at the end.
			const container = map.getContainer();
			const swallow = (click: MouseEvent) => click.stopPropagation();
			container.addEventListener('click', swallow, { capture: true, once: true });
			setTimeout(() => container.removeEventListener('click', swallow, { capture: true }), 0);
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
			kept.set(waypoint.id, { marker: pin.marker, index, lat: waypoint.lat, lng: waypoint.lng });
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
			const pin = this.pins.get(waypoint.id);
			const at = marker.getLatLng();
			if (pin) this.onMove(pin.index, { lat: at.lat, lng: at.lng });
		});
		return marker;
	}
}

const pointName = (index: number) => `Point ${index + 1}`;

function pinIcon(index: number): L.DivIcon {
	return L.divIcon({ className: 'planner-pin', html: `<span>${index + 1}</span>`, iconSize: [28, 28] });
}
