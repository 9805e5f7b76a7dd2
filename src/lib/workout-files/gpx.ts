import { type Container, parseOptionalNumber, WorkoutBuilder } from './builder';
import { defaultLimits, type ReadLimits, type TrackPoint, type Waypoint } from './contract';
import { WorkoutFileError } from './errors';
import { parseDecimalRange } from './numbers';
import { mapSportName } from './sport';
import { parseIsoTime, parseIsoTimeRange } from './time';
import { decodeEntities, findAttribute, nameIs, type Range, readAttribute, scanXmlRanges } from './xml';

const gpxNamespaces = new Set(['http://www.topografix.com/GPX/1/0', 'http://www.topografix.com/GPX/1/1']);

/**
 * Point children we keep, by local name: GPX's own, Garmin TrackPointExtension v1/v2, Garmin
 * PowerExtension, Cluetrust gpxdata and the bare names Strava and others write. Matched on the name's
 * range in the document (length first), which keeps the hot loop free of string copies.
 */
type Field = 'ele' | 'time' | 'hr' | 'cad' | 'temp' | 'power' | 'speed' | 'distance' | 'name';
function classifyPointChild(d: string, s: number, e: number): Field | null {
	switch (e - s) {
		case 2:
			return d.startsWith('hr', s) ? 'hr' : null;
		case 3:
			return d.startsWith('ele', s) ? 'ele' : d.startsWith('cad', s) ? 'cad' : null;
		case 4:
			return d.startsWith('time', s)
				? 'time'
				: d.startsWith('temp', s)
					? 'temp'
					: d.startsWith('name', s)
						? 'name'
						: null;
		case 5:
			if (d.startsWith('atemp', s) || d.startsWith('wtemp', s)) return 'temp';
			return d.startsWith('power', s) ? 'power' : d.startsWith('speed', s) ? 'speed' : null;
		case 7:
			return d.startsWith('cadence', s) ? 'cad' : null;
		case 8:
			return d.startsWith('distance', s) ? 'distance' : null;
		case 9:
			return d.startsWith('heartrate', s) ? 'hr' : null;
		case 12:
			return d.startsWith('PowerInWatts', s) ? 'power' : null;
		default:
			return null;
	}
}

const coordinate: Range = { start: 0, end: 0 };

/** Reads lat or lon straight from the start tag; a missing or unreadable one refuses the file. */
function readCoordinate(doc: string, a0: number, a1: number, what: 'lat' | 'lon', index: number): number {
	let value = Number.NaN;
	if (findAttribute(doc, a0, a1, what, coordinate)) {
		value = parseDecimalRange(doc, coordinate.start, coordinate.end);
		if (Number.isNaN(value) && doc.slice(coordinate.start, coordinate.end).includes('&')) {
			value = Number(decodeEntities(doc.slice(coordinate.start, coordinate.end)).trim() || Number.NaN) + 0;
		}
	}
	if (!Number.isFinite(value)) {
		throw new WorkoutFileError(
			what === 'lat' ? 'bad_latitude' : 'bad_longitude',
			`Point ${index + 1} has no readable ${what === 'lat' ? 'latitude' : 'longitude'}. The file is damaged.`,
			{ point: index },
		);
	}
	return value;
}

/**
 * Reads GPX 1.0 and 1.1: every track and segment in order (a new <trkseg> or <trk> starts a new
 * segment), waypoints apart, and a route's points only when the file has no track (planners export
 * routes). Points may lack time or elevation; those values stay absent.
 */
export function readGpx(doc: string, container: Container, limits: ReadLimits = {}) {
	const b = new WorkoutBuilder('gpx', container, limits);
	let depth = 0;
	let inTrk = false;
	let trkCount = 0;
	let inMetadata = false;
	let pointKind: 'trk' | 'rte' | 'wpt' | null = null;
	let point: TrackPoint = {};
	let pointName: string | undefined;
	let pointDepth = 0;
	let field: Field | null = null;
	let fieldDepth = 0;
	let textBuf: string | null = null;
	let textStart = -1;
	let textEnd = -1;
	let holderText = '';
	let holder: 'trkName' | 'trkType' | 'metaName' | 'metaTime' | null = null;
	let trkType: string | undefined;
	const routePoints: TrackPoint[] = [];
	let routeCount = 0;

	scanXmlRanges(doc, {
		open(d, s, e, a0, a1) {
			depth++;
			if (pointKind !== null) {
				if (field === null) {
					const f = classifyPointChild(d, s, e);
					if (f !== null) {
						field = f;
						fieldDepth = depth;
						textStart = -1;
						textBuf = null;
					}
				}
				return;
			}
			if (depth === 1) {
				if (!nameIs(d, s, e, 'gpx')) {
					throw new WorkoutFileError(
						'wrong_root',
						`This XML file is not GPX (its root is <${d.slice(s, e)}>).`,
					);
				}
				const ns = readAttribute(d, a0, a1, 'xmlns');
				if (ns !== undefined && !gpxNamespaces.has(ns)) {
					throw new WorkoutFileError('wrong_root', 'This GPX file uses an unknown namespace.', {
						namespace: ns,
					});
				}
				b.creator = readAttribute(d, a0, a1, 'creator');
				return;
			}
			const isTrkpt = nameIs(d, s, e, 'trkpt');
			if (isTrkpt || nameIs(d, s, e, 'rtept') || nameIs(d, s, e, 'wpt')) {
				pointKind = isTrkpt ? (inTrk ? 'trk' : null) : d.charCodeAt(s) === 114 ? 'rte' : 'wpt';
				if (pointKind === null) return;
				const index = b.points.length;
				point = {
					lat: readCoordinate(d, a0, a1, 'lat', index),
					lng: readCoordinate(d, a0, a1, 'lon', index),
				};
				pointName = undefined;
				pointDepth = depth;
			} else if (nameIs(d, s, e, 'trkseg')) {
				b.breakSegment();
			} else if (nameIs(d, s, e, 'trk')) {
				inTrk = true;
				trkCount++;
				b.breakSegment();
			} else if (nameIs(d, s, e, 'rte')) {
				routeCount++;
			} else if (nameIs(d, s, e, 'metadata')) {
				inMetadata = true;
			} else if (nameIs(d, s, e, 'name') && (depth === 2 || (inMetadata && depth === 3))) {
				holder = 'metaName';
				holderText = '';
			} else if (nameIs(d, s, e, 'time') && (depth === 2 || (inMetadata && depth === 3))) {
				// When the file was written (GPX 1.0 under <gpx>, 1.1 in <metadata>): a date for points without one.
				holder = 'metaTime';
				holderText = '';
			} else if (inTrk && depth === 3 && (nameIs(d, s, e, 'name') || nameIs(d, s, e, 'type'))) {
				holder = d.charCodeAt(s) === 110 ? 'trkName' : 'trkType';
				holderText = '';
			}
		},
		text(d, s, e) {
			if (holder !== null) holderText += d.slice(s, e);
			else if (field !== null) {
				// Usually one run of text: keep its range; only text split by a comment or CDATA is copied.
				if (textStart < 0) {
					textStart = s;
					textEnd = e;
				} else {
					textBuf = (textBuf ?? d.slice(textStart, textEnd)) + d.slice(s, e);
				}
			}
		},
		close(d, s, e) {
			if (field !== null && depth === fieldDepth) {
				if (textBuf !== null) storeField(field, textBuf, 0, textBuf.length);
				else if (textStart >= 0) storeField(field, d, textStart, textEnd);
				else storeField(field, '', 0, 0);
				field = null;
			} else if (pointKind !== null && depth === pointDepth) {
				finishPoint();
			} else if (holder !== null) {
				const value = decodeEntities(holderText).trim();
				if (holder === 'metaTime') {
					const written = parseIsoTime(value);
					if (!Number.isNaN(written)) b.fileTime ??= written;
				} else if (holder === 'metaName') b.name ??= value || undefined;
				else if (holder === 'trkName' && !b.name) b.name = value || undefined;
				else if (holder === 'trkType') trkType ??= value || undefined;
				holder = null;
			} else if (nameIs(d, s, e, 'trk')) {
				inTrk = false;
			} else if (nameIs(d, s, e, 'metadata')) {
				inMetadata = false;
			}
			depth--;
		},
	});

	function storeField(f: Field, d: string, s: number, e: number): void {
		switch (f) {
			case 'time': {
				let t = parseIsoTimeRange(d, s, e);
				if (Number.isNaN(t) && d.slice(s, e).includes('&')) t = parseIsoTime(decodeEntities(d.slice(s, e)));
				if (Number.isNaN(t)) {
					throw new WorkoutFileError(
						'bad_time',
						`Point ${b.points.length + 1} has a time we cannot read ("${d.slice(s, e).trim().slice(0, 40)}").`,
					);
				}
				point.time = t;
				return;
			}
			case 'ele':
				setNumber(point, 'elevation', d, s, e);
				return;
			case 'hr':
				setNumber(point, 'heartRate', d, s, e);
				return;
			case 'cad':
				setNumber(point, 'cadence', d, s, e);
				return;
			case 'temp':
				setNumber(point, 'temperature', d, s, e);
				return;
			case 'power':
				setNumber(point, 'power', d, s, e);
				return;
			case 'speed':
				setNumber(point, 'speed', d, s, e);
				return;
			case 'distance':
				setNumber(point, 'distance', d, s, e);
				return;
			case 'name':
				if (pointKind === 'wpt') pointName = decodeEntities(d.slice(s, e)).trim();
				return;
		}
	}

	function finishPoint(): void {
		if (pointKind === 'trk') b.addPoint(point);
		else if (pointKind === 'rte') {
			if (routePoints.length >= (limits.maxPoints ?? defaultLimits.maxPoints)) {
				throw new WorkoutFileError(
					'too_many_points',
					'This route has more points than we accept in one workout.',
				);
			}
			routePoints.push(point);
		} else if (point.lat !== undefined && point.lng !== undefined) {
			const w: Waypoint = { lat: point.lat, lng: point.lng };
			if (point.elevation !== undefined) w.elevation = point.elevation;
			if (point.time !== undefined) w.time = point.time;
			if (pointName) w.name = pointName;
			b.waypoints.push(w);
		}
		pointKind = null;
	}

	if (b.points.length === 0 && routePoints.length > 0) {
		b.breakSegment();
		for (const p of routePoints) b.addPoint(p);
		b.warnOnce('This file holds a planned route, not a recorded track; its points were read as the track.');
	}
	if (trkCount > 1)
		b.warnOnce(`This file holds ${trkCount} tracks; they were joined as segments of one workout.`);
	if (routeCount > 0 && b.points.length > 0 && routePoints.length !== b.points.length) {
		b.warnOnce('The planned route in this file was ignored; the recorded track was read.');
	}
	b.sport = trkType;
	b.activityType = mapSportName(trkType);
	return b.finish();
}

/** Sets an optional value read from doc[s, e); unreadable text leaves it absent, as do negative counts. */
function setNumber(p: TrackPoint, key: keyof TrackPoint, d: string, s: number, e: number): void {
	let value = parseDecimalRange(d, s, e);
	if (Number.isNaN(value)) {
		if (!d.slice(s, e).includes('&')) return;
		value = parseOptionalNumber(decodeEntities(d.slice(s, e))) ?? Number.NaN;
		if (Number.isNaN(value)) return;
	}
	if (key !== 'elevation' && key !== 'temperature' && value < 0) return;
	p[key] = value;
}
