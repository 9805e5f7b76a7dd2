/**
 * A city map drawn at build time as SVG: the city, its neighbours and its routes on a local
 * equirectangular projection (metres east and north of the centre), which is exact enough across
 * the tens of kilometres a city page shows. No tiles, no script.
 */

export type MapPlace = { name: string; lat: number; lng: number; population: number; main?: boolean };
export type MapRoute = { name: string; shape: [number, number][] };

export type CityMapDrawing = {
	width: number;
	height: number;
	/** Every place's dot; `label` is where its name goes, or null when no free spot is left for it. */
	places: { name: string; x: number; y: number; r: number; main: boolean; label: MapLabel | null }[];
	routes: { name: string; d: string; start: { x: number; y: number } }[];
	/** A round distance and its length on the drawing, for the scale bar. */
	scale: { label: string; px: number };
};

const EARTH_RADIUS_M = 6_371_000;

/** A place name on the drawing: its text anchor point, alignment, size and the box it covers. */
export type MapLabel = {
	x: number;
	y: number;
	anchor: 'start' | 'end';
	fontSize: number;
	box: Box;
};
export type Box = { left: number; top: number; right: number; bottom: number };

const MAIN_FONT_SIZE = 16;
const PLACE_FONT_SIZE = 12;
/** Width of an average sans-serif character per unit of font size, a little generous. */
const CHARACTER_WIDTH = 0.62;
const LABEL_GAP = 4;

export function boxesOverlap(a: Box, b: Box): boolean {
	return a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
}

/**
 * Names placed without collisions: the city first, then bigger places before smaller ones, each to
 * the right of its dot, else to the left, else left out (its dot stays). A label also keeps off
 * the other dots and inside the drawing.
 */
function placeLabels(
	places: { name: string; x: number; y: number; r: number; main: boolean; population: number }[],
	width: number,
	height: number,
): (MapLabel | null)[] {
	const dots: Box[] = places.map((p) => ({
		left: p.x - p.r,
		top: p.y - p.r,
		right: p.x + p.r,
		bottom: p.y + p.r,
	}));
	const taken: Box[] = [];
	const labels: (MapLabel | null)[] = places.map(() => null);
	const order = places
		.map((place, index) => ({ place, index }))
		.sort((a, b) => Number(b.place.main) - Number(a.place.main) || b.place.population - a.place.population);
	for (const { place, index } of order) {
		const fontSize = place.main ? MAIN_FONT_SIZE : PLACE_FONT_SIZE;
		const textWidth = place.name.length * fontSize * CHARACTER_WIDTH;
		const preferLeft = place.x > width * 0.7;
		const sides: ('start' | 'end')[] = preferLeft ? ['end', 'start'] : ['start', 'end'];
		for (const anchor of sides) {
			const x = anchor === 'start' ? place.x + place.r + LABEL_GAP : place.x - place.r - LABEL_GAP;
			const left = anchor === 'start' ? x : x - textWidth;
			const box = {
				left,
				top: place.y - fontSize * 0.75,
				right: left + textWidth,
				bottom: place.y + fontSize * 0.35,
			};
			const fits = box.left >= 0 && box.right <= width && box.top >= 0 && box.bottom <= height;
			const clear =
				taken.every((other) => !boxesOverlap(box, other)) &&
				dots.every((dot, other) => other === index || !boxesOverlap(box, dot));
			if ((fits && clear) || place.main) {
				labels[index] = { x: round1(x), y: round1(place.y + 4), anchor, fontSize, box };
				taken.push(box);
				break;
			}
		}
	}
	return labels;
}

export function drawCityMap(input: {
	center: { lat: number; lng: number };
	radiusM: number;
	places: MapPlace[];
	routes: MapRoute[];
	width?: number;
	height?: number;
}): CityMapDrawing {
	const width = input.width ?? 640;
	const height = input.height ?? 400;
	const { lat: lat0, lng: lng0 } = input.center;
	const cosLat = Math.cos((lat0 * Math.PI) / 180);
	const pxPerM = Math.min(width, height) / 2 / input.radiusM;
	const project = (lat: number, lng: number) => {
		const east = ((lng - lng0) * Math.PI * EARTH_RADIUS_M * cosLat) / 180;
		const north = ((lat - lat0) * Math.PI * EARTH_RADIUS_M) / 180;
		return { x: round1(width / 2 + east * pxPerM), y: round1(height / 2 - north * pxPerM) };
	};
	const inside = (p: { x: number; y: number }, margin = 0) =>
		p.x >= margin && p.x <= width - margin && p.y >= margin && p.y <= height - margin;

	const dots = input.places
		.map((place) => ({ place, at: project(place.lat, place.lng) }))
		.filter(({ place, at }) => place.main || inside(at, 8))
		.map(({ place, at }) => ({
			name: place.name,
			x: at.x,
			y: at.y,
			r: place.main ? 7 : Math.max(3, Math.min(6, Math.log10(Math.max(place.population, 10)) - 1)),
			main: Boolean(place.main),
			population: place.population,
		}));
	const labels = placeLabels(dots, width, height);
	const places = dots.map(({ population: _population, ...dot }, index) => ({ ...dot, label: labels[index] }));

	const routes = input.routes
		.filter((route) => route.shape.length >= 2)
		.map((route) => {
			const points = route.shape.map(([lat, lng]) => project(lat, lng));
			return {
				name: route.name,
				d: `M${points.map((p) => `${p.x} ${p.y}`).join('L')}`,
				start: points[0],
			};
		});

	// The longest round distance that fits in a quarter of the width.
	const maxM = width / 4 / pxPerM;
	const steps = [100, 200, 500, 1000, 2000, 5000, 10_000, 20_000, 50_000, 100_000];
	const scaleM = steps.filter((m) => m <= maxM).pop() ?? steps[0];
	return {
		width,
		height,
		places,
		routes,
		scale: {
			label: scaleM >= 1000 ? `${scaleM / 1000} km` : `${scaleM} m`,
			px: round1(scaleM * pxPerM),
		},
	};
}

function round1(value: number): number {
	return Math.round(value * 10) / 10;
}

/**
 * How far the map reaches: far enough for every route to show in full (plus a margin), never
 * further than the city's search radius and never closer than 2 km.
 */
export function fitRadiusM(center: { lat: number; lng: number }, routes: MapRoute[], maxM: number): number {
	const cosLat = Math.cos((center.lat * Math.PI) / 180);
	let furthest = 0;
	for (const route of routes) {
		for (const [lat, lng] of route.shape) {
			const east = ((lng - center.lng) * Math.PI * EARTH_RADIUS_M * cosLat) / 180;
			const north = ((lat - center.lat) * Math.PI * EARTH_RADIUS_M) / 180;
			furthest = Math.max(furthest, Math.abs(east) * 0.625, Math.abs(north));
		}
	}
	if (furthest === 0) return maxM;
	return Math.min(maxM, Math.max(2000, furthest * 1.15));
}
