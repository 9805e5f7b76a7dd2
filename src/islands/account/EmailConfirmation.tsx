import { useState } from 'react';
import type { SelfUser } from '../../lib/account/contract';
import { api, errorData } from '../../lib/api/client';

/** The member's address, whether it is confirmed, and a way to get a new confirmation link. */
export function EmailConfirmation(props: { user: SelfUser }) {
	const [message, setMessage] = useState('');
	const [busy, setBusy] = useState(false);

	async function resend() {
		setBusy(true);
		try {
			const answer = await api<{ status: 'sent' | 'already_confirmed' }>('/auth/email/resend', {
				method: 'POST',
			});
			setMessage(
				answer.status === 'sent'
					? `We sent a new link to ${props.user.email}. Open it within 7 days to confirm your address.`
					: 'Your email address is already confirmed.',
			);
		} catch (error) {
			setMessage(errorData(error).message ?? 'We could not send the mail. Please try again later.');
		} finally {
			setBusy(false);
		}
	}

	return (
		<dl>
			<dt>Email</dt>
			<dd>
				{props.user.email} {props.user.email_verified ? '(confirmed)' : '(not confirmed yet)'}
				{!props.user.email_verified && (
					<>
						{' '}
						<button type="button" className="secondary" onClick={resend} disabled={busy}>
							Send a new confirmation link
						</button>
					</>
				)}
				<span role="status">{message && ` ${message}`}</span>
			</dd>
		</dl>
	);
}
