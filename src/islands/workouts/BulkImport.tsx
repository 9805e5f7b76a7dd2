import { useEffect, useRef, useState } from 'react';
import type { BulkImportFile, BulkImportProgress } from '../../lib/workouts/contract';
import { BULK_IMPORT_POLL_MS, readBulkImport, sendBulkImport } from '../../lib/workouts/store';
import './workout-import.scss';

const OUTCOME_LABELS: Record<BulkImportFile['outcome'], string> = {
	imported: 'Imported',
	duplicate: 'Already yours, skipped',
	failed: 'Not imported',
};

function FileRow({ file }: { file: BulkImportFile }) {
	return (
		<li className="workout-import__item" data-testid="bulk-file" data-status={file.outcome}>
			<div className="workout-import__file">
				<span className="workout-import__name">{file.file}</span>
			</div>
			{file.outcome === 'failed' ? (
				<p className="workout-import__failed">
					{OUTCOME_LABELS.failed}: {file.reason}
				</p>
			) : (
				<p className={file.outcome === 'imported' ? 'workout-import__ok' : 'workout-import__note'}>
					{OUTCOME_LABELS[file.outcome]}: <a href={`/workout/${file.workout_id}`}>open the workout</a>
				</p>
			)}
		</li>
	);
}

/**
 * A whole export (a Strava or Garmin zip of many files): the zip uploads with a progress bar, the
 * server imports it in the background, and this polls until every file has an outcome. `opened` is
 * an earlier import the page was asked to show.
 */
export default function BulkImport({ opened = null }: { opened?: BulkImportProgress | null }) {
	const [uploading, setUploading] = useState<number | null>(null);
	const [refusal, setRefusal] = useState<string | null>(null);
	// An earlier import the page was opened on: shown, and followed while it still runs.
	const [progress, setProgress] = useState<BulkImportProgress | null>(opened);
	const input = useRef<HTMLInputElement>(null);

	async function start(file: File | undefined) {
		if (!file) return;
		setRefusal(null);
		setProgress(null);
		setUploading(0);
		const answer = await sendBulkImport(file, setUploading);
		setUploading(null);
		if (answer.ok) setProgress(answer.progress);
		else setRefusal(answer.message);
	}

	// A zip chosen before the page's script woke up is still in the field: send it now.
	// biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first render only
	useEffect(() => {
		const field = input.current;
		if (!field?.files?.length) return;
		void start(field.files[0]);
		field.value = '';
	}, []);

	const id = progress?.id;
	const finished = progress?.status === 'done' || progress?.status === 'failed';
	useEffect(() => {
		if (id === undefined || finished) return;
		let asking = false;
		const timer = window.setInterval(async () => {
			// One question at a time: a slow answer is not asked over.
			if (asking) return;
			asking = true;
			try {
				setProgress(await readBulkImport(id));
			} catch {
				// A missed poll is simply asked again on the next tick.
			}
			asking = false;
		}, BULK_IMPORT_POLL_MS);
		return () => window.clearInterval(timer);
	}, [id, finished]);

	return (
		<div className="workout-import">
			<fieldset className="workout-import__drop">
				<legend>A whole export</legend>
				<p>Upload the .zip of a Strava or Garmin export; workouts you already have are skipped.</p>
				<label htmlFor="bulk-zip" className="workout-import__choose">
					Choose a zip
				</label>
				<input
					ref={input}
					id="bulk-zip"
					className="workout-import__input"
					type="file"
					accept=".zip,application/zip"
					disabled={uploading !== null}
					onChange={(event) => {
						void start(event.currentTarget.files?.[0]);
						event.currentTarget.value = '';
					}}
				/>
			</fieldset>
			{uploading !== null && (
				<div className="workout-import__progress">
					<progress max={100} value={Math.round(uploading * 100)} aria-label="Uploading the zip" />
					<span>{uploading >= 1 ? 'Checking the zip…' : `${Math.round(uploading * 100)}%`}</span>
				</div>
			)}
			{refusal && (
				<p role="alert" className="workout-import__failed" data-testid="bulk-refusal">
					{refusal}
				</p>
			)}
			{progress && (
				<>
					<p role="status" className="workout-import__count" data-testid="bulk-progress">
						{finished
							? `Done: ${progress.processed} of ${progress.total} files read.`
							: `Importing: ${progress.processed} of ${progress.total} files read…`}{' '}
						{progress.imported} imported, {progress.skipped_duplicates} skipped as duplicates,{' '}
						{progress.failed} not imported.
					</p>
					{!finished && (
						<progress
							max={Math.max(1, progress.total)}
							value={progress.processed}
							aria-label="Files imported so far"
						/>
					)}
					{progress.error && (
						<p role="alert" className="workout-import__failed">
							{progress.error}
						</p>
					)}
					{progress.files.length > 0 && (
						<ul className="workout-import__list" aria-label="Files in the zip">
							{progress.files.map((file, index) => (
								// The list only grows at its end, and two folders may hold files of one name.
								// biome-ignore lint/suspicious/noArrayIndexKey: positions never change
								<FileRow key={`${index}-${file.file}`} file={file} />
							))}
						</ul>
					)}
				</>
			)}
		</div>
	);
}
