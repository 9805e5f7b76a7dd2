import { measureBreakdown } from './breakdown.ts';
import {
	type CitySearchItem,
	type GeocodeResponse,
	type HeightRequest,
	type HeightResponse,
	type LocateRequest,
	type LocateResponse,
	MAX_HEIGHT_POINTS,
	type Maneuver,
	type RouteRequest,
	type RouteResponse,
	type Summary,
} from './contract.ts';
import { type ElevationSource, resampleLine } from './elevation.ts';
import { measureDistance } from './geo.ts';
import { getCountryName, type Place, type SearchHome, searchPlaces } from './geocode.ts';
import { getSegmentTime } from './graph.ts';
import { decodePolyline, encodePolyline } from './polyline.ts';
import {
	containsPoint,
	findLegPath,
	getPieceShape,
	HIGHWAY_AVOID_FACTOR,
	type Piece,
	type Region,
	snapInRegion,
} from './region.ts';
import { getRoadClassName, isRoundaboutClass, MODES, type Mode } from './tags.ts';
import { describeTurn, findHeading, phraseTurn, type Turn } from './turns.ts';

/** An error with Valhalla's error code; the API answers it as { error_code, error, status_code: 400 }. */
export class RoutingError extends Error {
	readonly code: number;
	readonly status: number;

	constructor(code: number, message: string, status = 400) {
		super(message);
		this.code = code;
		this.status = status;
	}
}

const KM_PER_MILE = 1.609344;

export interface EngineOptions {
	regions: Region[];
	elevation?: ElevationSource | null;
	/** Farthest a location may be from a usable road, in metres. */
	maxSnapDistance?: number;
}

/** Routes, snaps, measures heights and finds places over the loaded regions. */
export class RoutingEngine {
	readonly regions: Region[];
	readonly elevation: ElevationSource | null;
	private readonly maxSnapDistance: number;

	constructor(options: EngineOptions) {
		this.regions = options.regions;
		this.elevation = options.elevation ?? null;
		this.maxSnapDistance = options.maxSnapDistance ?? 1000;
	}

	/** The region holding every point, or a RoutingError naming the first point outside all regions. */
	findRegion(points: { lat: number; lon: number }[]): Region {
		const candidates = this.regions.filter((region) =>
			points.every((point) => containsPoint(region, point.lat, point.lon)),
		);
		if (candidates.length > 0) return candidates[0];
		const outside = points.findIndex(
			(point) => !this.regions.some((r) => containsPoint(r, point.lat, point.lon)),
		);
		if (outside >= 0) {
			throw new RoutingError(
				171,
				`No suitable edges near location ${outside}: it is outside every loaded map region (${this.regions.map((r) => r.name).join(', ') || 'none loaded'})`,
			);
		}
		throw new RoutingError(170, 'Locations are in different map regions; no route connects them');
	}

	route(request: RouteRequest): RouteResponse {
		const mode = request.costing as Mode;
		const modeIndex = MODES.indexOf(mode);
		const units =
			request.directions_options?.units === 'miles' || request.directions_options?.units === 'mi'
				? 'miles'
				: 'kilometers';
		const options = request.costing_options?.[mode];
		const avoidHighways =
			request.avoid_highways === true ||
			options?.exclude_highways === true ||
			(options?.use_highways !== undefined && options.use_highways < 0.5);
		const region = this.findRegion(request.locations);
		const snaps = request.locations.map((location, index) => {
			const snap = snapInRegion(region, location.lat, location.lon, modeIndex, this.maxSnapDistance);
			if (!snap) {
				throw new RoutingError(
					171,
					`No suitable edges near location ${index}: no road usable by ${mode} within ${this.maxSnapDistance} m`,
				);
			}
			return snap;
		});
		const legs: RouteResponse['trip']['legs'] = [];
		const legPieces: Piece[][] = [];
		// How the previous leg ended: the next one goes on from a stop instead of starting afresh.
		let through: LegEnd | null = null;
		for (let i = 0; i < snaps.length - 1; i++) {
			const path = findLegPath(
				region,
				modeIndex,
				snaps[i],
				snaps[i + 1],
				avoidHighways ? HIGHWAY_AVOID_FACTOR : 1,
			);
			if (!path) {
				throw new RoutingError(
					442,
					`No path could be found for input: locations ${i} and ${i + 1} are not connected for ${mode}`,
				);
			}
			legPieces.push(path.pieces);
			const leg = describeLeg(region, modeIndex, path.pieces, units, i === snaps.length - 2, through);
			through = leg.end;
			legs.push(leg.leg);
		}
		const summary: Summary = {
			length: round3(legs.reduce((sum, leg) => sum + leg.summary.length, 0)),
			time: round3(legs.reduce((sum, leg) => sum + leg.summary.time, 0)),
			min_lat: Math.min(...legs.map((leg) => leg.summary.min_lat)),
			min_lon: Math.min(...legs.map((leg) => leg.summary.min_lon)),
			max_lat: Math.max(...legs.map((leg) => leg.summary.max_lat)),
			max_lon: Math.max(...legs.map((leg) => leg.summary.max_lon)),
		};
		const response: RouteResponse = {
			trip: {
				locations: request.locations.map((location, index) => ({
					lat: location.lat,
					lon: location.lon,
					type: 'break',
					original_index: index,
					correlated_lat: round6(snaps[index].lat),
					correlated_lon: round6(snaps[index].lon),
					snap_distance: round3(snaps[index].distance),
				})),
				legs,
				summary,
				units,
				status: 0,
				status_message: 'Found route between points',
				language: 'en-US',
				breakdown: measureBreakdown(region, legPieces),
			},
		};
		if (request.id !== undefined) response.id = request.id;
		return response;
	}

	locate(request: LocateRequest): LocateResponse {
		const modeIndex = MODES.indexOf(request.costing as Mode);
		return request.locations.map((location) => {
			const region = this.regions.find((r) => containsPoint(r, location.lat, location.lon));
			const snap = region
				? snapInRegion(region, location.lat, location.lon, modeIndex, this.maxSnapDistance)
				: null;
			if (!region || !snap)
				return { input_lat: location.lat, input_lon: location.lon, edges: null, nodes: null };
			const graph = region.graph;
			const length = graph.segLength[snap.segment];
			const name = graph.segName[snap.segment];
			return {
				input_lat: location.lat,
				input_lon: location.lon,
				edges: [
					{
						correlated_lat: round6(snap.lat),
						correlated_lon: round6(snap.lon),
						distance: round3(snap.distance),
						percent_along: length > 0 ? round3(snap.offset / length) : 0,
						side_of_street: 'neither',
						way_name: name >= 0 ? graph.names[name] : null,
						road_class: getRoadClassName(graph.segClass[snap.segment]),
					},
				],
				nodes: [],
			};
		});
	}

	height(request: HeightRequest): HeightResponse {
		let points: [number, number][];
		if (request.encoded_polyline !== undefined) {
			try {
				points = decodePolyline(request.encoded_polyline, request.shape_format === 'polyline5' ? 5 : 6);
			} catch (error) {
				throw new RoutingError(313, `Failed to parse encoded_polyline: ${(error as Error).message}`);
			}
			if (points.some(([lat, lon]) => Math.abs(lat) > 90 || Math.abs(lon) > 180)) {
				throw new RoutingError(
					313,
					'encoded_polyline decodes to coordinates out of range (is it precision 6?)',
				);
			}
		} else points = (request.shape ?? []).map((p) => [p.lat, p.lon]);
		if (points.length === 0) throw new RoutingError(310, 'No shape provided');
		if (request.resample_distance !== undefined) {
			// Check the count before resampling, so a tiny spacing on a long line cannot allocate millions of points.
			let length = 0;
			for (let i = 1; i < points.length; i++) {
				length += measureDistance(points[i - 1][0], points[i - 1][1], points[i][0], points[i][1]);
			}
			if (length / request.resample_distance > MAX_HEIGHT_POINTS) {
				throw new RoutingError(
					314,
					`Too many shape points: resampling ${Math.round(length)} m every ${request.resample_distance} m exceeds ${MAX_HEIGHT_POINTS}`,
				);
			}
			points = resampleLine(points, request.resample_distance);
		}
		if (points.length > MAX_HEIGHT_POINTS)
			throw new RoutingError(314, `Too many shape points (at most ${MAX_HEIGHT_POINTS})`);
		const heights = points.map(([lat, lon]) => this.elevation?.getHeight(lat, lon) ?? null);
		const response: HeightResponse = {};
		if (request.encoded_polyline !== undefined) response.encoded_polyline = request.encoded_polyline;
		// Resampled points differ from the input, so they are always returned.
		if (request.encoded_polyline === undefined || request.resample_distance !== undefined) {
			response.shape = points.map(([lat, lon]) => ({ lat: round6(lat), lon: round6(lon) }));
		}
		if (request.range) {
			let distance = 0;
			response.range_height = points.map(([lat, lon], i) => {
				if (i > 0) distance += measureDistance(points[i - 1][0], points[i - 1][1], lat, lon);
				return [Math.round(distance), heights[i]];
			});
		} else response.height = heights;
		if (request.id !== undefined) response.id = request.id;
		return response;
	}

	private getFeatures(): Place[] {
		return this.regions.flatMap((region) => region.features);
	}

	searchGeocode(query: string, limit: number): GeocodeResponse {
		const hits = searchPlaces(query, this.getFeatures(), limit);
		return {
			type: 'FeatureCollection',
			licence: 'Cities: GeoNames (CC BY 4.0). Features: © OpenStreetMap contributors, ODbL 1.0.',
			features: hits.map(({ place }) => ({
				type: 'Feature',
				geometry: { type: 'Point', coordinates: [round6(place.lon), round6(place.lat)] },
				properties: {
					name: place.name,
					display_name: formatLabel(place),
					type: place.type,
					category:
						place.type === 'city' || place.type === 'country' || place.type === 'state'
							? 'place'
							: place.type === 'street'
								? 'highway'
								: 'feature',
					...(place.population > 0 ? { population: place.population } : {}),
					...(place.country ? { country_code: place.country.toLowerCase() } : {}),
				},
			})),
		};
	}

	searchCities(term: string, limit = 10, home: SearchHome | null = null): CitySearchItem[] {
		if (term.trim().length < 3) return [];
		return searchPlaces(term, [], limit, true, home).map(({ place }) => ({
			value: `${round6(place.lat)},${round6(place.lon)}`,
			label: formatLabel(place),
			locality: place.name,
			isCity: place.type === 'city',
			isCountry: place.type === 'country',
			isRegion: false,
			isState: place.type === 'state',
		}));
	}
}

function formatLabel(place: Place): string {
	if (place.type === 'country') return place.name;
	if (place.type === 'state') return `${place.name}, ${place.country}`;
	if (place.type === 'city') {
		return place.country === 'US' && /^[A-Z]{2}$/.test(place.admin)
			? `${place.name}, ${place.admin}, US`
			: `${place.name}, ${getCountryName(place.country)}`;
	}
	return `${place.name}, ${place.context}`;
}

function round3(value: number): number {
	return Math.round(value * 1000) / 1000;
}

function round6(value: number): number {
	return Math.round(value * 1e6) / 1e6;
}

const VERBS: Record<Mode, string> = { pedestrian: 'Walk', bicycle: 'Bike', auto: 'Drive' };
const TRAVEL_MODES: Record<Mode, string> = { pedestrian: 'pedestrian', bicycle: 'bicycle', auto: 'drive' };
const COMPASS = ['north', 'northeast', 'east', 'southeast', 'south', 'southwest', 'west', 'northwest'];

/**
 * How a way without a name or ref is told: a member looking for "the footway" finds it, while an
 * unnamed road gets the turn alone.
 */
const WAY_KINDS: Record<string, string> = {
	footway: 'the footway',
	cycleway: 'the cycleway',
	track: 'the track',
	steps: 'the steps',
	path: 'the path',
	bridleway: 'the bridleway',
	pedestrian: 'the pedestrian street',
	service: 'the service road',
	living_street: 'the living street',
	corridor: 'the corridor',
	platform: 'the platform',
};

/** Where a leg ended, for the leg that goes on from that stop. */
interface LegEnd {
	heading: number | null;
	way: string | null;
}

interface PieceInfo {
	shape: [number, number][];
	length: number;
	time: number;
	/** The way's name, else its ref ("PA 230"). */
	name: string | null;
	/** What instructions call the way: its name or ref, else its kind ("the footway"). */
	way: string | null;
	segment: number;
	roundabout: boolean;
	/** The junction the piece ends on, or -1 when it ends inside its segment. */
	endNode: number;
}

const ORDINALS = ['1st', '2nd', '3rd', '4th', '5th', '6th', '7th', '8th', '9th', '10th'];

function formatOrdinal(n: number): string {
	return ORDINALS[n - 1] ?? `${n}th`;
}

/** Ways leaving a roundabout at junction j that the mode may take (the ring itself excluded). */
function countExits(region: Region, modeIndex: number, j: number): number {
	const graph = region.graph;
	let exits = 0;
	for (let i = graph.adjStart[j]; i < graph.adjStart[j + 1]; i++) {
		const s = graph.adjSeg[i];
		if (isRoundaboutClass(graph.segClass[s])) continue;
		const direction = graph.segFrom[s] === j ? 0 : 1;
		if (getSegmentTime(graph, modeIndex, s, direction) > 0) exits++;
	}
	return exits;
}

/** Shape, summary and plain-English maneuvers of one leg. */
function describeLeg(
	region: Region,
	modeIndex: number,
	pieces: Piece[],
	units: 'kilometers' | 'miles',
	last: boolean,
	through: LegEnd | null,
): { leg: RouteResponse['trip']['legs'][number]; end: LegEnd } {
	const graph = region.graph;
	const mode = MODES[modeIndex];
	const scale = units === 'miles' ? 1 / (1000 * KM_PER_MILE) : 1 / 1000;
	const infos: PieceInfo[] = pieces.map((piece) => {
		const length = Math.abs(piece.to - piece.from);
		const full = graph.segLength[piece.segment];
		const time = getSegmentTime(graph, modeIndex, piece.segment, piece.direction);
		const nameIndex = graph.segName[piece.segment];
		const name = nameIndex >= 0 ? graph.names[nameIndex] : null;
		return {
			shape: getPieceShape(graph, piece),
			length,
			time: full > 0 ? (time * length) / full / 1000 : 0,
			name,
			way: name ?? WAY_KINDS[getRoadClassName(graph.segClass[piece.segment])] ?? null,
			segment: piece.segment,
			roundabout: isRoundaboutClass(graph.segClass[piece.segment]),
			endNode:
				piece.direction === 0
					? piece.to >= graph.segLength[piece.segment] - 0.01
						? graph.segTo[piece.segment]
						: -1
					: piece.to <= 0.01
						? graph.segFrom[piece.segment]
						: -1,
		};
	});
	const shape: [number, number][] = [];
	const pieceStart: number[] = [];
	for (const info of infos) {
		const points = info.shape;
		let from = 0;
		if (shape.length > 0) {
			const tail = shape[shape.length - 1];
			if (Math.abs(tail[0] - points[0][0]) < 1e-7 && Math.abs(tail[1] - points[0][1]) < 1e-7) from = 1;
		}
		pieceStart.push(Math.max(0, shape.length - 1 + from));
		for (let i = from; i < points.length; i++) shape.push(points[i]);
	}
	if (shape.length === 1) shape.push(shape[0]);
	const maneuvers: Maneuver[] = [];
	let current: Maneuver | null = null;
	let currentWay: string | null = through?.way ?? null;
	let previousHeading: number | null = through?.heading ?? null;
	// A roundabout is told as one "enter and take the nth exit" maneuver, then "exit onto".
	let roundabout: Maneuver | null = null;
	let exitsPassed = 0;
	for (let i = 0; i < infos.length; i++) {
		const info = infos[i];
		if (info.length < 0.01 && current) continue;
		if (current && (info.roundabout || roundabout)) {
			const entering: boolean = info.roundabout && !roundabout;
			const leaving: boolean = !info.roundabout && roundabout !== null;
			if (entering || leaving) {
				current.end_shape_index = pieceStart[i];
				if (leaving && roundabout) {
					roundabout.instruction = `Enter the roundabout and take the ${formatOrdinal(exitsPassed + 1)} exit${info.way ? ` onto ${info.way}` : ''}.`;
				}
				current = {
					type: entering ? 26 : 27,
					instruction: entering
						? 'Enter the roundabout.'
						: `Exit the roundabout${info.way ? ` onto ${info.way}` : ''}.`,
					length: 0,
					time: 0,
					begin_shape_index: pieceStart[i],
					end_shape_index: pieceStart[i],
					...(info.name ? { street_names: [info.name] } : {}),
					travel_mode: TRAVEL_MODES[mode],
				};
				maneuvers.push(current);
				currentWay = info.way;
				roundabout = entering ? current : null;
				exitsPassed = 0;
			}
			if (info.roundabout && infos[i + 1]?.roundabout && info.endNode >= 0) {
				exitsPassed += countExits(region, modeIndex, info.endNode);
			}
			current.length += info.length * scale;
			current.time += info.time;
			const end = findHeading(info.shape, true);
			if (end !== null) previousHeading = end;
			continue;
		}
		const heading = findHeading(info.shape, false);
		let startNew = !current;
		let turn: Turn | null = null;
		// A leg going on from a stop turns relative to how the previous leg arrived there.
		const turnsFrom = current || through;
		if (turnsFrom && heading !== null && previousHeading !== null) {
			const delta = ((heading - previousHeading + 540) % 360) - 180;
			turn = describeTurn(delta);
			startNew ||= info.way !== currentWay || Math.abs(delta) >= 60;
		} else if (current && info.way !== currentWay) startNew = true;
		if (startNew) {
			const streetNames = info.name ? [info.name] : [];
			let instruction: string;
			let type: number;
			if (current) current.end_shape_index = pieceStart[i];
			if (!turn) {
				type = current ? 8 : 1;
				const direction = heading === null ? '' : ` ${COMPASS[Math.round(heading / 45) % 8]}`;
				instruction = current
					? `Continue${info.way ? ` onto ${info.way}` : ''}.`
					: `${VERBS[mode]}${direction}${info.way ? ` on ${info.way}` : ''}.`;
			} else {
				type = turn.type;
				instruction = phraseTurn(turn, info.way, currentWay);
			}
			current = {
				type,
				instruction,
				length: 0,
				time: 0,
				begin_shape_index: pieceStart[i],
				end_shape_index: pieceStart[i],
				...(streetNames.length > 0 ? { street_names: streetNames } : {}),
				travel_mode: TRAVEL_MODES[mode],
			};
			maneuvers.push(current);
			currentWay = info.way;
		}
		if (current) {
			current.length += info.length * scale;
			current.time += info.time;
		}
		const end = findHeading(info.shape, true);
		if (end !== null) previousHeading = end;
	}
	const lastIndex = shape.length - 1;
	if (current) current.end_shape_index = lastIndex;
	for (const maneuver of maneuvers) {
		maneuver.length = round3(maneuver.length);
		maneuver.time = round3(maneuver.time);
	}
	// Only the end of the trip arrives; a stop on the way is passed through.
	if (last) {
		maneuvers.push({
			type: 4,
			instruction: 'You have arrived at your destination.',
			length: 0,
			time: 0,
			begin_shape_index: lastIndex,
			end_shape_index: lastIndex,
			travel_mode: TRAVEL_MODES[mode],
		});
	}
	let minLat = 90;
	let minLon = 180;
	let maxLat = -90;
	let maxLon = -180;
	for (const [lat, lon] of shape) {
		minLat = Math.min(minLat, lat);
		minLon = Math.min(minLon, lon);
		maxLat = Math.max(maxLat, lat);
		maxLon = Math.max(maxLon, lon);
	}
	const totalLength = infos.reduce((sum, info) => sum + info.length, 0);
	const totalTime = infos.reduce((sum, info) => sum + info.time, 0);
	return {
		leg: {
			shape: encodePolyline(shape, 6),
			maneuvers,
			summary: {
				length: round3(totalLength * scale),
				time: round3(totalTime),
				min_lat: round6(minLat),
				min_lon: round6(minLon),
				max_lat: round6(maxLat),
				max_lon: round6(maxLon),
			},
		},
		end: { heading: previousHeading, way: currentWay },
	};
}
