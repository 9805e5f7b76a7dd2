import type { LegacyFeature } from 'geojson-vt';
import sharp from 'sharp';
import type { MapFeatureProperties } from '../contract.ts';
import {
	AREA_STYLES,
	BOUNDARY_STYLES,
	BUILDING_EDGE_MIN_ZOOM,
	BUILDING_MIN_ZOOM,
	CASING_MIN_ZOOM,
	casingWidth,
	LABEL_HALO_WIDTH,
	PLACE_LABELS,
	RAILWAY_BASE,
	RAILWAY_DASH_MIN_ZOOM,
	RAILWAY_MIN_ZOOM,
	ROAD_LABEL,
	ROAD_STYLES,
	roadWidth,
	type RoadStyle as SharedRoadStyle,
	WATERWAY_LABEL,
	WATERWAY_STYLES,
} from '../map-style.ts';
import { MAP_PALETTE as C } from './palette.ts';

// A raster tile is an SVG drawn from the same clipped, simplified vector tile, rasterised by sharp
// (librsvg). Coordinates stay in the vector tile's 4096-unit space; the SVG scales them to pixels.

export const EXTENT = 4096;
/** Tile units per output pixel of a 256-pixel tile. */
const U = EXTENT / 256;
/** Bump when the drawing changes, so tiles cached on disk are drawn again. */
export const STYLE_VERSION = 4;

// Fonts every Debian machine with fontconfig has (fonts-dejavu-core is one of its dependencies).
const FONT = 'DejaVu Sans, Liberation Sans, sans-serif';

type Rect = { x: number; y: number; width: number; height: number };

type RoadStyle = Omit<SharedRoadStyle, 'fill' | 'casing' | 'dash'> & {
	fill: string;
	casing: string | null;
	dash?: string;
};

/** Drawn in this order: lesser roads first so major roads cross over them. */
const ROADS: [string, RoadStyle][] = ROAD_STYLES.map((style) => [
	style.kind,
	{
		...style,
		fill: C[style.fill],
		casing: style.casing ? C[style.casing] : null,
		dash: style.dash?.join(' '),
	},
]);

const AREAS: [string, string, number][] = AREA_STYLES.map((area) => [area.kind, C[area.fill], area.minZoom]);

const PLACES = new Map(PLACE_LABELS.map((style) => [style.kind, style]));

function escapeXml(text: string): string {
	return text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function pathData(feature: LegacyFeature): string {
	if (feature.type === 1) return '';
	let d = '';
	for (const ring of feature.geometry) {
		if (ring.length < 2) continue;
		d += `M${ring[0][0]} ${ring[0][1]}`;
		for (let i = 1; i < ring.length; i++) d += `L${ring[i][0]} ${ring[i][1]}`;
		if (feature.type === 3) d += 'Z';
	}
	return d;
}

function props(feature: LegacyFeature): MapFeatureProperties {
	return feature.tags as MapFeatureProperties;
}

/** Axis-aligned boxes of the names placed so far, so names never overlap. */
class LabelSpace {
	private readonly taken: Rect[] = [];
	fits(rect: Rect): boolean {
		const margin = 4 * U;
		if (
			rect.x < margin ||
			rect.y < margin ||
			rect.x + rect.width > EXTENT - margin ||
			rect.y + rect.height > EXTENT - margin
		) {
			return false;
		}
		return !this.taken.some(
			(other) =>
				rect.x < other.x + other.width &&
				other.x < rect.x + rect.width &&
				rect.y < other.y + other.height &&
				other.y < rect.y + rect.height,
		);
	}
	take(rect: Rect): void {
		this.taken.push(rect);
	}
}

/** DejaVu Sans's advance, rounded up: a name judged to fit is never cut at the tile's edge. */
function textWidth(text: string, sizePx: number, bold: boolean): number {
	return text.length * sizePx * (bold ? 0.74 : 0.68) * U;
}

/**
 * The longest nearly straight run of a line inside the tile: names sit on a straight stretch,
 * rotated to follow it, because librsvg does not draw text along a path.
 */
function longestStraightRun(
	points: [number, number][],
): { from: [number, number]; to: [number, number]; length: number } | null {
	let best: { from: [number, number]; to: [number, number]; length: number } | null = null;
	let start = 0;
	const inside = (p: [number, number]) => p[0] >= 0 && p[0] <= EXTENT && p[1] >= 0 && p[1] <= EXTENT;
	for (let i = 1; i <= points.length; i++) {
		let breaks = i === points.length || !inside(points[i]) || !inside(points[start]);
		if (!breaks && i - start >= 2) {
			const a = points[start];
			const b = points[i - 1];
			const c = points[i];
			const heading = Math.atan2(b[1] - a[1], b[0] - a[0]);
			const next = Math.atan2(c[1] - b[1], c[0] - b[0]);
			let turn = Math.abs(next - heading);
			if (turn > Math.PI) turn = 2 * Math.PI - turn;
			breaks = turn > 0.2;
		}
		if (breaks) {
			const from = points[start];
			const to = points[i - 1];
			const length = Math.hypot(to[0] - from[0], to[1] - from[1]);
			if (i - 1 > start && inside(from) && inside(to) && (!best || length > best.length))
				best = { from, to, length };
			start = i - 1 >= start + 1 ? i - 1 : i;
			if (i < points.length && !inside(points[i])) start = i;
		}
	}
	return best;
}

function lineLabel(
	feature: LegacyFeature,
	sizePx: number,
	colour: string,
	italic: boolean,
	space: LabelSpace,
): string {
	const name = props(feature).name;
	if (!name || feature.type !== 2) return '';
	const width = textWidth(name, sizePx, false);
	for (const line of feature.geometry) {
		const run = longestStraightRun(line);
		if (!run || run.length < width + 8 * U) continue;
		let angle = (Math.atan2(run.to[1] - run.from[1], run.to[0] - run.from[0]) * 180) / Math.PI;
		if (angle > 90) angle -= 180;
		if (angle < -90) angle += 180;
		const cx = (run.from[0] + run.to[0]) / 2;
		const cy = (run.from[1] + run.to[1]) / 2;
		const radians = (angle * Math.PI) / 180;
		const half = width / 2;
		const dx = Math.abs(Math.cos(radians)) * half + Math.abs(Math.sin(radians)) * sizePx * U * 0.6;
		const dy = Math.abs(Math.sin(radians)) * half + Math.abs(Math.cos(radians)) * sizePx * U * 0.6;
		const rect = { x: cx - dx, y: cy - dy, width: 2 * dx, height: 2 * dy };
		if (!space.fits(rect)) continue;
		space.take(rect);
		return (
			`<text transform="translate(${cx.toFixed(0)} ${cy.toFixed(0)}) rotate(${angle.toFixed(1)})" y="${(sizePx * U * 0.36).toFixed(0)}"` +
			` font-size="${sizePx * U}" fill="${colour}"${italic ? ' font-style="italic"' : ''}>${escapeXml(name)}</text>`
		);
	}
	return '';
}

function placeLabel(feature: LegacyFeature, z: number, space: LabelSpace): string {
	const { name, kind } = props(feature);
	const style = PLACES.get(kind);
	if (!name || !style || feature.type !== 1 || z < style.from || z > style.to) return '';
	const [x, y] = feature.geometry[0];
	const size = style.size * U;
	const width = textWidth(name, style.size, style.bold);
	const rect = { x: x - width / 2, y: y - size * 0.8, width, height: size * 1.2 };
	if (!space.fits(rect)) return '';
	space.take(rect);
	return (
		`<text x="${x}" y="${y}" font-size="${size}" text-anchor="middle"${style.bold ? ' font-weight="bold"' : ''}` +
		` fill="${C[style.colour]}">${escapeXml(name)}</text>`
	);
}

/**
 * The SVG of one tile. With the world layer (`ground` is 'world') the sea is the background and its
 * `earth` features are the land; without it, `ground` are the parts of the tile (in tile units) inside
 * a loaded region: land is drawn there, the rest in the lighter no-data colour.
 */
export function drawTileSvg(
	features: LegacyFeature[],
	z: number,
	ground: Rect[] | 'world',
	scale: 1 | 2,
): string {
	const size = 256 * scale;
	const parts: string[] = [
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${EXTENT} ${EXTENT}">`,
	];
	if (ground === 'world') parts.push(`<rect width="${EXTENT}" height="${EXTENT}" fill="${C.water}"/>`);
	else {
		parts.push(`<rect width="${EXTENT}" height="${EXTENT}" fill="${C.no_data}"/>`);
		for (const r of ground)
			parts.push(`<rect x="${r.x}" y="${r.y}" width="${r.width}" height="${r.height}" fill="${C.land}"/>`);
	}
	const byLayer = new Map<string, LegacyFeature[]>();
	for (const feature of features) {
		const layer = props(feature).layer;
		const list = byLayer.get(layer);
		if (list) list.push(feature);
		else byLayer.set(layer, [feature]);
	}
	const layer = (name: string) => byLayer.get(name) ?? [];
	const joined = (list: LegacyFeature[]) => list.map(pathData).join('');

	const earth = joined(layer('earth'));
	if (earth) parts.push(`<path d="${earth}" fill="${C.land}" fill-rule="evenodd"/>`);
	for (const [kind, fill, minZoom] of AREAS) {
		if (z < minZoom) continue;
		const d = joined(layer('landcover').filter((f) => props(f).kind === kind));
		if (d) parts.push(`<path d="${d}" fill="${fill}" fill-rule="evenodd"/>`);
	}
	const water = joined(layer('water'));
	if (water) parts.push(`<path d="${water}" fill="${C.water}" fill-rule="evenodd"/>`);
	const waterways = layer('waterway');
	for (const { kind, minZoom, maxZoom, base } of WATERWAY_STYLES) {
		if (z < minZoom || z > maxZoom) continue;
		const d = joined(waterways.filter((f) => props(f).kind === kind));
		if (d) {
			parts.push(
				`<path d="${d}" fill="none" stroke="${C.water}" stroke-width="${(roadWidth(base, z) * U).toFixed(1)}" stroke-linecap="round" stroke-linejoin="round"/>`,
			);
		}
	}
	const boundaries = layer('boundary');
	for (const { kind, minZoom, width, colour, dash } of BOUNDARY_STYLES) {
		if (z < minZoom) continue;
		const d = joined(boundaries.filter((f) => props(f).kind === kind));
		if (!d) continue;
		const pattern = dash ? ` stroke-dasharray="${dash.map((n) => n * width * U).join(' ')}"` : '';
		parts.push(
			`<path d="${d}" fill="none" stroke="${C[colour]}" stroke-width="${(width * U).toFixed(1)}" stroke-linejoin="round"${pattern}/>`,
		);
	}
	if (z >= BUILDING_MIN_ZOOM) {
		const d = joined(layer('building'));
		if (d) {
			const edge = z >= BUILDING_EDGE_MIN_ZOOM ? ` stroke="${C.building_edge}" stroke-width="${U}"` : '';
			parts.push(`<path d="${d}" fill="${C.building}"${edge}/>`);
		}
	}
	if (z >= RAILWAY_MIN_ZOOM) {
		const d = joined(layer('railway'));
		if (d) {
			const width = Math.max(1, roadWidth(RAILWAY_BASE, z)) * U;
			parts.push(`<path d="${d}" fill="none" stroke="${C.rail}" stroke-width="${width.toFixed(1)}"/>`);
			if (z >= RAILWAY_DASH_MIN_ZOOM) {
				parts.push(
					`<path d="${d}" fill="none" stroke="${C.land}" stroke-width="${(width * 0.45).toFixed(1)}" stroke-dasharray="${6 * U} ${6 * U}"/>`,
				);
			}
		}
	}

	const roads = layer('road');
	const styled = ROADS.filter(([, style]) => z >= style.minZoom).map(([kind, style]) => {
		const list = roads.filter((f) => props(f).kind === kind);
		return { style, d: joined(list), list, width: roadWidth(style.base, z) * U };
	});
	// Casings under every fill, so junctions join cleanly.
	for (const { style, d, width } of styled) {
		if (!d || !style.casing || z < CASING_MIN_ZOOM) continue;
		const casing = casingWidth(width / U) * U;
		parts.push(
			`<path d="${d}" fill="none" stroke="${style.casing}" stroke-width="${casing.toFixed(1)}" stroke-linecap="round" stroke-linejoin="round"/>`,
		);
	}
	for (const { style, d, width } of styled) {
		if (!d) continue;
		const dash = style.dash
			? ` stroke-dasharray="${style.dash
					.split(' ')
					.map((n) => (Number(n) * width).toFixed(0))
					.join(' ')}"`
			: ' stroke-linecap="round"';
		const minimum = style.casing ? width : Math.max(width, 1.2 * U);
		parts.push(
			`<path d="${d}" fill="none" stroke="${style.fill}" stroke-width="${minimum.toFixed(1)}" stroke-linejoin="round"${dash}/>`,
		);
	}

	// Names: places first (they matter most at the zooms they show), then streets by importance.
	const space = new LabelSpace();
	const labels: string[] = [];
	for (const feature of layer('place')) labels.push(placeLabel(feature, z, space));
	const named = new Set<string>();
	for (const { style, list } of [...styled].reverse()) {
		if (z < style.labelZoom) continue;
		const size = z >= ROAD_LABEL.largerFrom ? ROAD_LABEL.largerSize : ROAD_LABEL.size;
		for (const feature of list) {
			const name = props(feature).name;
			if (!name || named.has(name)) continue;
			const label = lineLabel(feature, size, C[ROAD_LABEL.colour], false, space);
			if (label) {
				named.add(name);
				labels.push(label);
			}
		}
	}
	if (z >= WATERWAY_LABEL.minZoom) {
		for (const feature of waterways) {
			const name = props(feature).name;
			if (!name || named.has(name)) continue;
			const label = lineLabel(feature, WATERWAY_LABEL.size, C[WATERWAY_LABEL.colour], true, space);
			if (label) {
				named.add(name);
				labels.push(label);
			}
		}
	}
	const text = labels.filter(Boolean).join('');
	if (text) {
		parts.push(
			`<g font-family="${FONT}" stroke="${C.halo}" stroke-width="${(2 * LABEL_HALO_WIDTH * U).toFixed(0)}" stroke-linejoin="round" paint-order="stroke">${text}</g>`,
		);
	}
	parts.push('</svg>');
	return parts.join('');
}

/** The tile shown where no bundled region reaches: it says so, lightly, instead of staying grey. */
export function drawNoDataSvg(scale: 1 | 2): string {
	const size = 256 * scale;
	return (
		`<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size}" viewBox="0 0 ${EXTENT} ${EXTENT}">` +
		`<rect width="${EXTENT}" height="${EXTENT}" fill="${C.no_data}"/>` +
		`<text x="${EXTENT / 2}" y="${EXTENT / 2}" font-family="${FONT}" font-size="${13 * U}" text-anchor="middle" fill="${C.label_soft}" fill-opacity="0.75">No map data here</text>` +
		'</svg>'
	);
}

export async function rasterise(svg: string): Promise<Buffer> {
	// A palette PNG: a base map has few colours, and it halves the bytes. Without dithering the flat
	// fills stay flat and compress a third smaller again; anti-aliased edges and labels look the same.
	return sharp(Buffer.from(svg))
		.png({ palette: true, quality: 90, dither: 0, effort: 3, compressionLevel: 9 })
		.toBuffer();
}
