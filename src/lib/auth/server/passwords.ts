import argon2 from 'argon2';

export { checkPassword, type PasswordProblem } from '../password-rules';

/**
 * argon2id at OWASP's floor (19 MiB, 2 passes, 1 lane). On this class of machine a verify costs
 * ≈ 100 ms; stronger settings tripled login latency. The parameters travel inside each PHC
 * string, so raising them later rehashes members at their next login.
 */
export const ARGON2_PARAMS = {
	type: argon2.argon2id,
	memoryCost: 19_456,
	timeCost: 2,
	parallelism: 1,
} as const;

export function hashPassword(password: string): Promise<string> {
	return argon2.hash(password, ARGON2_PARAMS);
}

/** A fixed hash verified for unknown emails, so they cost the same time as known ones. */
let dummyHash: Promise<string> | undefined;

export async function verifyPassword(hash: string | null, password: string): Promise<boolean> {
	if (!hash) {
		dummyHash ??= hashPassword('not-a-member-password-for-timing-only');
		await argon2.verify(await dummyHash, password).catch(() => false);
		return false;
	}
	try {
		return await argon2.verify(hash, password);
	} catch {
		return false;
	}
}

export function needsRehash(hash: string): boolean {
	try {
		return argon2.needsRehash(hash, ARGON2_PARAMS);
	} catch {
		return true;
	}
}
