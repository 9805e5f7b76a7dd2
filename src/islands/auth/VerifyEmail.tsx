import { useEffect, useState } from 'react';
import { api, errorCode } from '../../lib/api/client';
import { DeadLink, type DeadLinkReason, deadLinkReason } from './DeadLink';
import { FormAlert } from './ui';

/**
 * Confirms the address once the page has loaded (a POST, so mail scanners fetching the link confirm nothing).
 * `token` is null when the address holds no token of the shape we mail.
 */
export default function VerifyEmail(props: { token: string | null }) {
	const [status, setStatus] = useState<'loading' | 'confirmed' | 'failed' | DeadLinkReason>(
		props.token === null ? 'invalid_token' : 'loading',
	);
	useEffect(() => {
		if (props.token === null) return;
		api(`/auth/email/confirm/${encodeURIComponent(props.token)}`, { method: 'POST', noRefresh: true })
			// The outcome stays on this page: /email_verified is open to anyone and confirms nothing.
			.then(() => setStatus('confirmed'))
			.catch((failure) => setStatus(deadLinkReason(errorCode(failure)) ?? 'failed'));
	}, [props.token]);
	if (status === 'loading') return <p role="status">Confirming your email address…</p>;
	if (status === 'confirmed')
		return (
			<p className="form-note" role="status">
				Thank you — your email address is confirmed. <a href="/routes/my_routes/">Go to your routes</a>.
			</p>
		);
	if (status === 'failed')
		return <FormAlert>Your address could not be confirmed just now. Reload the page to try again.</FormAlert>;
	return <DeadLink kind="email_verify" reason={status} />;
}
