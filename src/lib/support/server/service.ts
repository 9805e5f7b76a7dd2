import { desc } from 'drizzle-orm';
import * as v from 'valibot';
import { createLimiter, spendOrRefuse } from '../../api/rate-limit';
import type { AppDeps, Db } from '../../core/server/deps';
import { queueMail } from '../../mail/server/service';
import {
	linkPathOf,
	SUPPORT_REQUESTS_PER_HOUR,
	SUPPORT_TOPICS,
	type SupportField,
	type SupportRequestInput,
	SupportRequestSchema,
	type SupportRequestView,
} from '../contract';
import { supportRequests } from './tables';

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;

/** Who is writing: a member is counted by id, a visitor by address. */
export type SupportSender = { memberId: number | null; ip: string };

// One budget per database, shared by the API and the page, so neither is a way around the other.
const budgets = new WeakMap<Db, ReturnType<typeof createLimiter>>();
function budgetOf(db: Db) {
	let limiter = budgets.get(db);
	if (!limiter) {
		limiter = createLimiter(db, {
			name: 'support-requests',
			points: SUPPORT_REQUESTS_PER_HOUR,
			duration: 3600,
		});
		budgets.set(db, limiter);
	}
	return limiter;
}

/**
 * Keeps the request, sends it to the support address (answers go straight to its author) and tells
 * the author it arrived. The acknowledgement does not repeat the message: the address of a
 * visitor is unproven, and our mail must not carry a stranger's words to it.
 */
export async function submitSupportRequest(
	deps: Deps,
	sender: SupportSender,
	input: SupportRequestInput,
): Promise<{ id: number }> {
	await spendOrRefuse(
		budgetOf(deps.db),
		sender.memberId ? `member:${sender.memberId}` : `address:${sender.ip}`,
		`At most ${SUPPORT_REQUESTS_PER_HOUR} messages to support an hour; try again later.`,
	);
	const linkPath = linkPathOf(input.link);
	const [row] = await deps.db
		.insert(supportRequests)
		.values({
			userId: sender.memberId,
			email: input.email,
			topic: input.topic,
			message: input.message,
			linkPath,
			createdAt: deps.clock(),
		})
		.returning({ id: supportRequests.id });
	const topic = SUPPORT_TOPICS[input.topic];
	const who = sender.memberId ? `member #${sender.memberId}` : 'a visitor (not logged in)';
	await queueMail(deps, {
		to: deps.config.supportEmail,
		internal: true,
		replyTo: input.email,
		subject: `Support request #${row.id}: ${topic}`,
		text: [
			`From: ${input.email}, ${who}`,
			`Topic: ${topic}`,
			`About: ${linkPath ? `${deps.config.publicUrl}${linkPath}` : 'no workout or route given'}`,
			'',
			input.message,
		].join('\n'),
	});
	await queueMail(deps, {
		to: input.email,
		userId: sender.memberId,
		subject: `We received your message (request #${row.id})`,
		text: `Hi,\n\nThank you for writing to Mapstride support about "${topic}". We read every message and answer at this address, usually within two working days.\n\nYour request number is #${row.id}.\n`,
	});
	return { id: row.id };
}

export type SupportFormState = {
	values: Record<SupportField, string>;
	errors: Partial<Record<SupportField, string>>;
};

/**
 * The form's fields as typed (a refused form comes back with them) and, when they are not
 * acceptable, the first problem with each (the page shows it beside the field).
 */
export function readSupportForm(form: FormData): SupportFormState & { input: SupportRequestInput | null } {
	const text = (name: SupportField) => {
		const value = form.get(name);
		return typeof value === 'string' ? value : '';
	};
	const values = { email: text('email'), topic: text('topic'), message: text('message'), link: text('link') };
	const parsed = v.safeParse(SupportRequestSchema, values);
	if (parsed.success) return { input: parsed.output, values, errors: {} };
	const errors: SupportFormState['errors'] = {};
	for (const issue of parsed.issues) {
		const field = issue.path?.[0]?.key as SupportField | undefined;
		if (field && !errors[field]) errors[field] = issue.message;
	}
	return { input: null, values, errors };
}

/** The newest requests, for the operators' page. */
export async function listSupportRequests(
	deps: Pick<AppDeps, 'db'>,
	limit = 100,
): Promise<SupportRequestView[]> {
	const rows = await deps.db
		.select()
		.from(supportRequests)
		.orderBy(desc(supportRequests.id))
		.limit(Math.min(Math.max(limit, 1), 500));
	return rows.map((row) => ({
		id: row.id,
		email: row.email,
		memberId: row.userId,
		topic: row.topic,
		message: row.message,
		linkPath: row.linkPath,
		createdAt: row.createdAt.toISOString(),
	}));
}
