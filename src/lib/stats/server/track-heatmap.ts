import { and, eq, gte, lt, type SQL, sql } from 'drizzle-orm';
import { locationPrivacyOf } from '../../account/server/location-privacy';
import type { AppDeps } from '../../core/server/deps';
import { encodePolyline } from '../../routing/polyline';
import type { ActivityGroup } from '../../workouts/activity-groups';
import { trimForViewer } from '../../workouts/privacy-zones';
import { decodeSeries, previewSeriesOf, type StoredSeries } from '../../workouts/series';
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
		const { samples, hidden } = trimForViewer(
			// With no hidden ends the secret (which sets their length) plays no part.
			{ id: row.id, ownerId: member.id, secret: '', samples: decodeSeries(preview) },
			zonesOnly,
			null,
		);
		const drawn = linesOf(samples, hidden);
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

/** The runs of consecutive visible positions, two or more long: a hidden position breaks the line. */
function linesOf(
	samples: readonly { lat?: number; lng?: number }[],
	hidden: readonly boolean[],
): [number, number][][] {
	const lines: [number, number][][] = [];
	let current: [number, number][] = [];
	const close = () => {
		if (current.length >= 2) lines.push(current);
		current = [];
	};
	samples.forEach((sample, i) => {
		if (hidden[i] || sample.lat === undefined || sample.lng === undefined) close();
		else current.push([sample.lat, sample.lng]);
	});
	close();
	return lines;
}
