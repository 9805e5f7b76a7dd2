// Route files: a route written out as GPX or as a FIT course for devices, and a GPX, TCX or FIT
// file read in as a new route.

import { AppError } from '../../core/errors';
import { attachmentDisposition } from '../../core/server/downloads';
import { truncateText } from '../../core/text';
import {
	ActivityTypeId,
	computeWorkoutElevationChange,
	isWorkoutFileError,
	type NormalisedWorkout,
	simplifyOffroadSegment,
	writeFitCourse,
	writeGpx,
} from '../../workout-files';
import { simplifyDouglasPeucker } from '../../workout-files/route-tools';
import { sharedParsePool, uploadRefusal } from '../../workout-files/server/parse-pool';
import { CUSTOM_NOTE_ICON_ID, MAX_ROUTE_NAME, MAX_ROUTE_POINTS, type RouteSaveInput } from '../contract';
import {
	type Deps,
	decodePath,
	getVisibleRoute,
	type RouteRow,
	type RouteWithOwner,
	type Viewer,
} from './access';
import { createRoute } from './saving';

const FILE_ACTIVITY_TYPES = new Set<number>(Object.values(ActivityTypeId));

/** An ASCII file name for a route: its name as a slug and its id, never anything a header or a path could misread. */
export function routeFileName(route: Pick<RouteRow, 'id' | 'name'>, extension: RouteExportFormat): string {
	const slug = route.name
		.normalize('NFKD')
		// Accents go (é → e) rather than becoming dashes.
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^A-Za-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '')
		.slice(0, 60);
	return `${slug || 'route'}-${route.id}.${extension}`;
}

/** A route as GPX 1.1 (a track, custom notes as waypoints), written by the workout-files writer. */
export function routeToGpx(route: RouteRow): { fileName: string; body: string } {
	const path = decodePath(route);
	const workout: NormalisedWorkout = {
		format: 'gpx',
		container: 'none',
		activityType: (FILE_ACTIVITY_TYPES.has(route.activityTypeId)
			? route.activityTypeId
			: ActivityTypeId.generic) as NormalisedWorkout['activityType'],
		name: route.name,
		segmentStarts: [0],
		points: path.map(([lat, lng], i) => {
			const elevation = route.elevations?.[i];
			return elevation === null || elevation === undefined ? { lat, lng } : { lat, lng, elevation };
		}),
		laps: [],
		waypoints: route.cues
			.filter((cue) => cue.isCustomNote)
			.map((cue) => ({ lat: cue.lat, lng: cue.lng, name: cue.instructions })),
		deviceTotals: {},
		warnings: [],
	};
	return { fileName: routeFileName(route, 'gpx'), body: writeGpx(workout) };
}

/**
 * A route as a FIT course for GPS devices: every cue becomes a course point, and the records are
 * timed from the route's creation at a nominal pace for its activity.
 */
export function routeToFit(route: RouteRow): { fileName: string; body: Uint8Array<ArrayBuffer> } {
	const path = decodePath(route);
	const body = writeFitCourse({
		name: route.name,
		activityType: route.activityTypeId,
		points: path.map(([lat, lng], i) => ({ lat, lng, elevation: route.elevations?.[i] ?? null })),
		cuePoints: route.cues.map((cue) => ({
			lat: cue.lat,
			lng: cue.lng,
			distance: cue.distance,
			name: cue.instructions,
		})),
		startTime: route.createdAt.getTime(),
	});
	return { fileName: routeFileName(route, 'fit'), body };
}

export const ROUTE_EXPORT_FORMATS = ['gpx', 'fit'] as const;
export type RouteExportFormat = (typeof ROUTE_EXPORT_FORMATS)[number];
const EXPORT_CONTENT_TYPES: Record<RouteExportFormat, string> = {
	gpx: 'application/gpx+xml; charset=utf-8',
	fit: 'application/vnd.ant.fit',
};

export type RouteFile = {
	fileName: string;
	contentType: string;
	body: string | Uint8Array<ArrayBuffer>;
	/** The download's header: the route's own name, with the format's extension. */
	disposition: string;
};

/** The one export path for every format, behind the same canView decision as the detail (404 otherwise). */
export async function exportRoute(
	deps: Deps,
	viewer: Viewer,
	id: number,
	token: string | null | undefined,
	format: RouteExportFormat,
): Promise<RouteFile> {
	const route = await getVisibleRoute(deps, viewer, id, token);
	const file = format === 'fit' ? routeToFit(route) : routeToGpx(route);
	return {
		...file,
		contentType: EXPORT_CONTENT_TYPES[format],
		disposition: attachmentDisposition(`${route.name} ${route.id}`, format, `route-${route.id}`),
	};
}

/** Download headers for an exported route. */
export function routeFileHeaders(file: RouteFile): Record<string, string> {
	return {
		'Content-Type': file.contentType,
		'Content-Disposition': file.disposition,
		'Cache-Control': 'private, no-store',
	};
}

/**
 * A route file is at most the API's 1 MB body; a real route's GPX packs about 10:1, so 16 MB
 * unpacked leaves room for any route while a bomb stops after a quarter of a second on a pool thread.
 */
export const ROUTE_FILE_LIMITS = {
	maxBytes: 5 * 1024 * 1024,
	maxDecompressedBytes: 16 * 1024 * 1024,
	maxPoints: 200_000,
} as const;

/** Reads a GPX (or TCX/FIT) file into a new private route of the viewer's. */
export async function importRoute(
	deps: Deps,
	viewer: Viewer,
	bytes: Uint8Array,
	options: { name?: string; privacy?: number; activityType?: number },
): Promise<RouteWithOwner> {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to import a route');
	let workout: NormalisedWorkout;
	try {
		workout = await sharedParsePool().readWorkoutFile(bytes, { limits: ROUTE_FILE_LIMITS });
	} catch (error) {
		if (isWorkoutFileError(error)) throw uploadRefusal(error);
		throw error;
	}
	let points = workout.points
		.filter((point) => point.lat !== undefined && point.lng !== undefined)
		.map((point) => ({ lat: point.lat as number, lng: point.lng as number, ele: point.elevation ?? null }));
	if (points.length < 2)
		throw new AppError('unprocessable', 'This file has fewer than two positions, so it holds no route.', {
			detail: 'file_no_route',
		});
	points = simplifyOffroadSegment(points);
	for (let tolerance = 2e-4; points.length > MAX_ROUTE_POINTS; tolerance *= 2)
		points = simplifyDouglasPeucker(points, tolerance);
	const input: RouteSaveInput = {
		name: truncateText((options.name ?? workout.name ?? '').trim(), MAX_ROUTE_NAME) || 'Imported route',
		description: '',
		activity_type: options.activityType ?? workout.activityType,
		privacy: (options.privacy ?? 0) as RouteSaveInput['privacy'],
		points: points.map((point, order) => ({ ...point, order, travel_mode: 'OFFROAD' })),
		notes: '',
		markers: workout.waypoints.slice(0, 500).map((waypoint) => ({
			lat: waypoint.lat,
			lng: waypoint.lng,
			text: truncateText((waypoint.name ?? '').trim(), 500),
			icon_id: CUSTOM_NOTE_ICON_ID,
		})),
		segments: [],
		city: '',
		state: '',
		country: '',
	};
	// The climb of the file as its workout would show it (every height, each segment on its own), not of the
	// thinned points: the route page, the CLI and an upload of the same file agree.
	const hasHeights = workout.points.some((point) => point.elevation !== undefined);
	if (!hasHeights) return createRoute(deps, viewer, input);
	const { gain, loss } = computeWorkoutElevationChange(workout);
	const round = (n: number) => Math.round(n * 10) / 10;
	return createRoute(deps, viewer, input, { climb: { ascentM: round(gain), descentM: round(loss) } });
}
