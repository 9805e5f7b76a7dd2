import { and, asc, count, eq, sql } from 'drizzle-orm';
import { link } from '../../api/hal';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { workouts } from '../../workouts/server/tables';
import {
	type GearCreateInput,
	type GearKind,
	type GearUpdateInput,
	type GearView,
	gearLabel,
	MAX_GEAR_PER_MEMBER,
} from '../contract';
import { userGear } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number } | null;

type GearRow = typeof userGear.$inferSelect;
export type GearWithWear = GearRow & { workoutDistance: number; workoutCount: number };

const notFound = () => new AppError('not_found', 'No such gear');

function needViewer(viewer: Viewer): { id: number } {
	if (!viewer) throw new AppError('unauthenticated', 'Sign in to see your gear');
	return viewer;
}

/** The member's gear with what their workouts add, summed now so every workout change counts. */
async function selectGear(deps: Deps, userId: number, gearId?: number): Promise<GearWithWear[]> {
	const conditions = [eq(userGear.userId, userId)];
	if (gearId !== undefined) conditions.push(eq(userGear.id, gearId));
	// Only the owner's own workouts count: a workout can name only its owner's gear, and the join says so too.
	const rows = await deps.db
		.select({
			gear: userGear,
			workoutDistance: sql<number>`coalesce(sum(${workouts.distanceTotal}), 0)::float8`.mapWith(Number),
			workoutCount: sql<number>`count(${workouts.id})::int`.mapWith(Number),
		})
		.from(userGear)
		.leftJoin(workouts, and(eq(workouts.gearId, userGear.id), eq(workouts.ownerId, userGear.userId)))
		.where(and(...conditions))
		.groupBy(userGear.id)
		.orderBy(asc(userGear.retired), asc(userGear.id));
	return rows.map((row) => ({
		...row.gear,
		workoutDistance: row.workoutDistance,
		workoutCount: row.workoutCount,
	}));
}

export function representGear(gear: GearWithWear): GearView {
	const worn = gear.startDistance + gear.workoutDistance;
	return {
		id: gear.id,
		kind: gear.kind as GearKind,
		brand: gear.brand,
		model: gear.model,
		nickname: gear.nickname,
		start_distance: gear.startDistance,
		alert_distance: gear.alertDistance,
		retired: gear.retired,
		distance_worn: Math.round(worn * 10) / 10,
		workout_count: gear.workoutCount,
		alert_reached: gear.alertDistance !== null && worn >= gear.alertDistance,
		version: gear.version,
		created_datetime: formatApiDateTime(gear.createdAt),
		updated_datetime: formatApiDateTime(gear.updatedAt),
		_links: { self: link('usergear', gear.id), user: link('user', gear.userId) },
	};
}

/** The signed-in member's gear, in use first; `retired` narrows to one or the other. */
export async function listGear(
	deps: Deps,
	viewer: Viewer,
	query: { retired?: boolean } = {},
): Promise<GearWithWear[]> {
	const { id } = needViewer(viewer);
	const all = await selectGear(deps, id);
	return query.retired === undefined ? all : all.filter((gear) => gear.retired === query.retired);
}

/** One piece of the member's gear; anyone else's answers 404, the same as one that does not exist. */
export async function getOwnGear(deps: Deps, viewer: Viewer, gearId: number): Promise<GearWithWear> {
	const { id } = needViewer(viewer);
	const [gear] = await selectGear(deps, id, gearId);
	if (!gear) throw notFound();
	return gear;
}

export async function createGear(deps: Deps, viewer: Viewer, input: GearCreateInput): Promise<GearWithWear> {
	const { id: userId } = needViewer(viewer);
	const [held] = await deps.db.select({ n: count() }).from(userGear).where(eq(userGear.userId, userId));
	if (Number(held?.n ?? 0) >= MAX_GEAR_PER_MEMBER)
		throw new AppError(
			'conflict',
			`You may keep at most ${MAX_GEAR_PER_MEMBER} pieces of gear; delete some first.`,
			{
				detail: 'too_much_gear',
			},
		);
	const now = deps.clock();
	const [row] = await deps.db
		.insert(userGear)
		.values({
			userId,
			kind: input.kind,
			brand: input.brand,
			model: input.model,
			nickname: input.nickname,
			startDistance: input.start_distance,
			alertDistance: input.alert_distance,
			retired: input.retired,
			createdAt: now,
			updatedAt: now,
		})
		.returning({ id: userGear.id });
	return getOwnGear(deps, viewer, row.id);
}

export type GearUpdateOutcome = { ok: true; gear: GearWithWear } | { ok: false; current: GearWithWear };

/** Changes the fields sent; with an expected version, only if nobody saved in between. */
export async function updateGear(
	deps: Deps,
	viewer: Viewer,
	gearId: number,
	input: GearUpdateInput,
	expectedVersion: number | null,
): Promise<GearUpdateOutcome> {
	const current = await getOwnGear(deps, viewer, gearId);
	const changes: Partial<typeof userGear.$inferInsert> = {};
	if (input.kind !== undefined) changes.kind = input.kind;
	if (input.brand !== undefined) changes.brand = input.brand;
	if (input.model !== undefined) changes.model = input.model;
	if (input.nickname !== undefined) changes.nickname = input.nickname;
	if (input.start_distance !== undefined) changes.startDistance = input.start_distance;
	if (input.alert_distance !== undefined) changes.alertDistance = input.alert_distance;
	if (input.retired !== undefined) changes.retired = input.retired;
	const brand = changes.brand ?? current.brand;
	const model = changes.model ?? current.model;
	const nickname = changes.nickname ?? current.nickname;
	if (!brand && !model && !nickname)
		throw new AppError('validation_failed', 'Give the gear a nickname, a brand or a model.', {
			failures: [{ field: 'nickname', message: 'Give the gear a nickname, a brand or a model.' }],
		});
	const conditions = [eq(userGear.id, gearId), eq(userGear.userId, current.userId)];
	if (expectedVersion !== null) conditions.push(eq(userGear.version, expectedVersion));
	const updated = await deps.db
		.update(userGear)
		.set({ ...changes, version: sql`${userGear.version} + 1`, updatedAt: deps.clock() })
		.where(and(...conditions))
		.returning({ id: userGear.id });
	const fresh = await getOwnGear(deps, viewer, gearId);
	return updated.length === 0 ? { ok: false, current: fresh } : { ok: true, gear: fresh };
}

/** Deletes the gear; the workouts that named it keep their distance and name no gear. */
export async function deleteGear(deps: Deps, viewer: Viewer, gearId: number): Promise<void> {
	const gear = await getOwnGear(deps, viewer, gearId);
	await deps.db.delete(userGear).where(and(eq(userGear.id, gear.id), eq(userGear.userId, gear.userId)));
}

/**
 * The gear a workout may name: only the owner's own. Someone else's id is refused in the same words
 * as one that does not exist, so ids cannot be probed.
 */
export async function assertGearOfOwner(
	deps: Pick<AppDeps, 'db'>,
	ownerId: number,
	gearId: number,
): Promise<void> {
	const [row] = await deps.db
		.select({ id: userGear.id })
		.from(userGear)
		.where(and(eq(userGear.id, gearId), eq(userGear.userId, ownerId)));
	if (!row)
		throw new AppError('validation_failed', 'That gear is not one of yours.', {
			failures: [{ field: 'gear', message: 'That gear is not one of yours.' }],
		});
}

/**
 * What a workout form offers: the member's gear in use, plus the piece the workout already names
 * even when retired, so saving the form does not drop it.
 */
export async function gearChoices(
	deps: Deps,
	userId: number,
	keepId: number | null = null,
): Promise<{ id: number; label: string }[]> {
	const rows = await deps.db
		.select({
			id: userGear.id,
			kind: userGear.kind,
			brand: userGear.brand,
			model: userGear.model,
			nickname: userGear.nickname,
			retired: userGear.retired,
		})
		.from(userGear)
		.where(eq(userGear.userId, userId))
		.orderBy(asc(userGear.id));
	return rows
		.filter((row) => !row.retired || row.id === keepId)
		.map((row) => ({ id: row.id, label: gearLabel({ ...row, kind: row.kind as GearKind }) }));
}
