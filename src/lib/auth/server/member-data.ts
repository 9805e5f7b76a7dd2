import type { DeletionStep } from '../../core/server/member-data';
import { revokeAllSessions } from './session';
import { clearAccountCounters } from './throttle';

/**
 * The member's sign-ins end first, so access tokens still in flight are refused at once; their
 * login counters, kept by address rather than by member, go last.
 */
export const signInsDeletion: DeletionStep = {
	name: 'sign-ins',
	beforeRows: (deps, member) => revokeAllSessions(deps, member.id),
	afterRows: (deps, member) => clearAccountCounters(deps, member.email),
};
