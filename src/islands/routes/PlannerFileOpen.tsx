import { type ChangeEvent, useId, useState } from 'react';
import type { LatLng } from '../../lib/routes/planner';

/** What a file gave the planner: its track's line and, when it has one, its name. */
export type OpenedTrack = { points: LatLng[]; name: string };

/**
 * Reads a GPX, TCX or FIT file (also inside .gz or .zip) in the browser with the product's own readers, loaded
 * only when a file is chosen so the planner's first load stays small. The planner is untouched unless the file
 * has a line: a file that cannot be read only shows why.
 */
async function readTrack(file: File): Promise<OpenedTrack> {
	const { readWorkoutFileSync, isWorkoutFileError } = await import('../../lib/workout-files');
	try {
		const workout = readWorkoutFileSync(new Uint8Array(await file.arrayBuffer()), { fileName: file.name });
		const points = workout.points.flatMap((p) =>
			p.lat === undefined || p.lng === undefined ? [] : [{ lat: p.lat, lng: p.lng }],
		);
		if (points.length < 2)
			throw new Error(`"${file.name}" has no track with at least two positions to draw.`);
		return { points, name: workout.name?.trim() ?? '' };
	} catch (error) {
		if (isWorkoutFileError(error)) throw new Error(`"${file.name}" could not be read: ${error.message}`);
		throw error;
	}
}

export default function PlannerFileOpen({ onOpen }: { onOpen: (track: OpenedTrack) => void }) {
	const id = useId();
	const [error, setError] = useState('');
	const [reading, setReading] = useState(false);

	const choose = async (event: ChangeEvent<HTMLInputElement>) => {
		const input = event.currentTarget;
		const file = input.files?.[0];
		if (!file) return;
		setError('');
		setReading(true);
		try {
			onOpen(await readTrack(file));
		} catch (failure) {
			setError(
				failure instanceof Error && failure.message.startsWith(`"${file.name}"`)
					? failure.message
					: `"${file.name}" could not be read as a GPX, TCX or FIT file.`,
			);
		} finally {
			setReading(false);
			// The same file can be chosen again after a fix.
			input.value = '';
		}
	};

	return (
		<div className="planner__file" data-testid="planner-file">
			<label htmlFor={`${id}-file`}>Open a file</label>
			<input
				id={`${id}-file`}
				type="file"
				accept=".gpx,.tcx,.fit,.gz,.zip,application/gpx+xml"
				onChange={choose}
				disabled={reading}
				aria-describedby={error ? `${id}-error` : `${id}-hint`}
			/>
			<p className="planner__hint" id={`${id}-hint`}>
				{reading
					? 'Reading the file…'
					: 'A GPX, TCX or FIT file becomes the route’s line, which you can then edit.'}
			</p>
			{error && (
				<p className="planner__field-error" id={`${id}-error`} role="alert">
					{error}
				</p>
			)}
		</div>
	);
}
