import { and, eq, isNull } from 'drizzle-orm';
import type { AppDeps } from '../../core/server/deps';
import { hashToken, newOpaqueToken } from './session';
import { oneTimeTokens } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** What a single-use token is for: a mailed link, or the code step of one sign-in. */
export type OneTimePurpose = 'password_reset' | 'email_verify' | 'second_factor';

/** A new single-use token, stored hashed; only the newest of a purpose works, earlier ones die now. */
export async function issueOneTimeToken(
	deps: Deps,
	userId: number,
	purpose: OneTimePurpose,
	seconds: number,
	redirectUri?: string | null,
): Promise<string> {
	const now = deps.clock();
	const token = newOpaqueToken();
	await deps.db.transaction(async (tx) => {
		await tx
			.update(oneTimeTokens)
			.set({ usedAt: now })
			.where(
				and(
					eq(oneTimeTokens.userId, userId),
					eq(oneTimeTokens.purpose, purpose),
					isNull(oneTimeTokens.usedAt),
				),
			);
		await tx.insert(oneTimeTokens).values({
			userId,
			purpose,
			tokenHash: hashToken(token),
			createdAt: now,
			expiresAt: new Date(now.getTime() + seconds * 1000),
			redirectUri: redirectUri ?? null,
		});
	});
	return token;
}

/** Marks a token used, unless someone else just did: single use even under a race. */
export async function consumeOneTimeToken(deps: Deps, id: number): Promise<boolean> {
	const used = await deps.db
		.update(oneTimeTokens)
		.set({ usedAt: deps.clock() })
		.where(and(eq(oneTimeTokens.id, id), isNull(oneTimeTokens.usedAt)))
		.returning({ id: oneTimeTokens.id });
	return used.length === 1;
}
