import { type FormEvent, useRef, useState } from 'react';
import { api, errorCode } from '../../lib/api/client';
import { EMAIL_PATTERN, MESSAGES } from '../../lib/auth/contract';
import { useFormTakeover } from '../form-takeover';
import { EmailField, FormAlert } from './ui';
import './forms.scss';

/** The two links we mail: what asking for one calls, and what the member is told once it is asked for. */
const KINDS = {
	password_reset: {
		path: '/auth/password-reset',
		extra: { redirect_uri: '/auth/login' },
		button: 'Send reset link',
		sent: (email: string) =>
			`If an account uses ${email}, we have sent it a link to reset the password. The link works for 60 minutes.`,
	},
	email_verify: {
		path: '/auth/email/request',
		extra: {},
		button: 'Send a new confirmation link',
		sent: (email: string) =>
			`If ${email} belongs to an account whose address is not yet confirmed, we have sent it a new link. The link works for 7 days.`,
	},
} as const;

/** Asks for a new emailed link by address; the answer never says whether the address is a member's. */
export default function RequestLinkForm(props: { kind: keyof typeof KINDS }) {
	const kind = KINDS[props.kind];
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
			await api(kind.path, { method: 'POST', body: { email: value, ...kind.extra }, noRefresh: true });
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
				{kind.sent(email.trim())}
			</p>
		);
	return (
		<form ref={form} className="auth-form" onSubmit={submit} noValidate>
			<FormAlert>{alert}</FormAlert>
			<EmailField value={email} onChange={setEmail} error={error} />
			<button className="primary" type="submit" disabled={busy || !awake}>
				{kind.button}
			</button>
			<a href="/auth/login">Back to log in</a>
		</form>
	);
}
