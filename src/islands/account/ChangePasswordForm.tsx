import { type FormEvent, useState } from 'react';
import type { SelfUser } from '../../lib/account/contract';
import { api, errorData } from '../../lib/api/client';
import { FormAlert, fieldErrors, PasswordField } from '../auth/ui';
import '../auth/forms.scss';

type Answer = { status: 'changed'; ended_sessions: number };

/**
 * Change the password while signed in: the current one, then a new one that meets the signup
 * rules (ticked as the member types) and its confirmation. The other sign-ins end; this one stays.
 */
export function ChangePasswordForm(props: { user: SelfUser; onChanged?: () => void }) {
	const [current, setCurrent] = useState('');
	const [next, setNext] = useState('');
	const [confirm, setConfirm] = useState('');
	const [errors, setErrors] = useState<Record<string, string>>({});
	const [alert, setAlert] = useState('');
	const [done, setDone] = useState('');
	const [busy, setBusy] = useState(false);

	async function submit(event: FormEvent) {
		event.preventDefault();
		setDone('');
		setAlert('');
		const found: Record<string, string> = {};
		if (!current) found.current_password = 'Enter your current password.';
		if (!next) found.new_password = 'Choose a new password.';
		if (next && confirm !== next) found.confirm_password = 'The two new passwords are not the same.';
		setErrors(found);
		if (Object.keys(found).length > 0) return;
		setBusy(true);
		try {
			const answer = await api<Answer>('/auth/password/change', {
				method: 'POST',
				body: { current_password: current, new_password: next },
			});
			setCurrent('');
			setNext('');
			setConfirm('');
			setDone(
				answer.ended_sessions === 0
					? 'Your password is changed. You are still logged in here.'
					: `Your password is changed. You are still logged in here; ${answer.ended_sessions === 1 ? 'your other session was' : `your ${answer.ended_sessions} other sessions were`} logged out.`,
			);
			props.onChanged?.();
		} catch (error) {
			const data = errorData(error);
			const fields = fieldErrors(data);
			setErrors(fields);
			if (Object.keys(fields).length === 0)
				setAlert(data.message ?? 'Your password could not be changed. Please try again.');
		} finally {
			setBusy(false);
		}
	}

	return (
		<section aria-labelledby="change-password-heading">
			<h3 id="change-password-heading">Change your password</h3>
			<form className="auth-form" onSubmit={submit} noValidate aria-busy={busy}>
				<FormAlert>{alert}</FormAlert>
				{done && (
					<p className="form-success" role="status">
						{done}
					</p>
				)}
				<input
					type="email"
					name="username"
					autoComplete="username"
					value={props.user.email}
					hidden
					readOnly
				/>
				<PasswordField
					label="Current password"
					name="current_password"
					value={current}
					onChange={setCurrent}
					autoComplete="current-password"
					error={errors.current_password}
				/>
				<PasswordField
					label="New password"
					name="new_password"
					value={next}
					onChange={setNext}
					autoComplete="new-password"
					error={errors.new_password}
					rules={{ related: [props.user.email, props.user.first_name, props.user.last_name] }}
				/>
				<PasswordField
					label="Confirm new password"
					name="confirm_password"
					value={confirm}
					onChange={setConfirm}
					autoComplete="new-password"
					error={errors.confirm_password}
				/>
				<p className="form-note">Changing it logs you out on every other device; you stay logged in here.</p>
				<button className="primary" type="submit" disabled={busy}>
					Change password
				</button>
			</form>
		</section>
	);
}
