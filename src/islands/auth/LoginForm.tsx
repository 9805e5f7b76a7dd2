import { type FormEvent, useEffect, useRef, useState } from 'react';
import { api, ensureSession, errorCode, errorData } from '../../lib/api/client';
import { MESSAGES, safeNextPath } from '../../lib/auth/contract';
import { applyToken, type TokenAnswer } from '../../lib/auth/store';
import { useFormTakeover } from '../form-takeover';
import { EmailField, FormAlert, fieldErrors, PasswordField, SecondFactorCodeField } from './ui';
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
	// Set once the password was right for a member whose two-step sign-in is on.
	const [challenge, setChallenge] = useState<string | null>(null);
	const [code, setCode] = useState('');
	const [remember, setRemember] = useState(false);

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
			goOn(answer);
		} catch (error) {
			const code = errorCode(error);
			const data = errorData(error) as ReturnType<typeof errorData> & { challenge?: string };
			if (code === 'second_factor_required' && data.challenge) {
				setChallenge(data.challenge);
				setBusy(false);
				return;
			}
			if (code === 'access_denied') setAlert(MESSAGES.accessDenied);
			else if (code === 'too_many_attempts')
				setAlert('Too many attempts. Wait a few minutes, or reset your password to log in now.');
			else if (data.fields?.length) setErrors(fieldErrors(data));
			else setAlert('Something went wrong. Please try again.');
			setBusy(false);
		}
	}

	function goOn(answer: TokenAnswer) {
		applyToken(answer);
		window.location.assign(
			answer.consents_pending
				? `/privacy_center/consents?next=${encodeURIComponent(nextPath())}`
				: nextPath(),
		);
	}

	async function submitCode(event: FormEvent) {
		event.preventDefault();
		setAlert('');
		setErrors({});
		if (!code.trim()) {
			setErrors({ code: 'Enter the code from your authenticator app.' });
			return;
		}
		setBusy(true);
		try {
			goOn(
				await api<TokenAnswer>('/auth/login/second_factor', {
					method: 'POST',
					body: { challenge, code: code.trim(), remember_device: remember },
					noRefresh: true,
				}),
			);
		} catch (error) {
			const problem = errorCode(error);
			const data = errorData(error);
			if (problem === 'challenge_expired') {
				setChallenge(null);
				setCode('');
				setPassword('');
				setAlert(data.message ?? 'This sign-in took too long. Enter your email and password again.');
			} else if (problem === 'too_many_attempts')
				setAlert('Too many wrong codes. Wait a few minutes before you try again.');
			else if (problem === 'invalid_code')
				setErrors({
					code: 'That code is not right, or was already used. Try the newest code from your app.',
				});
			else if (data.fields?.length) setErrors(fieldErrors(data));
			else setAlert('Something went wrong. Please try again.');
			setBusy(false);
		}
	}

	if (challenge)
		return (
			<form
				className="auth-form"
				onSubmit={submitCode}
				noValidate
				aria-busy={busy}
				data-testid="second-factor-form"
			>
				<FormAlert>{alert}</FormAlert>
				<p>Two-step sign-in is on for this account: enter the code your authenticator app shows now.</p>
				<SecondFactorCodeField value={code} onChange={setCode} error={errors.code} />
				<label className="check">
					<input type="checkbox" checked={remember} onChange={(event) => setRemember(event.target.checked)} />
					<span>Remember this device for 30 days</span>
				</label>
				<button className="primary" type="submit" disabled={busy}>
					{busy ? 'Checking…' : 'Verify and log in'}
				</button>
				<div className="form-links">
					<button
						type="button"
						className="link-button"
						onClick={() => {
							setChallenge(null);
							setCode('');
							setAlert('');
							setErrors({});
						}}
					>
						Use another account
					</button>
				</div>
			</form>
		);

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
