import L from 'leaflet';

/** Colours from where one track runs to where the most overlap, read from CSS custom properties. */
export type HeatRamp = readonly string[];

/** Each stroke adds this much to the density: about six tracks on top of each other reach the hottest colour. */
const STROKE_DENSITY = 0.17;
/** Where one track runs it is still drawn this opaque, so a single line stands out from the base map. */
const COLDEST_OPACITY = 0.6;

/** A line's thickness in screen pixels at a zoom: hairlines over a region, a street's width up close. */
export function strokeWidthAt(zoom: number): number {
	return Math.min(4, Math.max(1.5, (zoom - 9) * 0.5));
}

/**
 * The colour (RGBA) for each density 0–255: the ramp spread evenly, opacity rising from
 * COLDEST_OPACITY to 1. Density 0 stays transparent.
 */
function rampTable(ramp: HeatRamp): Uint8ClampedArray {
	const canvas = document.createElement('canvas');
	canvas.width = 256;
	canvas.height = 1;
	const context = canvas.getContext('2d') as CanvasRenderingContext2D;
	const gradient = context.createLinearGradient(0, 0, 256, 0);
	ramp.forEach((colour, i) => {
		gradient.addColorStop(ramp.length === 1 ? 0 : i / (ramp.length - 1), colour);
	});
	context.fillStyle = gradient;
	context.fillRect(0, 0, 256, 1);
	const table = context.getImageData(0, 0, 256, 1).data;
	for (let density = 0; density < 256; density++)
		table[density * 4 + 3] =
			density === 0 ? 0 : 255 * (COLDEST_OPACITY + ((1 - COLDEST_OPACITY) * density) / 255);
	return table;
}

/**
 * Lines drawn as a heat layer on a canvas over the base map: every line is stroked with a little
 * density ('lighter' adds it up where lines overlap), then each pixel's density is coloured along the
 * ramp. Lines are projected once at zoom 0; a redraw after each move only scales and shifts them.
 * The canvas covers the map's view and hides during zoom animations (Leaflet's `leaflet-zoom-hide`).
 */
export class TrackHeatLayer extends L.Layer {
	private readonly lines: readonly (readonly [number, number][])[];
	private readonly ramp: HeatRamp;
	private projected: Float64Array[] = [];
	private canvas: HTMLCanvasElement | null = null;
	private density: HTMLCanvasElement | null = null;
	private table: Uint8ClampedArray | null = null;
	private leaflet: L.Map | null = null;

	constructor(lines: readonly (readonly [number, number][])[], ramp: HeatRamp) {
		super();
		this.lines = lines;
		this.ramp = ramp;
	}

	/**
	 * The box to fit the map to: around the lines that start in the busiest square degree and those
	 * around it, so a member with workouts on two continents opens on the place they go most (zooming
	 * out shows the rest), not on a world with every line a dot.
	 */
	bounds(): L.LatLngBounds {
		const cellOf = ([lat, lng]: readonly [number, number]) => [Math.floor(lat), Math.floor(lng)] as const;
		const counts = new Map<string, number>();
		for (const line of this.lines) {
			const [row, column] = cellOf(line[0]);
			counts.set(`${row},${column}`, (counts.get(`${row},${column}`) ?? 0) + 1);
		}
		const busiest = [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '0,0';
		const [busyRow, busyColumn] = busiest.split(',').map(Number);
		const bounds = L.latLngBounds([]);
		for (const line of this.lines) {
			const [row, column] = cellOf(line[0]);
			if (Math.abs(row - busyRow) > 1 || Math.abs(column - busyColumn) > 1) continue;
			for (const point of line) bounds.extend(point);
		}
		return bounds;
	}

	onAdd(map: L.Map): this {
		this.leaflet = map;
		this.projected = this.lines.map((line) => {
			const points = new Float64Array(line.length * 2);
			line.forEach(([lat, lng], i) => {
				const { x, y } = map.project([lat, lng], 0);
				points[i * 2] = x;
				points[i * 2 + 1] = y;
			});
			return points;
		});
		this.canvas = L.DomUtil.create('canvas', 'track-heatmap__canvas leaflet-zoom-hide');
		this.canvas.dataset.testid = 'track-heatmap-canvas';
		this.density = document.createElement('canvas');
		this.table = rampTable(this.ramp);
		map.getPane('overlayPane')?.appendChild(this.canvas);
		map.on('moveend resize', this.draw, this);
		this.draw();
		return this;
	}

	onRemove(map: L.Map): this {
		map.off('moveend resize', this.draw, this);
		this.canvas?.remove();
		this.canvas = null;
		this.density = null;
		this.leaflet = null;
		return this;
	}

	private draw(): void {
		const map = this.leaflet;
		const canvas = this.canvas;
		const density = this.density;
		const table = this.table;
		if (!map || !canvas || !density || !table) return;
		const size = map.getSize();
		const ratio = window.devicePixelRatio || 1;
		const width = Math.max(1, Math.round(size.x * ratio));
		const height = Math.max(1, Math.round(size.y * ratio));
		const topLeft = map.containerPointToLayerPoint([0, 0]);
		L.DomUtil.setPosition(canvas, topLeft);
		// Set through the CSSOM (as Leaflet places its own layers), which the page's style policy allows.
		canvas.style.width = `${size.x}px`;
		canvas.style.height = `${size.y}px`;
		for (const target of [canvas, density]) {
			target.width = width;
			target.height = height;
		}

		const zoom = map.getZoom();
		const scale = 2 ** zoom * ratio;
		const origin = map.getPixelOrigin();
		const shiftX = -(origin.x + topLeft.x) * ratio;
		const shiftY = -(origin.y + topLeft.y) * ratio;
		// Read back after every draw: kept in memory rather than on the GPU.
		const context = density.getContext('2d', { willReadFrequently: true }) as CanvasRenderingContext2D;
		context.globalCompositeOperation = 'lighter';
		context.strokeStyle = `rgba(0, 0, 0, ${STROKE_DENSITY})`;
		context.lineWidth = strokeWidthAt(zoom) * ratio;
		context.lineCap = 'round';
		context.lineJoin = 'round';
		for (const points of this.projected) {
			context.beginPath();
			context.moveTo(points[0] * scale + shiftX, points[1] * scale + shiftY);
			for (let i = 2; i < points.length; i += 2)
				context.lineTo(points[i] * scale + shiftX, points[i + 1] * scale + shiftY);
			context.stroke();
		}

		const pixels = context.getImageData(0, 0, width, height);
		const data = pixels.data;
		for (let at = 0; at < data.length; at += 4) {
			const level = data[at + 3];
			if (level === 0) continue;
			data[at] = table[level * 4];
			data[at + 1] = table[level * 4 + 1];
			data[at + 2] = table[level * 4 + 2];
			data[at + 3] = table[level * 4 + 3];
		}
		(canvas.getContext('2d') as CanvasRenderingContext2D).putImageData(pixels, 0, 0);
	}
}
