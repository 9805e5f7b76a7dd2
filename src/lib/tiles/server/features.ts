import type { Feature, FeatureCollection, Geometry, Position } from 'geojson';
import { createNodeTable, findNodeIndex, type OsmMember, type OsmSink } from '../../routing/osm/model.ts';
import { readOsmInto, readOsmXmlTextInto } from '../../routing/osm/read.ts';
import type { Tags } from '../../routing/tags.ts';
import { MAP_LAYERS, type MapFeatureProperties, type MapLayer } from '../contract.ts';

// What a base map draws from an extract, read in a pass of its own so the routing import keeps only
// what routing needs. Every feature carries its layer, its class and, where it has one, its name.

type AreaStyle = { layer: MapLayer; kind: string };

const PARK_VALUES = new Set([
	'park',
	'garden',
	'playground',
	'nature_reserve',
	'recreation_ground',
	'dog_park',
]);
const GRASS_VALUES = new Set([
	'grass',
	'meadow',
	'village_green',
	'grassland',
	'heath',
	'scrub',
	'orchard',
	'vineyard',
]);
const SPORT_VALUES = new Set(['pitch', 'golf_course', 'stadium', 'track', 'sports_centre']);

/** The area a closed way or multipolygon fills, or null when it is not drawn as an area. */
export function classifyArea(tags: Tags): AreaStyle | null {
	const { natural, landuse, leisure, waterway, building, amenity } = tags;
	if (natural === 'water' || natural === 'bay' || landuse === 'reservoir' || landuse === 'basin') {
		return { layer: 'water', kind: 'water' };
	}
	if (waterway === 'riverbank' || waterway === 'dock') return { layer: 'water', kind: 'water' };
	if (natural === 'glacier') return { layer: 'landcover', kind: 'ice' };
	if (landuse === 'forest' || natural === 'wood') return { layer: 'landcover', kind: 'wood' };
	if (leisure && PARK_VALUES.has(leisure)) return { layer: 'landcover', kind: 'park' };
	if (leisure && SPORT_VALUES.has(leisure)) return { layer: 'landcover', kind: 'pitch' };
	if (landuse === 'cemetery' || amenity === 'grave_yard') return { layer: 'landcover', kind: 'park' };
	if ((landuse && GRASS_VALUES.has(landuse)) || (natural && GRASS_VALUES.has(natural))) {
		return { layer: 'landcover', kind: 'grass' };
	}
	if (natural === 'bare_rock' || natural === 'scree') return { layer: 'landcover', kind: 'rock' };
	if (building && building !== 'no') return { layer: 'building', kind: 'building' };
	return null;
}

const ROAD_KINDS: Record<string, string> = {
	motorway: 'motorway',
	motorway_link: 'motorway',
	trunk: 'motorway',
	trunk_link: 'motorway',
	primary: 'primary',
	primary_link: 'primary',
	secondary: 'secondary',
	secondary_link: 'secondary',
	tertiary: 'tertiary',
	tertiary_link: 'tertiary',
	residential: 'minor',
	unclassified: 'minor',
	living_street: 'minor',
	road: 'minor',
	service: 'service',
	pedestrian: 'path',
	footway: 'path',
	path: 'path',
	cycleway: 'path',
	bridleway: 'path',
	steps: 'path',
	track: 'track',
};

const RAIL_KINDS = new Set(['rail', 'light_rail', 'tram', 'narrow_gauge', 'funicular']);
const WATERWAY_KINDS: Record<string, string> = {
	river: 'river',
	canal: 'river',
	stream: 'stream',
	ditch: 'stream',
	drain: 'stream',
};

/** The line a way draws, or null. */
export function classifyLine(tags: Tags): { layer: MapLayer; kind: string } | null {
	const road = tags.highway ? ROAD_KINDS[tags.highway] : undefined;
	if (road && tags.area !== 'yes') return { layer: 'road', kind: road };
	if (tags.railway && RAIL_KINDS.has(tags.railway) && tags.tunnel !== 'yes')
		return { layer: 'railway', kind: 'rail' };
	const waterway = tags.waterway ? WATERWAY_KINDS[tags.waterway] : undefined;
	if (waterway && tags.tunnel !== 'culvert') return { layer: 'waterway', kind: waterway };
	return null;
}

const PLACE_KINDS = new Set(['city', 'town', 'village', 'suburb', 'quarter', 'neighbourhood', 'hamlet']);

interface PendingWay {
	refs: number[];
	tags: Tags;
}

interface PendingRelation {
	members: OsmMember[];
	tags: Tags;
	style: AreaStyle;
}

export type MapFeature = Feature<Geometry, MapFeatureProperties>;

/** Collects the map's features from an OSM stream; finish() resolves node positions. */
export function createMapFeatureCollector(): OsmSink & {
	finish(): FeatureCollection<Geometry, MapFeatureProperties>;
} {
	const nodes = createNodeTable();
	const places: MapFeature[] = [];
	const drawn: PendingWay[] = [];
	// Untagged ways may be the outlines of a multipolygon that comes later in the file.
	const memberCandidates = new Map<number, number[]>();
	const relations: PendingRelation[] = [];
	return {
		addNode(id, lat, lon, tags) {
			nodes.add(id, lat, lon);
			if (tags?.name && tags.place && PLACE_KINDS.has(tags.place)) {
				places.push({
					type: 'Feature',
					geometry: { type: 'Point', coordinates: [round(lon), round(lat)] },
					properties: { layer: 'place', kind: tags.place, name: tags.name },
				});
			}
		},
		addWay(id, refs, tags) {
			if (refs.length < 2) return;
			if (classifyLine(tags) || (isClosed(refs) && classifyArea(tags))) drawn.push({ refs, tags });
			if (!classifyLine(tags)) memberCandidates.set(id, refs);
		},
		addRelation(_id, members, tags) {
			if (tags.type !== 'multipolygon') return;
			const style = classifyArea(tags);
			if (style) relations.push({ members, tags, style });
		},
		finish() {
			const table = nodes.finish();
			const position = (ref: number): Position | null => {
				const index = findNodeIndex(table, ref);
				return index < 0 ? null : [table.nodeLon[index] / 1e7, table.nodeLat[index] / 1e7];
			};
			const line = (refs: number[]): Position[] => {
				const points: Position[] = [];
				for (const ref of refs) {
					const point = position(ref);
					if (point) points.push(point);
				}
				return points;
			};
			const features: MapFeature[] = [];
			for (const way of drawn) {
				const points = line(way.refs);
				if (points.length < 2) continue;
				const lineStyle = classifyLine(way.tags);
				const style = lineStyle ?? classifyArea(way.tags);
				if (!style) continue;
				const properties = propertiesOf(style, way.tags, Boolean(lineStyle));
				if (lineStyle || !isClosed(way.refs)) {
					features.push({
						type: 'Feature',
						geometry: { type: 'LineString', coordinates: points },
						properties,
					});
				} else if (points.length >= 4 && samePosition(points[0], points[points.length - 1])) {
					features.push({
						type: 'Feature',
						geometry: { type: 'Polygon', coordinates: [points] },
						properties,
					});
				}
			}
			for (const relation of relations) {
				const rings = (role: string) =>
					joinRings(
						relation.members
							.filter((member) => member.type === 'way' && (member.role || 'outer') === role)
							.map((member) => memberCandidates.get(member.ref))
							.filter((refs): refs is number[] => refs !== undefined),
					)
						.map(line)
						.filter((ring) => ring.length >= 4 && samePosition(ring[0], ring[ring.length - 1]));
				const outers = rings('outer');
				if (outers.length === 0) continue;
				const polygons: Position[][][] = outers.map((outer) => [outer]);
				for (const inner of rings('inner')) {
					const host = polygons.find((polygon) => isInside(inner[0], polygon[0]));
					host?.push(inner);
				}
				features.push({
					type: 'Feature',
					geometry:
						polygons.length === 1
							? { type: 'Polygon', coordinates: polygons[0] }
							: { type: 'MultiPolygon', coordinates: polygons },
					properties: propertiesOf(relation.style, relation.tags, false),
				});
			}
			// In the layers' drawing order (areas, then lines, then names), so later features draw over earlier ones.
			features.sort(
				(a, b) => MAP_LAYERS.indexOf(a.properties.layer) - MAP_LAYERS.indexOf(b.properties.layer),
			);
			return { type: 'FeatureCollection', features: [...features, ...places] };
		},
	};
}

function propertiesOf(
	style: { layer: MapLayer; kind: string },
	tags: Tags,
	isLine: boolean,
): MapFeatureProperties {
	const properties: MapFeatureProperties = { layer: style.layer, kind: style.kind };
	if (isLine && tags.name && (style.layer === 'road' || style.layer === 'waterway'))
		properties.name = tags.name;
	if (style.layer === 'road' && (tags.bridge === 'yes' || tags.tunnel === 'yes')) {
		properties.structure = tags.bridge === 'yes' ? 'bridge' : 'tunnel';
	}
	return properties;
}

function isClosed(refs: number[]): boolean {
	return refs.length >= 4 && refs[0] === refs[refs.length - 1];
}

function samePosition(a: Position, b: Position): boolean {
	return a[0] === b[0] && a[1] === b[1];
}

function round(value: number): number {
	return Math.round(value * 1e7) / 1e7;
}

/** Joins way pieces end to end into closed rings; pieces that never close (cut by the extract's edge) are dropped. */
export function joinRings(pieces: number[][]): number[][] {
	const open = pieces.filter((refs) => refs.length >= 2).map((refs) => [...refs]);
	const rings: number[][] = [];
	while (open.length > 0) {
		let ring = open.pop() as number[];
		let extended = true;
		while (ring[0] !== ring[ring.length - 1] && extended) {
			extended = false;
			const end = ring[ring.length - 1];
			const next = open.findIndex((refs) => refs[0] === end || refs[refs.length - 1] === end);
			if (next < 0) break;
			const [piece] = open.splice(next, 1);
			if (piece[0] !== end) piece.reverse();
			ring = ring.concat(piece.slice(1));
			extended = true;
		}
		if (ring.length >= 4 && ring[0] === ring[ring.length - 1]) rings.push(ring);
	}
	return rings;
}

/** Even-odd ray test of a point in a ring. */
function isInside(point: Position, ring: Position[]): boolean {
	let inside = false;
	for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
		const [xi, yi] = ring[i];
		const [xj, yj] = ring[j];
		if (yi > point[1] !== yj > point[1] && point[0] < ((xj - xi) * (point[1] - yi)) / (yj - yi) + xi)
			inside = !inside;
	}
	return inside;
}

/** Reads the map's features from an .osm.pbf, .osm or .osm.gz extract. */
export async function readMapFeatures(
	path: string,
): Promise<FeatureCollection<Geometry, MapFeatureProperties>> {
	const collector = createMapFeatureCollector();
	await readOsmInto(path, collector);
	return collector.finish();
}

/** Reads the map's features from OSM XML text (tests write small extracts by hand). */
export async function readMapFeaturesFromXml(
	xml: string,
): Promise<FeatureCollection<Geometry, MapFeatureProperties>> {
	const collector = createMapFeatureCollector();
	await readOsmXmlTextInto(xml, collector);
	return collector.finish();
}
