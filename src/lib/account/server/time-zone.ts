import { eq } from 'drizzle-orm';
import { users } from '../../auth/server/tables';
import type { AppDeps } from '../../core/server/deps';
import { isListedTimeZone } from '../../core/time-zones';

/** The zone a member's pages read times in: the one on their profile, or UTC when none is usable. */
export async function memberTimeZone(deps: Pick<AppDeps, 'db'>, userId: number): Promise<string> {
	const [row] = await deps.db.select({ timeZone: users.timeZone }).from(users).where(eq(users.id, userId));
	return row && isListedTimeZone(row.timeZone) ? row.timeZone : 'UTC';
}
