import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { locationPrivacyOf } from '../../account/server/location-privacy';
import type { AppDeps } from '../../core/server/deps';
import { encodePolyline } from '../../routing/polyline';
import { haversineM } from '../../workout-files/geo';
import type { ActivityGroup } from '../../workouts/activity-groups';
import { trimForViewer } from '../../workouts/privacy-zones';
import { decodeSeries, previewSeriesOf, type SeriesSample, type StoredSeries } from '../../workouts/series';
import { activityTypeGroup } from '../../workouts/server/activity-types';
import { getWorkoutSeriesMany } from '../../workouts/server/service';
import { workouts } from '../../workouts/server/tables';
import { yearOf } from '../calendar';
import type { TrackHeatmap } from '../contract';
import type { StatsMember } from './facts';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** About a metre: finer than a heatmap's stroke at any zoom, and a fifth shorter than precision 6. */
const LINE_PRECISION = 5;
/**
 * The longest stretch of line between two positions the privacy zones are checked at. A preview's
 * positions can lie hundreds of metres apart (a long ride); a straight stretch this short with both
 * ends outside a zone (stored radius at least 360 m) reaches at most 4 m into it, far from the home
 * the member's chosen radius keeps hidden.
 */
const ZONE_CHECK_STEP_M = 100;

/**
 * Every track of the member's own workouts as lines for the heatmap, from each workout's stored preview
 * (a hundred positions; the whole recording is read only for a workout stored before previews were kept).
 * The member's privacy zones are cut out through `trimForViewer` as if for anyone else, the hidden ends
 * left out of it: the heatmap is the owner's, but it is a picture made to be shown, and the zones are the
 * places a member never wants drawn.
 */
export async function trackHeatmap(
	deps: Deps,
	member: StatsMember,
	filters: { groups: ActivityGroup[] | null; year: number | null },
): Promise<TrackHeatmap> {
	const conditions: SQL[] = [eq(workouts.ownerId, member.id)];
	if (filters.year !== null) {
		const year = yearOf(filters.year, member.timeZone);
		conditions.push(gte(workouts.startDatetime, year.start), lt(workouts.startDatetime, year.end));
	}
	const [rows, yearRows, privacy] = await Promise.all([
		deps.db
			.select({
				id: workouts.id,
				activityTypeId: workouts.activityTypeId,
				sampleCount: workouts.sampleCount,
				previewSeries: workouts.previewSeries,
			})
			.from(workouts)
			.where(and(...conditions))
			.orderBy(workouts.startDatetime, workouts.id),
		deps.db
			.selectDistinct({
				year: sql<number>`extract(year from ${workouts.startDatetime} at time zone ${member.timeZone})::int`,
			})
			.from(workouts)
			.where(eq(workouts.ownerId, member.id)),
		locationPrivacyOf(deps, member.id),
	]);
	const groupOf = new Map(rows.map((row) => [row.id, activityTypeGroup(row.activityTypeId)]));
	const chosen = rows.filter(
		(row) => filters.groups === null || filters.groups.includes(groupOf.get(row.id) as ActivityGroup),
	);
	const whole = await getWorkoutSeriesMany(
		deps,
		chosen.filter((row) => row.previewSeries === null && row.sampleCount > 0).map((row) => row.id),
	);
	const zonesOnly = { zones: privacy.zones, hideEndsM: 0 };
	const lines: string[] = [];
	let workoutCount = 0;
	for (const row of chosen) {
		const preview: StoredSeries | null =
			row.previewSeries ?? previewSeriesOf(whole.get(row.id)?.series ?? null);
		if (!preview?.lat) continue;
		const positions = decodeSeries(preview).filter(
			(sample) => sample.lat !== undefined && sample.lng !== undefined,
		);
		const { samples, added } =
			privacy.zones.length > 0
				? withStepsOfAtMost(positions, ZONE_CHECK_STEP_M)
				: { samples: positions, added: [] };
		const { hidden } = trimForViewer(
			// With no hidden ends the secret (which sets their length) plays no part.
			{ id: row.id, ownerId: member.id, secret: '', samples },
			zonesOnly,
			null,
		);
		const drawn = linesOf(samples, hidden, added);
		if (drawn.length === 0) continue;
		workoutCount++;
		for (const line of drawn) lines.push(encodePolyline(line, LINE_PRECISION));
	}
	// A workout stored before previews were kept may have a track too: its group is offered.
	const mayHaveTrack = (row: (typeof rows)[number]) =>
		row.previewSeries ? row.previewSeries.lat !== undefined : row.sampleCount > 0;
	const present = new Set(rows.filter(mayHaveTrack).map((row) => groupOf.get(row.id)));
	return {
		activity_groups: filters.groups ?? 'all',
		year: filters.year,
		workout_count: workoutCount,
		lines,
		years: yearRows.map((row) => Number(row.year)).sort((a, b) => b - a),
		groups: [...present].filter((group): group is ActivityGroup => group !== undefined).sort(),
	};
}

/**
 * The positions with more put in along each straight stretch longer than `stepM`, so no stretch
 * crosses a privacy zone without a position inside it; `added` marks the ones put in.
 */
function withStepsOfAtMost(
	positions: readonly SeriesSample[],
	stepM: number,
): { samples: SeriesSample[]; added: boolean[] } {
	const samples: SeriesSample[] = [];
	const added: boolean[] = [];
	positions.forEach((position, i) => {
		const previous = positions[i - 1];
		if (previous) {
			const [lat0, lng0, lat1, lng1] = [previous.lat, previous.lng, position.lat, position.lng] as number[];
			const pieces = Math.ceil(haversineM(lat0, lng0, lat1, lng1) / stepM);
			for (let piece = 1; piece < pieces; piece++) {
				const share = piece / pieces;
				samples.push({
					offsetMs: previous.offsetMs + (position.offsetMs - previous.offsetMs) * share,
					lat: lat0 + (lat1 - lat0) * share,
					lng: lng0 + (lng1 - lng0) * share,
				});
				added.push(true);
			}
		}
		samples.push(position);
		added.push(false);
	});
	return { samples, added };
}

/**
 * The runs of consecutive visible positions, two or more long: a hidden position breaks the line. A
 * position put in only for the zone check is kept where it ends a run (it marks where the zone cuts
 * the line) and left out elsewhere, where it lies on the straight line between its neighbours anyway.
 */
function linesOf(
	samples: readonly SeriesSample[],
	hidden: readonly boolean[],
	added: readonly boolean[],
): [number, number][][] {
	const lines: [number, number][][] = [];
	let current: [number, number][] = [];
	const close = () => {
		if (current.length >= 2) lines.push(current);
		current = [];
	};
	const shown = (i: number) => i >= 0 && i < samples.length && !hidden[i];
	for (let i = 0; i < samples.length; i++) {
		if (!shown(i)) close();
		else if (!(added[i] && shown(i - 1) && shown(i + 1)))
			current.push([samples[i].lat as number, samples[i].lng as number]);
	}
	close();
	return lines;
}
