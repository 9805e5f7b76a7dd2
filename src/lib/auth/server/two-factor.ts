import {
	createCipheriv,
	createDecipheriv,
	createHash,
	createHmac,
	randomBytes,
	timingSafeEqual,
} from 'node:crypto';
import { and, count, eq, isNotNull, isNull, lt } from 'drizzle-orm';
import { Secret, TOTP } from 'otpauth';
import QRCode from 'qrcode';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { getVariant } from '../../site/variants';
import { consumeOneTimeToken, issueOneTimeToken } from './one-time-tokens';
import { hashToken } from './session';
import { memberAuthenticators, oneTimeTokens, recoveryCodes } from './tables';
import { countAttempt, secondFactorAccount } from './throttle';

/**
 * A second factor for signing in: an authenticator app's six-digit codes (TOTP, RFC 6238: SHA-1, 30 s,
 * one step either side for clocks that drift), ten one-time recovery codes, and a "remember this device"
 * cookie. A password alone then no longer signs anyone in; a reset by e-mail changes the password only.
 */
type Deps = Pick<AppDeps, 'db' | 'clock' | 'config'>;

const PERIOD_S = 30;
export const RECOVERY_CODE_COUNT = 10;
/** How long the code step of a sign-in may take after the password was right. */
export const CHALLENGE_SECONDS = 5 * 60;
export const REMEMBER_DEVICE_DAYS = 30;
export const REMEMBER_DEVICE_COOKIE = 'mapstride_device';
const CHALLENGE_PURPOSE = 'second_factor' as const;

const keyOf = (config: Deps['config'], use: string) =>
	createHash('sha256').update(`mapstride ${use}\0${config.sessionSecret}`).digest();

/** AES-256-GCM under a key only the server holds: a copy of the database alone does not give codes away. */
function seal(config: Deps['config'], secret: string): string {
	const iv = randomBytes(12);
	const cipher = createCipheriv('aes-256-gcm', keyOf(config, 'authenticator'), iv);
	const body = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
	return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

function unseal(config: Deps['config'], sealed: string): string {
	const bytes = Buffer.from(sealed, 'base64url');
	const decipher = createDecipheriv('aes-256-gcm', keyOf(config, 'authenticator'), bytes.subarray(0, 12));
	decipher.setAuthTag(bytes.subarray(12, 28));
	return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString('utf8');
}

function totpOf(config: Deps['config'], secret: string, label: string): TOTP {
	return new TOTP({
		issuer: getVariant(config.siteVariant).name,
		label,
		algorithm: 'SHA1',
		digits: 6,
		period: PERIOD_S,
		secret: Secret.fromBase32(secret),
	});
}

const normaliseRecoveryCode = (code: string) => code.replace(/[\s-]/g, '').toLowerCase();
const hashRecoveryCode = (userId: number, code: string) =>
	createHash('sha256')
		.update(`${userId}:${normaliseRecoveryCode(code)}`)
		.digest('hex');

/** Ten codes of ten base32 letters (50 bits each), written as two groups of five. */
function newRecoveryCodes(): string[] {
	const alphabet = 'abcdefghijkmnpqrstuvwxyz23456789';
	return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
		const bytes = randomBytes(10);
		const letters = [...bytes].map((byte) => alphabet[byte % 32]).join('');
		return `${letters.slice(0, 5)}-${letters.slice(5)}`;
	});
}

export type TwoFactorStatus = { enabled: boolean; recoveryCodesLeft: number };

export async function twoFactorStatus(deps: Pick<AppDeps, 'db'>, userId: number): Promise<TwoFactorStatus> {
	const [row] = await deps.db
		.select({ enabledAt: memberAuthenticators.enabledAt })
		.from(memberAuthenticators)
		.where(eq(memberAuthenticators.userId, userId));
	if (!row?.enabledAt) return { enabled: false, recoveryCodesLeft: 0 };
	const [left] = await deps.db
		.select({ n: count() })
		.from(recoveryCodes)
		.where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
	return { enabled: true, recoveryCodesLeft: Number(left?.n ?? 0) };
}

/**
 * A new secret for the member to add to their authenticator app: as text, as an otpauth:// link and
 * as a QR code. It counts only once a code from it is confirmed; until then signing in is unchanged.
 */
export async function startTwoFactorSetup(
	deps: Deps,
	user: { id: number; email: string },
): Promise<{ secret: string; uri: string; qrSvg: string }> {
	if ((await twoFactorStatus(deps, user.id)).enabled)
		throw new AppError('conflict', 'Two-step sign-in is already on. Turn it off first to use another app.', {
			detail: 'already_enabled',
		});
	const secret = new Secret({ size: 20 }).base32;
	const sealedSecret = seal(deps.config, secret);
	await deps.db
		.insert(memberAuthenticators)
		.values({ userId: user.id, sealedSecret, enabledAt: null, lastStep: 0, createdAt: deps.clock() })
		.onConflictDoUpdate({
			target: memberAuthenticators.userId,
			set: { sealedSecret, enabledAt: null, lastStep: 0, createdAt: deps.clock() },
		});
	const uri = totpOf(deps.config, secret, user.email).toString();
	const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
	return { secret, uri, qrSvg };
}

/**
 * Accepts a code from the member's app at most once: the step it belongs to must be later than the last
 * one accepted, and the update that records it is the check, so two requests with one code cannot both pass.
 */
async function acceptCode(deps: Deps, userId: number, code: string, pending: boolean): Promise<boolean> {
	if (!/^\d{6}$/.test(code)) return false;
	const [row] = await deps.db
		.select()
		.from(memberAuthenticators)
		.where(eq(memberAuthenticators.userId, userId));
	if (!row || (row.enabledAt === null) !== pending) return false;
	const now = deps.clock().getTime();
	const delta = totpOf(deps.config, unseal(deps.config, row.sealedSecret), '').validate({
		token: code,
		timestamp: now,
		window: 1,
	});
	if (delta === null) return false;
	const step = Math.floor(now / 1000 / PERIOD_S) + delta;
	const accepted = await deps.db
		.update(memberAuthenticators)
		.set({ lastStep: step, ...(pending ? { enabledAt: deps.clock() } : {}) })
		.where(
			and(
				eq(memberAuthenticators.userId, userId),
				lt(memberAuthenticators.lastStep, step),
				pending ? isNull(memberAuthenticators.enabledAt) : isNotNull(memberAuthenticators.enabledAt),
			),
		)
		.returning({ userId: memberAuthenticators.userId });
	return accepted.length === 1;
}

async function acceptRecoveryCode(deps: Deps, userId: number, code: string): Promise<boolean> {
	const used = await deps.db
		.update(recoveryCodes)
		.set({ usedAt: deps.clock() })
		.where(
			and(
				eq(recoveryCodes.userId, userId),
				eq(recoveryCodes.codeHash, hashRecoveryCode(userId, code)),
				isNull(recoveryCodes.usedAt),
			),
		)
		.returning({ id: recoveryCodes.id });
	return used.length === 1;
}

const wrongCode = () =>
	new AppError(
		'unauthenticated',
		'That code is not right, or was already used. Try the newest code from your app.',
		{
			detail: 'invalid_code',
			failures: [{ field: 'code', message: 'That code is not right, or was already used.' }],
		},
	);

/**
 * A code (from the app, or a recovery code) for a member whose second factor is on, counted like a
 * password: ten wrong ones for an account from one address pause it for 15 minutes, and every address
 * has its daily allowance. Throws when it is not right.
 */
export async function checkSecondFactor(
	deps: Deps,
	userId: number,
	code: string,
	context: { ip: string },
): Promise<void> {
	const attempt = await countAttempt(deps, { ip: context.ip, account: secondFactorAccount(userId) });
	const trimmed = code.trim();
	const right = /^\d{6}$/.test(trimmed)
		? await acceptCode(deps, userId, trimmed, false)
		: await acceptRecoveryCode(deps, userId, trimmed);
	if (!right) throw wrongCode();
	await attempt.succeeded();
}

/** Turns the second factor on with the first code from the app; answers the recovery codes, shown this once. */
export async function confirmTwoFactor(
	deps: Deps,
	userId: number,
	code: string,
	context: { ip: string },
): Promise<{ recoveryCodes: string[] }> {
	// The member is signed in: their address's daily allowance is not at stake.
	const attempt = await countAttempt(deps, {
		ip: context.ip,
		account: secondFactorAccount(userId),
		perAddress: false,
	});
	if (!(await acceptCode(deps, userId, code.trim(), true))) throw wrongCode();
	await attempt.succeeded();
	const codes = newRecoveryCodes();
	await deps.db.transaction(async (tx) => {
		await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
		await tx
			.insert(recoveryCodes)
			.values(codes.map((c) => ({ userId, codeHash: hashRecoveryCode(userId, c) })));
	});
	return { recoveryCodes: codes };
}

/** Removes the authenticator and its recovery codes; remembered devices stop counting with them. */
export async function removeTwoFactor(deps: Pick<AppDeps, 'db'>, userId: number): Promise<void> {
	await deps.db.transaction(async (tx) => {
		await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
		await tx.delete(memberAuthenticators).where(eq(memberAuthenticators.userId, userId));
	});
}

/** When the member's second factor was turned on, or null when it is off (or not yet confirmed). */
async function enabledAt(deps: Pick<AppDeps, 'db'>, userId: number): Promise<Date | null> {
	const [row] = await deps.db
		.select({ enabledAt: memberAuthenticators.enabledAt })
		.from(memberAuthenticators)
		.where(eq(memberAuthenticators.userId, userId));
	return row?.enabledAt ?? null;
}

function deviceSignature(config: Deps['config'], userId: number, expires: number, since: Date): string {
	return createHmac('sha256', keyOf(config, 'remembered device'))
		.update(`${userId}.${expires}.${since.getTime()}`)
		.digest('base64url');
}

/** The cookie value that lets this browser skip the code for this member until it expires. */
export async function rememberDevice(deps: Deps, userId: number): Promise<{ value: string; maxAge: number }> {
	const since = await enabledAt(deps, userId);
	if (!since) throw new AppError('conflict', 'Two-step sign-in is off.', { detail: 'not_enabled' });
	const maxAge = REMEMBER_DEVICE_DAYS * 24 * 3600;
	const expires = Math.floor(deps.clock().getTime() / 1000) + maxAge;
	return { value: `${userId}.${expires}.${deviceSignature(deps.config, userId, expires, since)}`, maxAge };
}

/**
 * Whether signing this member in needs a code: their second factor is on, and this browser does not
 * hold a live "remember this device" cookie for them from since it was turned on.
 */
export async function needsSecondFactor(
	deps: Deps,
	userId: number,
	deviceCookie: string | undefined,
): Promise<boolean> {
	const since = await enabledAt(deps, userId);
	if (!since) return false;
	const [id, expires, signature] = (deviceCookie ?? '').split('.');
	if (Number(id) !== userId || !(Number(expires) > deps.clock().getTime() / 1000) || !signature) return true;
	const expected = Buffer.from(deviceSignature(deps.config, userId, Number(expires), since));
	const given = Buffer.from(signature);
	return !(expected.length === given.length && timingSafeEqual(expected, given));
}

/** A short-lived token for the code step of one sign-in, once the password was right. */
export function issueSignInChallenge(deps: Deps, userId: number): Promise<string> {
	return issueOneTimeToken(deps, userId, CHALLENGE_PURPOSE, CHALLENGE_SECONDS);
}

const challengeExpired = () =>
	new AppError('unauthenticated', 'This sign-in took too long. Enter your email and password again.', {
		detail: 'challenge_expired',
	});

/** The member a live challenge belongs to; it stays usable for another try until a code is right. */
export async function challengedMember(deps: Deps, token: string): Promise<{ userId: number; id: number }> {
	if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw challengeExpired();
	const [row] = await deps.db
		.select()
		.from(oneTimeTokens)
		.where(and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.purpose, CHALLENGE_PURPOSE)));
	if (!row || row.usedAt || row.expiresAt <= deps.clock()) throw challengeExpired();
	return { userId: row.userId, id: row.id };
}

/** Spends a challenge once its code was right: a second request with it finds it used. */
export async function spendChallenge(deps: Deps, id: number): Promise<void> {
	if (!(await consumeOneTimeToken(deps, id))) throw challengeExpired();
}
