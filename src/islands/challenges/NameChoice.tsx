import { useStore } from '@nanostores/react';
import { type FormEvent, useEffect, useRef } from 'react';
import { $nameChoiceStatus, saveNameChoice } from '../../lib/challenges/store';

export type NameChoiceProps = { challengeId: number; showName: boolean; action: string };

const MESSAGES = {
	idle: '',
	saving: 'Saving…',
	saved: 'Saved.',
	error: 'That did not save. Try again.',
} as const;

/**
 * Whether the member's name shows on the leaderboard. With script the choice saves as it changes
 * (a tick made before the script loaded is saved once it has); without script the form posts.
 */
export default function NameChoice({ challengeId, showName, action }: NameChoiceProps) {
	const status = useStore($nameChoiceStatus);
	const box = useRef<HTMLInputElement>(null);
	const save = async () => {
		const input = box.current;
		if (!input) return;
		const wanted = input.checked;
		if (!(await saveNameChoice(challengeId, wanted))) input.checked = !wanted;
	};
	// biome-ignore lint/correctness/useExhaustiveDependencies: only the state the page was drawn with matters
	useEffect(() => {
		if (box.current && box.current.checked !== showName) void save();
	}, []);
	const submit = (event: FormEvent) => {
		event.preventDefault();
		void save();
	};
	return (
		<form method="post" action={action} onSubmit={submit} className="name-choice">
			<input type="hidden" name="action" value="name" />
			<label>
				<input
					ref={box}
					type="checkbox"
					name="show_name"
					defaultChecked={showName}
					onChange={() => void save()}
					data-testid="name-choice"
				/>{' '}
				Show my name on the leaderboard (otherwise “Athlete #n”)
			</label>{' '}
			<noscript>
				<button type="submit">Save</button>
			</noscript>
			<span role="status" data-testid="name-choice-status">
				{MESSAGES[status]}
			</span>
		</form>
	);
}
