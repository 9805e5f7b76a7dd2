import type { DeletionStep } from '../../core/server/member-data';
import { removeChangeMark } from './cache';
import { workoutChangeMarks } from './tables';

/** The trigger writes the change mark as the member's workouts go, so it goes in the same transaction, after them. */
export const changeMarksDeletion: DeletionStep = {
	name: 'workout change marks',
	clears: [workoutChangeMarks],
	withRows: (db, member) => removeChangeMark(db, member.id),
};
