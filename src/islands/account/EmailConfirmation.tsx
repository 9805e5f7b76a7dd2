import type { SelfUser } from '../../lib/account/contract';
import ResendConfirmation from './ResendConfirmation';

/** The member's address, whether it is confirmed, and a way to get a new confirmation link. */
export function EmailConfirmation(props: { user: SelfUser }) {
	return (
		<dl>
			<dt>Email</dt>
			<dd>
				{props.user.email} {props.user.email_verified ? '(confirmed)' : '(not confirmed yet)'}
				{!props.user.email_verified && (
					<>
						{' '}
						<ResendConfirmation email={props.user.email} />
					</>
				)}
			</dd>
		</dl>
	);
}
