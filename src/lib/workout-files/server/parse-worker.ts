import type { NormalisedWorkout } from '../contract';
import type { WorkoutFileErrorCode } from '../errors';
import { isWorkoutFileError, type ReadOptions, readWorkoutFileSync } from '../index';

export type ParseTask = { bytes: Uint8Array; options: ReadOptions };

/**
 * A refusal travels back as data: an Error crossing the thread boundary loses its class, and the
 * member's message and the code must survive intact.
 */
export type ParseOutcome =
	| { ok: true; workout: NormalisedWorkout }
	| { ok: false; code: WorkoutFileErrorCode; message: string; details: Record<string, unknown> };

/** Runs on a pool thread: inflate, detect and read one uploaded file. */
export default function parseWorkoutFile(task: ParseTask): ParseOutcome {
	try {
		return { ok: true, workout: readWorkoutFileSync(task.bytes, task.options) };
	} catch (error) {
		if (isWorkoutFileError(error))
			return { ok: false, code: error.code, message: error.message, details: error.details };
		throw error;
	}
}
