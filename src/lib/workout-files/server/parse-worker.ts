import { type DerivedFileWorkout, deriveFromFile } from '../../workouts/server/derive-file';
import type { NormalisedWorkout } from '../contract';
import type { WorkoutFileErrorCode } from '../errors';
import { isWorkoutFileError, type ReadOptions, readWorkoutFileSync } from '../index';

/**
 * `read` gives back the file as read; `workout` also derives what a stored workout needs (metrics,
 * encoded series, laps, content hash), so none of that CPU work happens on the request thread.
 */
export type ParseTask =
	| { kind: 'read'; bytes: Uint8Array; options: ReadOptions }
	| { kind: 'workout'; bytes: Uint8Array; options: ReadOptions; weightKg: number | null };

type Refusal = { ok: false; code: WorkoutFileErrorCode; message: string; details: Record<string, unknown> };

/**
 * A refusal travels back as data: an Error crossing the thread boundary loses its class, and the
 * member's message and the code must survive intact.
 */
export type ParseOutcome = { ok: true; workout: NormalisedWorkout } | Refusal;
/** `workout` is null for a file without timed samples (no workout in it). */
export type DeriveOutcome = { ok: true; workout: DerivedFileWorkout | null } | Refusal;

/** Runs on a pool thread: inflate, detect and read one uploaded file (and derive the workout). */
export default function parseWorkoutFile(task: ParseTask): ParseOutcome | DeriveOutcome {
	try {
		const file = readWorkoutFileSync(task.bytes, task.options);
		if (task.kind === 'workout') return { ok: true, workout: deriveFromFile(file, task.weightKg) };
		return { ok: true, workout: file };
	} catch (error) {
		if (isWorkoutFileError(error))
			return { ok: false, code: error.code, message: error.message, details: error.details };
		throw error;
	}
}
