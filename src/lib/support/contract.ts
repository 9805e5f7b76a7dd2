import * as v from 'valibot';
import { multiLineText, singleLineText } from '../core/text';

/** What a request is about; the support team sorts by it. */
export const SUPPORT_TOPICS = {
	account: 'Account and logging in',
	workouts: 'Workouts and tracking',
	routes: 'Routes and maps',
	membership: 'MVP membership and billing',
	privacy: 'Privacy and my data',
	careers: 'Joining the Mapstride team',
	other: 'Something else',
} as const;
export type SupportTopic = keyof typeof SUPPORT_TOPICS;
export const SUPPORT_TOPIC_KEYS = Object.keys(SUPPORT_TOPICS) as SupportTopic[];

export const SUPPORT_MESSAGE_MAX = 5000;
/** Requests one member, or one address for visitors, may send in an hour. */
export const SUPPORT_REQUESTS_PER_HOUR = 5;

/** A workout or route page of ours, as a full address or a path. */
const LINK_PATTERN = /^(https?:\/\/[^/\s?#]+)?\/(workout|routes\/view)\/\d{1,12}\/?$/;

export const SupportRequestSchema = v.object({
	email: v.pipe(
		singleLineText('E-mail', 254),
		v.trim(),
		v.nonEmpty('Enter the e-mail address we should answer.'),
		v.email('Enter an e-mail address like name@example.com.'),
	),
	topic: v.picklist(SUPPORT_TOPIC_KEYS, 'Choose what your message is about.'),
	message: v.pipe(
		multiLineText('Message', SUPPORT_MESSAGE_MAX),
		v.trim(),
		v.nonEmpty('Write your message.'),
		v.minLength(10, 'Tell us a little more (at least 10 characters).'),
	),
	link: v.optional(
		v.pipe(
			singleLineText('Link', 300),
			v.trim(),
			v.check(
				(link) => link === '' || LINK_PATTERN.test(link),
				'Paste the address of one of your workouts or routes (…/workout/123 or …/routes/view/123).',
			),
		),
		'',
	),
});
export type SupportRequestInput = v.InferOutput<typeof SupportRequestSchema>;
export type SupportField = keyof SupportRequestInput;

/** The request as the support team reads it. */
export type SupportRequestView = {
	id: number;
	email: string;
	memberId: number | null;
	topic: SupportTopic;
	message: string;
	/** The linked page's path on this site, or null. */
	linkPath: string | null;
	createdAt: string;
};

/** The path part of an accepted link: the admin page and the e-mail link to our own site only. */
export function linkPathOf(link: string): string | null {
	if (!link) return null;
	const match = LINK_PATTERN.exec(link);
	return match ? link.slice(match[1]?.length ?? 0) : null;
}
