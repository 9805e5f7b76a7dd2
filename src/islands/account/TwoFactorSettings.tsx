import { type FormEvent, useEffect, useState } from 'react';
import { api, errorCode, errorData } from '../../lib/api/client';
import { FormAlert, fieldErrors, PasswordField, SecondFactorCodeField } from '../auth/ui';
import '../auth/forms.scss';

type Status = { enabled: boolean; recovery_codes_left: number };
type Setup = { secret: string; otpauth_uri: string; qr_svg: string };

/** What the member is doing with two-step sign-in right now. */
type Stage =
	| { kind: 'loading' }
	| { kind: 'off' }
	| { kind: 'asking-password' }
	| { kind: 'scanning'; setup: Setup }
	| { kind: 'showing-codes'; codes: string[] }
	| { kind: 'on'; left: number }
	| { kind: 'turning-off'; left: number };

function messageOf(error: unknown, fallback: string): { fields: Record<string, string>; alert: string } {
	const data = errorData(error);
	const fields = fieldErrors(data);
	if (errorCode(error) === 'too_many_attempts')
		return { fields, alert: 'Too many wrong tries. Wait a few minutes before you try again.' };
	if (errorCode(error) === 'access_denied')
		return { fields: { password: 'That password is not right.' }, alert: '' };
	if (errorCode(error) === 'invalid_code')
		return { fields: { code: 'That code is not right, or was already used.' }, alert: '' };
	return { fields, alert: Object.keys(fields).length ? '' : (data.message ?? fallback) };
}

/**
 * Two-step sign-in under Settings: turn it on with an authenticator app (QR code or the secret typed in,
 * confirmed by a first code), see the recovery codes once, and turn it off with the password and a code.
 */
export function TwoFactorSettings() {
	const [stage, setStage] = useState<Stage>({ kind: 'loading' });
	const [password, setPassword] = useState('');
	const [code, setCode] = useState('');
	const [errors, setErrors] = useState<Record<string, string>>({});
	const [alert, setAlert] = useState('');
	const [busy, setBusy] = useState(false);

	useEffect(() => {
		api<Status>('/auth/two_factor')
			.then((status) =>
				setStage(status.enabled ? { kind: 'on', left: status.recovery_codes_left } : { kind: 'off' }),
			)
			.catch(() =>
				setAlert('Your two-step sign-in settings could not be loaded. Reload the page to try again.'),
			);
	}, []);

	function reset() {
		setPassword('');
		setCode('');
		setErrors({});
		setAlert('');
	}

	async function run(work: () => Promise<void>, fallback: string) {
		setBusy(true);
		setErrors({});
		setAlert('');
		try {
			await work();
		} catch (error) {
			const { fields, alert: text } = messageOf(error, fallback);
			setErrors(fields);
			setAlert(text);
		} finally {
			setBusy(false);
		}
	}

	function startSetup(event: FormEvent) {
		event.preventDefault();
		if (!password) return setErrors({ password: 'Enter your password.' });
		void run(async () => {
			const setup = await api<Setup>('/auth/two_factor/setup', { method: 'POST', body: { password } });
			reset();
			setStage({ kind: 'scanning', setup });
		}, 'Two-step sign-in could not be set up. Please try again.');
	}

	function confirm(event: FormEvent) {
		event.preventDefault();
		if (!code.trim()) return setErrors({ code: 'Enter the code your app shows.' });
		void run(async () => {
			const answer = await api<{ recovery_codes: string[] }>('/auth/two_factor/confirm', {
				method: 'POST',
				body: { code: code.trim() },
			});
			reset();
			setStage({ kind: 'showing-codes', codes: answer.recovery_codes });
		}, 'The code could not be checked. Please try again.');
	}

	function turnOff(event: FormEvent, left: number) {
		event.preventDefault();
		const found: Record<string, string> = {};
		if (!password) found.password = 'Enter your password.';
		if (!code.trim()) found.code = 'Enter a code from your app, or a recovery code.';
		if (Object.keys(found).length) return setErrors(found);
		void run(async () => {
			await api('/auth/two_factor/disable', { method: 'POST', body: { password, code: code.trim() } });
			reset();
			setStage({ kind: 'off' });
			setAlert('');
		}, `Two-step sign-in could not be turned off (${left} recovery codes left). Please try again.`);
	}

	return (
		<section className="two-factor" aria-labelledby="two-factor-heading" data-testid="two-factor">
			<h3 id="two-factor-heading">Two-step sign-in</h3>
			<FormAlert>{alert}</FormAlert>
			{stage.kind === 'loading' && !alert && <p>Loading…</p>}
			{stage.kind === 'off' && (
				<>
					<p>
						Off. Turn it on and signing in asks, after your password, for a code from an authenticator app on
						your phone (such as Aegis, Google Authenticator or 1Password), so a stolen password alone is not
						enough.
					</p>
					<button type="button" className="secondary" onClick={() => setStage({ kind: 'asking-password' })}>
						Turn on two-step sign-in
					</button>
				</>
			)}
			{stage.kind === 'asking-password' && (
				<form className="auth-form" onSubmit={startSetup} noValidate aria-busy={busy}>
					<PasswordField
						label="Your password"
						name="password"
						value={password}
						onChange={setPassword}
						autoComplete="current-password"
						error={errors.password}
					/>
					<button className="primary" type="submit" disabled={busy}>
						{busy ? 'Checking…' : 'Continue'}
					</button>
				</form>
			)}
			{stage.kind === 'scanning' && (
				<form className="auth-form" onSubmit={confirm} noValidate aria-busy={busy}>
					<p>Scan this code with your authenticator app, then enter the six digits it shows.</p>
					<div
						className="qr-code"
						role="img"
						aria-label="QR code for your authenticator app"
						// The SVG is drawn by the server from the otpauth link it made; it holds no text of the member's.
						// biome-ignore lint/security/noDangerouslySetInnerHtml: server-drawn QR code of our own link
						dangerouslySetInnerHTML={{ __html: stage.setup.qr_svg }}
					/>
					<p>
						Cannot scan it? Type this key into the app instead:{' '}
						<code data-testid="two-factor-secret">{stage.setup.secret.replace(/(.{4})/g, '$1 ').trim()}</code>
					</p>
					<SecondFactorCodeField
						value={code}
						onChange={setCode}
						error={errors.code}
						hint="Six digits, as the app shows them now."
					/>
					<button className="primary" type="submit" disabled={busy}>
						{busy ? 'Checking…' : 'Turn on'}
					</button>
				</form>
			)}
			{stage.kind === 'showing-codes' && (
				<>
					<p role="status">
						Two-step sign-in is on. These recovery codes each let you in once if you lose your phone. They are
						shown only now: print them or keep them in your password manager.
					</p>
					<ul className="recovery-codes" data-testid="recovery-codes">
						{stage.codes.map((recovery) => (
							<li key={recovery}>{recovery}</li>
						))}
					</ul>
					<button
						type="button"
						className="primary"
						onClick={() => setStage({ kind: 'on', left: stage.codes.length })}
					>
						I have kept them
					</button>
				</>
			)}
			{stage.kind === 'on' && (
				<>
					<p>On: signing in asks for a code from your authenticator app. {stage.left} recovery codes left.</p>
					<button
						type="button"
						className="secondary"
						onClick={() => setStage({ kind: 'turning-off', left: stage.left })}
					>
						Turn off two-step sign-in
					</button>
				</>
			)}
			{stage.kind === 'turning-off' && (
				<form
					className="auth-form"
					onSubmit={(event) => turnOff(event, stage.left)}
					noValidate
					aria-busy={busy}
				>
					<PasswordField
						label="Your password"
						name="password"
						value={password}
						onChange={setPassword}
						autoComplete="current-password"
						error={errors.password}
					/>
					<SecondFactorCodeField value={code} onChange={setCode} error={errors.code} />
					<button className="danger" type="submit" disabled={busy}>
						{busy ? 'Turning off…' : 'Turn off'}
					</button>
				</form>
			)}
		</section>
	);
}
