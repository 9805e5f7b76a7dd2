import * as v from 'valibot';
import { idText } from '../core/integers';

/**
 * The kinds of e-mail a member may turn off. Everything else the product sends (address
 * confirmation, password reset and change, data exports, receipts, answers to a support request)
 * is about the member's account or something they asked for, and always goes out.
 */
export const EMAIL_CATEGORIES = ['friend_requests'] as const;
export type EmailCategory = (typeof EMAIL_CATEGORIES)[number];

/** `label` names the setting; `kind` fits in a sentence ("friend-request e-mails"). */
export const EMAIL_CATEGORY_LABELS: Record<EmailCategory, { label: string; kind: string; hint: string }> = {
	friend_requests: {
		label: 'Friend requests',
		kind: 'friend-request',
		hint: 'An e-mail when someone asks to be your friend.',
	},
};

export const EmailCategorySchema = v.picklist(EMAIL_CATEGORIES, 'category must be one of the e-mail kinds.');

/** A member's choice: the kinds of e-mail they do not want (every other kind is sent). */
export const EmailOptOutsSchema = v.object({
	opted_out: v.pipe(
		v.array(EmailCategorySchema, 'opted_out must be a list of e-mail kinds.'),
		v.maxLength(EMAIL_CATEGORIES.length),
	),
});
export type EmailOptOutsInput = v.InferOutput<typeof EmailOptOutsSchema>;

export type EmailPreference = {
	category: EmailCategory;
	label: string;
	kind: string;
	hint: string;
	subscribed: boolean;
};

/** The query of an unsubscribe link: which member, which kind, and the signature binding the two. */
export const UnsubscribeQuerySchema = v.object({
	member: idText('member must be a member id.'),
	category: EmailCategorySchema,
	token: v.pipe(v.string(), v.regex(/^[\w-]{43}$/, 'token must be an unsubscribe token.')),
});
export type UnsubscribeQuery = v.InferOutput<typeof UnsubscribeQuerySchema>;

/** The page an unsubscribe link in a message body opens. */
export const UNSUBSCRIBE_PAGE = '/email/unsubscribe';
/** Where mail programs post the one-click unsubscribe of RFC 8058. */
export const ONE_CLICK_UNSUBSCRIBE_API = '/api/internal/emailOptOuts/one-click';

/** The settings form ticks the kinds a member wants; every kind left unticked is opted out of. */
export function optOutsFromForm(form: FormData): EmailCategory[] {
	const wanted = new Set(form.getAll('subscribed'));
	return EMAIL_CATEGORIES.filter((category) => !wanted.has(category));
}
