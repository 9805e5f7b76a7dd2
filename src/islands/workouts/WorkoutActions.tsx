import { type FormEvent, useRef } from 'react';

export type WorkoutActionsProps = { id: number; name: string };

/**
 * The owner's Delete. With script it asks in a dialog; before or without script the same button
 * opens the edit page's confirm step. Either way the deletion is the edit page's form post.
 */
export default function WorkoutActions({ id, name }: WorkoutActionsProps) {
	const dialog = useRef<HTMLDialogElement>(null);
	const ask = (event: FormEvent) => {
		if (!dialog.current) return;
		event.preventDefault();
		dialog.current.showModal();
	};
	return (
		<>
			<form method="get" action={`/workout/edit/${id}`} onSubmit={ask} className="workout-actions__ask">
				<input type="hidden" name="delete" value="1" />
				<button type="submit" data-testid="delete-workout">
					Delete
				</button>
			</form>
			<dialog ref={dialog} className="workout-dialog" aria-labelledby={`delete-title-${id}`}>
				<h2 id={`delete-title-${id}`}>Delete this workout?</h2>
				<p>“{name}” and its recording will be gone for good.</p>
				<form method="post" action={`/workout/edit/${id}`} className="workout-dialog__buttons">
					<input type="hidden" name="action" value="delete" />
					<button type="button" onClick={() => dialog.current?.close()}>
						Cancel
					</button>
					<button type="submit" className="danger">
						Delete workout
					</button>
				</form>
			</dialog>
		</>
	);
}
