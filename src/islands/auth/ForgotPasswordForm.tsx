import { type FormEvent, useRef, useState } from 'react';
import { api, errorCode } from '../../lib/api/client';
import { EMAIL_PATTERN, MESSAGES } from '../../lib/auth/contract';
import { useFormTakeover } from '../form-takeover';
import { EmailField, FormAlert } from './ui';
import './forms.scss';

export default function ForgotPasswordForm() {
	const [email, setEmail] = useState('');
	const form = useRef<HTMLFormElement>(null);
	const awake = useFormTakeover(form, { email: setEmail });
	const [error, setError] = useState('');
	const [alert, setAlert] = useState('');
	const [sent, setSent] = useState(false);
	const [busy, setBusy] = useState(false);

	async function submit(event: FormEvent) {
		event.preventDefault();
		const value = email.trim();
		if (!value) return setError('Email is required.');
		if (!EMAIL_PATTERN.test(value)) return setError(MESSAGES.invalidEmail);
		setError('');
		setAlert('');
		setBusy(true);
		try {
			await api('/auth/password-reset', {
				method: 'POST',
				body: { email: value, redirect_uri: '/auth/login' },
				noRefresh: true,
			});
			setSent(true);
		} catch (failure) {
			const code = errorCode(failure);
			setAlert(
				code === 'too_many_attempts'
					? 'Too many requests from here. Try again in an hour.'
					: 'Something went wrong. Please try again.',
			);
		} finally {
			setBusy(false);
		}
	}

	if (sent)
		return (
			<p className="form-note" role="status">
				If an account uses {email.trim()}, we have sent it a link to reset the password. The link works for 60
				minutes.
			</p>
		);
	return (
		<form ref={form} className="auth-form" onSubmit={submit} noValidate>
			<FormAlert>{alert}</FormAlert>
			<EmailField value={email} onChange={setEmail} error={error} />
			<button className="primary" type="submit" disabled={busy || !awake}>
				Send reset link
			</button>
			<a href="/auth/login">Back to log in</a>
		</form>
	);
}
