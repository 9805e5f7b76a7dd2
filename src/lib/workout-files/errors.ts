/** Why a workout file was refused; the house's error mapper turns `status` into the HTTP answer. */
export type WorkoutFileErrorCode =
	| 'unsupported_format'
	| 'doctype_not_allowed'
	| 'malformed_xml'
	| 'wrong_root'
	| 'truncated'
	| 'too_large'
	| 'too_many_points'
	| 'too_many_entries'
	| 'unsafe_name'
	| 'too_many_references'
	| 'fit_checksum'
	| 'fit_corrupt'
	| 'no_track_points'
	| 'bad_latitude'
	| 'bad_longitude'
	| 'bad_number'
	| 'bad_time'
	| 'time_backwards'
	| 'cannot_write';

const statusByCode: Record<WorkoutFileErrorCode, 400 | 413 | 415> = {
	unsupported_format: 415,
	doctype_not_allowed: 400,
	malformed_xml: 400,
	wrong_root: 415,
	truncated: 400,
	too_large: 413,
	too_many_points: 413,
	too_many_entries: 413,
	unsafe_name: 400,
	too_many_references: 413,
	fit_checksum: 400,
	fit_corrupt: 400,
	no_track_points: 400,
	bad_latitude: 400,
	bad_longitude: 400,
	bad_number: 400,
	bad_time: 400,
	time_backwards: 400,
	cannot_write: 400,
};

/** A refusal a member can act on: `message` is safe to show them as is. */
export class WorkoutFileError extends Error {
	readonly code: WorkoutFileErrorCode;
	readonly status: 400 | 413 | 415;
	readonly details: Record<string, unknown>;

	constructor(code: WorkoutFileErrorCode, message: string, details: Record<string, unknown> = {}) {
		super(message);
		this.name = 'WorkoutFileError';
		this.code = code;
		this.status = statusByCode[code];
		this.details = details;
	}
}

export function isWorkoutFileError(error: unknown): error is WorkoutFileError {
	return error instanceof WorkoutFileError;
}
