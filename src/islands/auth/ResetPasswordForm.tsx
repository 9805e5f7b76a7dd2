import { type FormEvent, useEffect, useState } from 'react';
import { api, errorCode, errorData } from '../../lib/api/client';
import { safeNextPath } from '../../lib/auth/contract';
import { DeadLink, type DeadLinkReason, deadLinkReason } from './DeadLink';
import { PasswordField } from './ui';
import './forms.scss';

type Status = 'loading' | 'ready' | 'success' | DeadLinkReason;

/** `token` is null when the address holds no token of the shape we mail: it cannot be one of ours. */
export default function ResetPasswordForm(props: { token: string | null }) {
	const [status, setStatus] = useState<Status>(props.token === null ? 'invalid_token' : 'loading');
	const [password, setPassword] = useState('');
	const [error, setError] = useState('');
	const [busy, setBusy] = useState(false);
	const [redirect, setRedirect] = useState('/auth/login');
	const path = `/auth/password/reset/${encodeURIComponent(props.token ?? '')}`;

	useEffect(() => {
		if (props.token === null) return;
		api(path, { noRefresh: true })
			.then(() => setStatus('ready'))
			.catch((failure) => setStatus(deadLinkReason(errorCode(failure)) ?? 'invalid_token'));
	}, [path, props.token]);

	async function submit(event: FormEvent) {
		event.preventDefault();
		if (!password) return setError('Password is required.');
		setBusy(true);
		setError('');
		try {
			const answer = await api<{ redirect_uri: string | null }>(path, {
				method: 'POST',
				body: { password },
				noRefresh: true,
			});
			setRedirect(safeNextPath(answer.redirect_uri, '/auth/login'));
			setStatus('success');
		} catch (failure) {
			const reason = deadLinkReason(errorCode(failure));
			if (reason) setStatus(reason);
			else setError(errorData(failure).message ?? 'Something went wrong. Please try again.');
		} finally {
			setBusy(false);
		}
	}

	if (status === 'loading') return <p role="status">Checking your link…</p>;
	if (status !== 'ready' && status !== 'success') return <DeadLink kind="password_reset" reason={status} />;
	if (status === 'success')
		return (
			<p className="form-note" role="status">
				Your password is changed and you are signed out everywhere. <a href={redirect}>Log in</a> with your
				new password.
			</p>
		);
	return (
		<form className="auth-form" onSubmit={submit} noValidate>
			<input type="email" name="username" autoComplete="username" hidden readOnly />
			<PasswordField
				label="New password"
				value={password}
				onChange={setPassword}
				autoComplete="new-password"
				error={error}
				rules={{ related: [] }}
			/>
			<button className="primary" type="submit" disabled={busy}>
				Set new password
			</button>
		</form>
	);
}
