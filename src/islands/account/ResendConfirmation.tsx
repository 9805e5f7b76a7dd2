import { useState } from 'react';
import { api, errorData } from '../../lib/api/client';

/** A button that mails the signed-in member a new confirmation link, and says what happened. */
export default function ResendConfirmation(props: { email: string }) {
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
					? `We sent a new link to ${props.email}. Open it within 7 days to confirm your address.`
					: 'Your email address is already confirmed.',
			);
		} catch (error) {
			setMessage(errorData(error).message ?? 'We could not send the mail. Please try again later.');
		} finally {
			setBusy(false);
		}
	}

	return (
		<>
			<button type="button" className="secondary" onClick={resend} disabled={busy}>
				Send a new confirmation link
			</button>
			<span role="status">{message && ` ${message}`}</span>
		</>
	);
}
