import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, ensureSession, errorCode, errorData } from '../../lib/api/client';
import { MESSAGES, safeNextPath } from '../../lib/auth/contract';
import { applyToken, type TokenAnswer } from '../../lib/auth/store';
import { useFormTakeover } from '../form-takeover';
import { EmailField, FormAlert, fieldErrors, PasswordField } from './ui';
import './forms.scss';
import { trackEvent } from '../../lib/analytics/queue';

function nextPath(): string {
	return safeNextPath(new URLSearchParams(window.location.search).get('next'));
}

export default function LoginForm() {
	// The signup form's "email/used" link hands the address over.
	const [email, setEmail] = useState(() =>
		typeof window === 'undefined'
			? ''
			: (new URLSearchParams(window.location.search).get('email') ?? '').slice(0, 254),
	);
	const [password, setPassword] = useState('');
	const form = useRef<HTMLFormElement>(null);
	const awake = useFormTakeover(form, { email: setEmail, password: setPassword });
	const [errors, setErrors] = useState<Record<string, string>>({});
	const [alert, setAlert] = useState('');
	const [busy, setBusy] = useState(false);

	// Someone with a live session (say, arriving from a mail link) goes straight on.
	useEffect(() => {
		ensureSession().then((session) => {
			if (session) window.location.assign(nextPath());
		});
	}, []);

	async function submit(event: FormEvent) {
		event.preventDefault();
		setBusy(true);
		setAlert('');
		setErrors({});
		trackEvent('login_attempted');
		try {
			const answer = await api<TokenAnswer>('/auth/login', {
				method: 'POST',
				body: { email, password },
				noRefresh: true,
			});
			applyToken(answer);
			window.location.assign(
				answer.consents_pending
					? `/privacy_center/consents?next=${encodeURIComponent(nextPath())}`
					: nextPath(),
			);
		} catch (error) {
			const code = errorCode(error);
			const data = errorData(error);
			if (code === 'access_denied') setAlert(MESSAGES.accessDenied);
			else if (code === 'too_many_attempts')
				setAlert('Too many attempts. Wait a few minutes, or reset your password to log in now.');
			else if (data.fields?.length) setErrors(fieldErrors(data));
			else setAlert('Something went wrong. Please try again.');
			setBusy(false);
		}
	}

	const next = typeof window === 'undefined' ? '' : new URLSearchParams(window.location.search).get('next');
	const signupHref = next ? `/auth/signup?next=${encodeURIComponent(safeNextPath(next))}` : '/auth/signup';

	return (
		<form ref={form} className="auth-form" onSubmit={submit} noValidate aria-busy={busy}>
			<FormAlert>{alert}</FormAlert>
			<EmailField value={email} onChange={setEmail} error={errors.email} />
			<PasswordField
				label="Password"
				value={password}
				onChange={setPassword}
				autoComplete="current-password"
				error={errors.password}
			/>
			<button className="primary" type="submit" disabled={busy || !awake}>
				{busy ? 'Logging in…' : 'Log in'}
			</button>
			<div className="form-links">
				<a href="/auth/forgot_password/">Forgot password?</a>
				<a href={signupHref}>Sign up</a>
			</div>
		</form>
	);
}
