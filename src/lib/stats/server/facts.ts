import { and, asc, eq, gte, lt, type SQL } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { isListedTimeZone } from '../../core/time-zones';
import { relationBetween } from '../../social/server/relations';
import { canView } from '../../workouts/policy';
import { visibleCondition } from '../../workouts/server/service';
import { workouts } from '../../workouts/server/tables';
import type { WeekDay } from '../calendar';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number } | null;

/** What stats, calendars and goals read of a workout: no series, no notes. */
export type WorkoutFact = {
	id: number;
	name: string;
	activityTypeId: number;
	start: Date;
	distanceM: number | null;
	durationS: number | null;
	energyJ: number | null;
	speedMax: number | null;
};

/** A member as stats see them: who, their zone and units, and whether the viewer may look. */
export type StatsMember = {
	id: number;
	username: string;
	displayName: string;
	timeZone: string;
	measurementSystem: 'metric' | 'imperial';
	/** The day the member's weeks start on (0 Sunday), for goals, weekly stats and the calendar. */
	weekStartDay: WeekDay;
	joined: Date;
	isSelf: boolean;
	/** What the viewer is to the member, which decides the workouts they see. */
	relation: 'self' | 'friend' | 'public';
};

/**
 * The member whose stats a viewer asks for, or not_found when there is none or their workout
 * privacy keeps the viewer out (the same answer, so members cannot be probed).
 */
export async function statsMember(deps: Deps, viewer: Viewer, memberId: number): Promise<StatsMember> {
	const [row] = await deps.db
		.select({
			id: users.id,
			username: users.username,
			displayName: users.displayName,
			timeZone: users.timeZone,
			measurementSystem: users.displayMeasurementSystem,
			weekStartDay: users.weekStartDay,
			workoutPrivacy: users.workoutPrivacy,
			createdAt: users.createdAt,
		})
		.from(users)
		.where(eq(users.id, memberId));
	if (!row) throw new AppError('not_found', 'No such member');
	const isSelf = viewer?.id === row.id;
	const relation = await relationBetween(deps.db, viewer, row.id);
	if (!isSelf && !canView(viewer, { ownerId: row.id, privacy: row.workoutPrivacy }, relation))
		throw new AppError('not_found', 'No such member');
	return {
		id: row.id,
		username: row.username,
		displayName: row.displayName || row.username,
		timeZone: isListedTimeZone(row.timeZone) ? row.timeZone : 'UTC',
		measurementSystem: row.measurementSystem === 'imperial' ? 'imperial' : 'metric',
		weekStartDay: (row.weekStartDay >= 0 && row.weekStartDay <= 6 ? row.weekStartDay : 1) as WeekDay,
		joined: row.createdAt,
		isSelf,
		relation: isSelf ? 'self' : relation.isFriend ? 'friend' : 'public',
	};
}

/** Finds a member by id or username (profile paths carry either). */
export async function memberIdFor(deps: Deps, idOrUsername: string): Promise<number | null> {
	const where = /^\d{1,9}$/.test(idOrUsername)
		? eq(users.id, Number(idOrUsername))
		: eq(users.username, idOrUsername.slice(0, 100));
	const [row] = await deps.db.select({ id: users.id }).from(users).where(where).limit(1);
	return row?.id ?? null;
}

/** The member's workouts the viewer may see that started in [from, to), oldest first. */
export async function workoutFacts(
	deps: Deps,
	viewer: Viewer,
	member: StatsMember,
	range: { from?: Date; to?: Date } = {},
): Promise<WorkoutFact[]> {
	const conditions: SQL[] = [eq(workouts.ownerId, member.id)];
	if (!member.isSelf) conditions.push(visibleCondition(viewer));
	if (range.from) conditions.push(gte(workouts.startDatetime, range.from));
	if (range.to) conditions.push(lt(workouts.startDatetime, range.to));
	const rows = await deps.db
		.select({
			id: workouts.id,
			name: workouts.name,
			activityTypeId: workouts.activityTypeId,
			start: workouts.startDatetime,
			distanceM: workouts.distanceTotal,
			active: workouts.activeTimeTotal,
			elapsed: workouts.elapsedTimeTotal,
			energyJ: workouts.metabolicEnergyTotal,
			speedMax: workouts.speedMax,
		})
		.from(workouts)
		.where(and(...conditions))
		.orderBy(asc(workouts.startDatetime), asc(workouts.id));
	return rows.map((row) => ({
		id: row.id,
		name: row.name,
		activityTypeId: row.activityTypeId,
		start: row.start,
		distanceM: row.distanceM,
		durationS: row.active ?? row.elapsed,
		energyJ: row.energyJ,
		speedMax: row.speedMax,
	}));
}
