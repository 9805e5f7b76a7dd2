/**
 * A real recording the demo workouts replay: seconds from its start, metres covered, and what the
 * device measured at each sample (null where it measured nothing), from the file named in `file`.
 */
export type DemoRecording = {
	key: string;
	/** The fixture it was read from, under tests/fixtures/workouts. */
	file: string;
	kind: 'run' | 'walk' | 'ride' | 'indoor';
	device: string;
	t: number[];
	d: number[];
	hr?: (number | null)[];
	cad?: (number | null)[];
	pow?: (number | null)[];
};
