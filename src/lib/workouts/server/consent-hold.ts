import { and, asc, eq, gt, isNotNull, ne, or, type SQL, sql } from 'drizzle-orm';
import type { AppDeps } from '../../core/server/deps';
import { PROCESSING_CONSENTS, type ProcessingConsent } from '../../privacy/contract';
import { withheldProcessing } from '../../privacy/server/consents';
import { previewSeriesOf, type StoredSeries } from '../series';
import { type HeldHeartRate, type StoredLap, workoutHeldData, workoutSeries, workouts } from './tables';

type Deps = Pick<AppDeps, 'db' | 'logger' | 'clock'>;
type Writer = Pick<AppDeps, 'db' | 'clock'>;

/** What a workout recorded that a processing consent covers: its series, laps and heart-rate figures. */
export type Recorded = { series: StoredSeries | null; laps: StoredLap[]; heartRate: HeldHeartRate };

/** The series channels each processing consent covers. */
const CHANNELS: Record<ProcessingConsent, (keyof StoredSeries)[]> = {
	precise_location: ['lat', 'lng'],
	health_data: ['hr'],
};

const hasValue = (values: (number | null)[] | undefined) => Boolean(values?.some((value) => value !== null));

/** The processing consents a recording needs: a track needs precise location, heart rate health data. */
export function consentsNeededBy(recorded: Recorded): ProcessingConsent[] {
	const { series, laps, heartRate } = recorded;
	return PROCESSING_CONSENTS.filter((consent) => {
		if (CHANNELS[consent].some((channel) => hasValue(series?.[channel] as (number | null)[] | undefined)))
			return true;
		if (consent !== 'health_data') return false;
		return (
			heartRate.min !== null ||
			heartRate.max !== null ||
			heartRate.avg !== null ||
			laps.some((lap) => lap.heartrate_avg !== null || lap.heartrate_max !== null)
		);
	});
}

/** The recording with what the withheld consents cover taken out; everything else as it was. */
export function withoutWithheld(recorded: Recorded, withheld: readonly ProcessingConsent[]): Recorded {
	if (withheld.length === 0) return recorded;
	let series = recorded.series ? { ...recorded.series } : null;
	if (series) for (const consent of withheld) for (const channel of CHANNELS[consent]) delete series[channel];
	if (series && series.t.length === 0) series = null;
	if (!withheld.includes('health_data')) return { ...recorded, series };
	return {
		series,
		laps: recorded.laps.map((lap) => ({ ...lap, heartrate_avg: null, heartrate_max: null })),
		heartRate: { min: null, max: null, avg: null },
	};
}

/** What of a new recording its owner's consents hold back: none, or the consents it waits for. */
export async function heldBackFor(
	deps: Pick<AppDeps, 'db'>,
	ownerId: number,
	recorded: Recorded,
): Promise<ProcessingConsent[]> {
	const needed = consentsNeededBy(recorded);
	if (needed.length === 0) return [];
	const withheld = await withheldProcessing(deps, ownerId);
	return needed.filter((consent) => withheld.includes(consent));
}

const BATCH = 50;

/**
 * Brings every workout of a member in line with the processing consents they give today: what a
 * newly given consent covers is released into the workout from the kept copy, and what a withdrawn
 * one covers is moved out into it. Safe to run again: a workout already in line is left alone.
 */
export async function applyProcessingConsents(deps: Deps, ownerId: number): Promise<number> {
	const withheld = await withheldProcessing(deps, ownerId);
	let changed = 0;
	let after = 0;
	for (;;) {
		const rows = await recordedRows(deps, and(eq(workouts.ownerId, ownerId), gt(workouts.id, after)));
		if (rows.length === 0) break;
		after = rows[rows.length - 1].id;
		for (const row of rows) if (await reconcile(deps, row, withheld)) changed++;
	}
	if (changed) deps.logger.info({ ownerId, workouts: changed }, 'processing consents applied to workouts');
	return changed;
}

/**
 * Heart-rate figures a client sent for one workout: stored as the owner's consents allow, kept back
 * with the rest of the recording while health data is not given.
 */
export async function keepSentHeartRate(
	deps: Writer,
	ownerId: number,
	workoutId: number,
	heartRate: Partial<HeldHeartRate>,
): Promise<void> {
	const [row] = await recordedRows(deps, eq(workouts.id, workoutId));
	if (!row) return;
	const withheld = await withheldProcessing(deps, ownerId);
	await reconcile(deps, row, withheld, heartRate);
}

type RecordedRow = Awaited<ReturnType<typeof recordedRows>>[number];

/** Workouts that recorded anything a consent covers (or hold something back), with what they recorded. */
function recordedRows(deps: Writer, where: SQL | undefined) {
	return deps.db
		.select({
			id: workouts.id,
			heldBack: workouts.heldBack,
			heartrateMin: workouts.heartrateMin,
			heartrateMax: workouts.heartrateMax,
			heartrateAvg: workouts.heartrateAvg,
			series: workoutSeries.series,
			laps: workoutSeries.laps,
			held: workoutHeldData,
		})
		.from(workouts)
		.leftJoin(workoutSeries, eq(workoutSeries.workoutId, workouts.id))
		.leftJoin(workoutHeldData, eq(workoutHeldData.workoutId, workouts.id))
		.where(
			and(
				where,
				or(
					ne(workouts.heldBack, sql`'{}'::text[]`),
					isNotNull(workoutSeries.workoutId),
					isNotNull(workouts.heartrateMin),
					isNotNull(workouts.heartrateMax),
					isNotNull(workouts.heartrateAvg),
				),
			),
		)
		.orderBy(asc(workouts.id))
		.limit(BATCH);
}

/** Stores one workout's recording as `withheld` allows; false when it already was. */
async function reconcile(
	deps: Writer,
	row: RecordedRow,
	withheld: readonly ProcessingConsent[],
	sentHeartRate: Partial<HeldHeartRate> = {},
): Promise<boolean> {
	const kept: Recorded = row.held
		? { series: row.held.series, laps: row.held.laps, heartRate: row.held.heartRate }
		: {
				series: row.series,
				laps: row.laps ?? [],
				heartRate: { min: row.heartrateMin, max: row.heartrateMax, avg: row.heartrateAvg },
			};
	const full: Recorded = { ...kept, heartRate: { ...kept.heartRate, ...sentHeartRate } };
	const held = consentsNeededBy(full).filter((consent) => withheld.includes(consent));
	if (sameConsents(held, row.heldBack) && Object.keys(sentHeartRate).length === 0) return false;
	await storeRecorded(deps, row.id, full, held, Boolean(row.series));
	return true;
}

const sameConsents = (a: readonly string[], b: readonly string[]) =>
	a.length === b.length && a.every((key) => b.includes(key));

/** Writes a workout's recording as its consents allow, keeping the full copy while anything is held. */
async function storeRecorded(
	deps: Writer,
	workoutId: number,
	full: Recorded,
	held: ProcessingConsent[],
	hasSeriesRow: boolean,
): Promise<void> {
	const shown = withoutWithheld(full, held);
	await deps.db.transaction(async (tx) => {
		await tx
			.update(workouts)
			.set({
				heldBack: held,
				previewSeries: previewSeriesOf(shown.series),
				heartrateMin: shown.heartRate.min,
				heartrateMax: shown.heartRate.max,
				heartrateAvg: shown.heartRate.avg,
				version: sql`${workouts.version} + 1`,
				updatedAt: deps.clock(),
			})
			.where(eq(workouts.id, workoutId));
		if (shown.series) {
			const values = { series: shown.series, laps: shown.laps };
			if (hasSeriesRow)
				await tx.update(workoutSeries).set(values).where(eq(workoutSeries.workoutId, workoutId));
			else await tx.insert(workoutSeries).values({ workoutId, ...values });
		} else if (hasSeriesRow) {
			await tx.delete(workoutSeries).where(eq(workoutSeries.workoutId, workoutId));
		}
		if (held.length === 0) await tx.delete(workoutHeldData).where(eq(workoutHeldData.workoutId, workoutId));
		else
			await tx
				.insert(workoutHeldData)
				.values({ workoutId, ...full })
				.onConflictDoUpdate({ target: workoutHeldData.workoutId, set: { ...full } });
	});
}
