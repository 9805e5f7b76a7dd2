import RequestLinkForm from './RequestLinkForm';

/** What the server said of a link that no longer works (see LinkProblem in the auth service). */
export type DeadLinkReason = 'invalid_token' | 'used_token' | 'expired_token';

export function deadLinkReason(code: string): DeadLinkReason | null {
	return code === 'invalid_token' || code === 'used_token' || code === 'expired_token' ? code : null;
}

const LIFETIME = { password_reset: '60 minutes', email_verify: '7 days' } as const;

/**
 * Says why an emailed link does not work, as far as the link itself tells (never anything about the
 * account), and offers a new one right here.
 */
export function DeadLink(props: { kind: 'password_reset' | 'email_verify'; reason: DeadLinkReason }) {
	const { kind, reason } = props;
	const what = kind === 'password_reset' ? 'reset link' : 'confirmation link';
	const explanation = {
		invalid_token: `This ${what} is not valid. It may have been cut short or mistyped: open the whole link from the mail, or ask for a new one below.`,
		used_token:
			kind === 'email_verify'
				? `This ${what} was already used, or a newer one replaced it. If you confirmed your address with it, there is nothing more to do; otherwise ask for a new one below.`
				: `This ${what} was already used, or a newer one replaced it. Ask for a new one below.`,
		expired_token: `This ${what} has expired: it works for ${LIFETIME[kind]}. Ask for a new one below.`,
	}[reason];
	const heading = {
		invalid_token: 'This link is not valid',
		used_token: 'This link was already used',
		expired_token: 'This link has expired',
	}[reason];
	return (
		<div className="dead-link" data-reason={reason}>
			<h2>{heading}</h2>
			<p>{explanation}</p>
			<RequestLinkForm kind={kind} />
		</div>
	);
}
