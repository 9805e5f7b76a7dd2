import { useId } from 'react';
import type { SaveConflict } from '../../lib/routes/planner-save';

/**
 * The choice after a save that lost to a newer one: keep this planner's route (saved over the newer one) or take
 * the saved route into the planner. Nothing is saved or replaced until the member picks.
 */
export default function PlannerConflict({
	conflict,
	busy,
	onKeepMine,
	onTakeTheirs,
}: {
	conflict: SaveConflict;
	busy: boolean;
	onKeepMine: () => void;
	onTakeTheirs: () => void;
}) {
	const id = useId();
	return (
		<section className="planner__conflict" role="alert" aria-labelledby={id} data-testid="planner-conflict">
			<h2 id={id}>This route was saved somewhere else</h2>
			<p>
				Since you opened it (version {conflict.sentVersion}), "{conflict.savedName}" was saved again (version{' '}
				{conflict.savedVersion}), perhaps in another tab. Which one do you want to keep?
			</p>
			<button type="button" onClick={onKeepMine} disabled={busy}>
				Keep mine
			</button>
			<button type="button" onClick={onTakeTheirs} disabled={busy}>
				Take theirs
			</button>
		</section>
	);
}
