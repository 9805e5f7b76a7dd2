import { useEffect, useState } from 'react';
import { api } from '../../lib/api/client';
import { FormAlert } from './ui';

/** Confirms the address once the page has loaded (a POST, so mail scanners fetching the link confirm nothing). */
export default function VerifyEmail(props: { token: string }) {
	const [status, setStatus] = useState<'loading' | 'confirmed' | 'error'>('loading');
	useEffect(() => {
		api(`/auth/email/confirm/${encodeURIComponent(props.token)}`, { method: 'POST', noRefresh: true })
			// The outcome stays on this page: /email_verified is open to anyone and confirms nothing.
			.then(() => setStatus('confirmed'))
			.catch(() => setStatus('error'));
	}, [props.token]);
	if (status === 'loading') return <p role="status">Confirming your email address…</p>;
	if (status === 'confirmed')
		return (
			<p className="form-note" role="status">
				Thank you — your email address is confirmed. <a href="/routes/my_routes/">Go to your routes</a>.
			</p>
		);
	return (
		<FormAlert>
			This confirmation link is invalid, was already used or has expired.{' '}
			<a href="/account/contact/">See whether your address is confirmed, or send a new link</a>.
		</FormAlert>
	);
}
