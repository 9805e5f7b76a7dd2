import { type FormEvent, useEffect, useState } from 'react';
import { api, ensureSession, errorCode, loginPath } from '../../lib/api/client';
import { clearSession } from '../../lib/auth/store';
import { PasswordField } from '../auth/ui';
import '../auth/forms.scss';

/** Deletion needs the password again: a borrowed, still-open browser is not enough. */
export default function DeleteAccount(props: { doneHref: string }) {
	const [userId, setUserId] = useState<number | null>(null);
	const [password, setPassword] = useState('');
	const [confirmed, setConfirmed] = useState(false);
	const [error, setError] = useState('');
	const [busy, setBusy] = useState(false);
	const [done, setDone] = useState(false);

	useEffect(() => {
		ensureSession().then((session) => {
			if (!session) window.location.assign(loginPath());
			else setUserId(session.user.id);
		});
	}, []);

	async function submit(event: FormEvent) {
		event.preventDefault();
		if (!password) return setError('Password is required.');
		if (!confirmed) return setError('Tick the box to confirm that you want to delete your account.');
		setBusy(true);
		setError('');
		try {
			await api(`/auth/deletion-request/${userId}`, { method: 'DELETE', body: { password } });
			clearSession();
			setDone(true);
		} catch (failure) {
			const code = errorCode(failure);
			setError(
				code === 'access_denied'
					? 'That password is not right.'
					: code === 'too_many_attempts'
						? 'Too many attempts. Try again later.'
						: 'Your account could not be deleted. Please try again.',
			);
		} finally {
			setBusy(false);
		}
	}

	if (done)
		return (
			<p className="form-note" role="status">
				Your account and everything in it are deleted, and you are logged out.{' '}
				<a href={props.doneHref}>Close</a>
			</p>
		);
	if (userId === null) return <p role="status">Loading…</p>;
	return (
		<form className="auth-form" onSubmit={submit} noValidate>
			<p>
				Deleting your account removes your profile, photo, workouts, routes and settings for good, and logs
				you out everywhere. This cannot be undone.
			</p>
			<input type="text" name="username" autoComplete="username" hidden readOnly />
			<PasswordField
				label="Your password"
				value={password}
				onChange={setPassword}
				autoComplete="current-password"
				error={error}
			/>
			<label className="check">
				<input
					type="checkbox"
					name="confirm"
					checked={confirmed}
					onChange={(event) => setConfirmed(event.target.checked)}
				/>
				<span>I understand that my account and data will be deleted permanently.</span>
			</label>
			<button className="danger" type="submit" disabled={busy}>
				{busy ? 'Deleting…' : 'Delete my account'}
			</button>
		</form>
	);
}
