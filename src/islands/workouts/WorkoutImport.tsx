import { useStore } from '@nanostores/react';
import { type DragEvent, useEffect, useMemo, useRef, useState } from 'react';
import { CONSENTS_EDIT_PATH, heldBackNotice } from '../../lib/workouts/held-back';
import {
	createUploadQueue,
	isWorkoutFileName,
	sendWorkoutFile,
	type UploadItem,
	WORKOUT_FILE_EXTENSIONS,
} from '../../lib/workouts/store';
import './workout-import.scss';

function formatSize(bytes: number): string {
	if (bytes < 1024) return `${bytes} B`;
	if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(0)} KB`;
	return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

function UploadRow({ item, onRetry }: { item: UploadItem; onRetry: () => void }) {
	const outcome = item.outcome;
	const percent = item.progress === null ? null : Math.round(item.progress * 100);
	return (
		<li className="workout-import__item" data-testid="upload-item" data-status={outcome?.kind ?? item.status}>
			<div className="workout-import__file">
				<span className="workout-import__name">{item.fileName}</span>
				<span className="workout-import__size">{formatSize(item.size)}</span>
			</div>
			{item.status !== 'done' && (
				<div className="workout-import__progress">
					<progress
						max={100}
						value={percent ?? undefined}
						aria-label={`Uploading ${item.fileName}`}
						data-testid="upload-progress"
					/>
					<span>
						{item.status === 'queued'
							? 'Waiting…'
							: percent === null
								? 'Starting…'
								: percent >= 100
									? 'Reading the file…'
									: `${percent}%`}
					</span>
				</div>
			)}
			{outcome?.kind === 'imported' && (
				<p className="workout-import__ok">
					Imported: <a href={`/workout/${outcome.workoutId}`}>{outcome.name || 'open the workout'}</a>
				</p>
			)}
			{outcome?.kind === 'imported' && outcome.notice && (
				<p className="workout-import__note" data-testid="upload-notice">
					{outcome.notice}
				</p>
			)}
			{outcome?.kind === 'imported' && outcome.heldBack && (
				<p className="workout-import__note" data-testid="upload-held-back">
					{heldBackNotice(outcome.heldBack)} <a href={CONSENTS_EDIT_PATH}>Review your consents</a>
				</p>
			)}
			{outcome?.kind === 'duplicate' && (
				<p className="workout-import__note">
					Already imported: <a href={`/workout/${outcome.workoutId}`}>open the workout you have</a>
				</p>
			)}
			{outcome?.kind === 'failed' && <p className="workout-import__failed">{outcome.message}</p>}
			{outcome?.kind === 'network' && (
				<p className="workout-import__failed">
					The upload did not reach the server.{' '}
					<button type="button" onClick={onRetry}>
						Try again
					</button>
				</p>
			)}
		</li>
	);
}

/**
 * Importing workouts from device files: choose or drop GPX, TCX or FIT files (also .gz or .zip);
 * each uploads with a progress bar, two at a time, and says how it went.
 */
export default function WorkoutImport() {
	const queue = useMemo(() => createUploadQueue(sendWorkoutFile), []);
	const items = useStore(queue.$items);
	const [dragging, setDragging] = useState(false);
	const [skipped, setSkipped] = useState<string[]>([]);
	const input = useRef<HTMLInputElement>(null);

	function choose(files: FileList | File[] | null) {
		if (!files) return;
		const list = [...files];
		setSkipped(list.filter((file) => !isWorkoutFileName(file.name)).map((file) => file.name));
		queue.add(list.filter((file) => isWorkoutFileName(file.name)));
	}

	// Files chosen before the page's script woke up are still in the field: upload them now.
	// biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first render only
	useEffect(() => {
		const field = input.current;
		if (!field?.files?.length) return;
		choose(field.files);
		field.value = '';
	}, []);

	function drop(event: DragEvent<HTMLFieldSetElement>) {
		event.preventDefault();
		setDragging(false);
		choose(event.dataTransfer.files);
	}

	const done = items.filter((item) => item.status === 'done').length;
	return (
		<div className="workout-import">
			<fieldset
				className="workout-import__drop"
				data-dragging={dragging || undefined}
				data-testid="upload-drop"
				onDragOver={(event) => {
					event.preventDefault();
					setDragging(true);
				}}
				onDragLeave={() => setDragging(false)}
				onDrop={drop}
			>
				<legend>Workout files</legend>
				<p>Drop GPX, TCX or FIT files here (also .gz or .zip), or</p>
				<label htmlFor="workout-files" className="workout-import__choose">
					Choose files
				</label>
				<input
					ref={input}
					id="workout-files"
					className="workout-import__input"
					type="file"
					multiple
					accept={WORKOUT_FILE_EXTENSIONS.join(',')}
					onChange={(event) => {
						choose(event.currentTarget.files);
						event.currentTarget.value = '';
					}}
				/>
			</fieldset>
			{skipped.length > 0 && (
				<p role="alert" className="workout-import__failed">
					Not a workout file we read (GPX, TCX or FIT, bare or in .gz or .zip): {skipped.join(', ')}
				</p>
			)}
			<p role="status" className="workout-import__count">
				{items.length === 0 ? '' : `${done} of ${items.length} ${items.length === 1 ? 'file' : 'files'} done`}
			</p>
			{items.length > 0 && (
				<ul className="workout-import__list" aria-label="Your uploads">
					{items.map((item) => (
						<UploadRow key={item.key} item={item} onRetry={() => queue.retry(item.key)} />
					))}
				</ul>
			)}
		</div>
	);
}
