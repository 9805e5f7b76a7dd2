import { randomInt } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import type { SelfUser } from '../../account/contract';
import { presentPublicUser, presentSelfUser } from '../../account/server/presenter';
import { AppError, type ValidationFailure } from '../../core/errors';
import type { AppDeps, Db } from '../../core/server/deps';
import { measurementSystemForPlace } from '../../core/units';
import { isUniqueViolation } from '../../db/errors';
import { type MailMessage, queueMail, queueMailJob } from '../../mail/server/service';
import { meetsMinimumAge } from '../../privacy/contract';
import { recordSignupConsents } from '../../privacy/server/consents';
import {
	type AuthField,
	type ChangePasswordBody,
	checkBirthdate,
	EMAIL_MAX_LENGTH,
	EMAIL_PATTERN,
	type LoginBody,
	MESSAGES,
	requiredMessage,
	type SignupBody,
	type Viewer,
} from '../contract';
import { ACCESS_TOKEN_SECONDS, signAccessToken } from './access-token';
import { consumeOneTimeToken as consumeToken, issueOneTimeToken as issueToken } from './one-time-tokens';
import { checkPassword, hashPassword, needsRehash, type PasswordProblem, verifyPassword } from './passwords';
import {
	createSession,
	findSessionFamily,
	hashToken,
	listSessions,
	revokeAllSessions,
	revokeSessionById,
	revokeSessionFamily,
	rotateSession,
} from './session';
import { oneTimeTokens, promotionalPreferences, users } from './tables';
import { clearAccountCounters, countAttempt, emailAccount, limitRequests } from './throttle';
import {
	challengedMember,
	checkSecondFactor,
	issueSignInChallenge,
	needsSecondFactor,
	spendChallenge,
} from './two-factor';

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;
export type RequestContext = { ip: string; userAgent: string };

export const RESET_TOKEN_SECONDS = 60 * 60;
export const VERIFY_TOKEN_SECONDS = 7 * 24 * 3600;

type UserRow = typeof users.$inferSelect;

export type SignedIn = {
	sessionToken: string;
	sessionExpiresAt: Date;
	accessToken: string;
	expiresIn: number;
	user: SelfUser;
	viewer: Viewer;
};

// ---------------------------------------------------------------- validation

type Failure = ValidationFailure & { code: string };

function blank(field: AuthField): Failure {
	return { field, code: `blank_${field}`, message: requiredMessage(field) };
}

function checkEmailField(value: string | undefined): Failure | null {
	const email = value?.trim() ?? '';
	if (!email) return blank('email');
	if (email.length > EMAIL_MAX_LENGTH || !EMAIL_PATTERN.test(email))
		return { field: 'email', code: 'email_invalid_format', message: MESSAGES.invalidEmail };
	return null;
}

/** The first failure names the answer's `error`; all of them are listed for the form. */
function refuse(failures: Failure[]): never {
	throw new AppError('validation_failed', failures[0].message, { detail: failures[0].code, failures });
}

/** A password that breaks the rules, as the failure of the form field that holds it. */
function passwordFailure(field: string, problem: PasswordProblem): Failure {
	const code =
		problem.code === 'blank' ? 'blank' : problem.code === 'common' ? 'unknown_error' : 'invalid_format';
	return {
		field,
		code: code === 'blank' ? `blank_${field}` : `${field}_${code}`,
		message: problem.message,
	};
}

function normaliseGender(value: string | undefined): 'F' | 'M' | null {
	const gender = value?.trim().toLowerCase();
	if (gender === 'f' || gender === 'female') return 'F';
	if (gender === 'm' || gender === 'male') return 'M';
	return null;
}

// ---------------------------------------------------------------- sessions

function viewerOf(row: UserRow): Viewer {
	return {
		id: row.id,
		username: row.username,
		displayName: row.displayName || row.username,
		isPremium: row.isPremium,
	};
}

async function signIn(deps: Deps, row: UserRow, context: RequestContext): Promise<SignedIn> {
	const now = deps.clock();
	const viewer = viewerOf(row);
	const session = await createSession(deps, row.id, context.userAgent);
	await deps.db.update(users).set({ lastLoginAt: now }).where(eq(users.id, row.id));
	return {
		sessionToken: session.token,
		sessionExpiresAt: new Date(now.getTime() + 30 * 24 * 3600 * 1000),
		accessToken: await signAccessToken(viewer, session.sessionId, deps.config.sessionSecret, now),
		expiresIn: ACCESS_TOKEN_SECONDS,
		user: presentSelfUser(row, now),
		viewer,
	};
}

async function findUserByEmailRow(deps: Pick<AppDeps, 'db'>, email: string): Promise<UserRow | undefined> {
	const [row] = await deps.db
		.select()
		.from(users)
		.where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`);
	return row;
}

export async function findUserRow(deps: Pick<AppDeps, 'db'>, id: number): Promise<UserRow | undefined> {
	const [row] = await deps.db.select().from(users).where(eq(users.id, id));
	return row;
}

// ---------------------------------------------------------------- login

/**
 * Unknown email and wrong password answer alike (401 access_denied) and cost the same argon2
 * verify. Attempts count before the password is checked, per account+address (10 → 15 min pause)
 * and per address (100 a day); a success gives its attempt back.
 */
export async function login(
	deps: Deps,
	body: LoginBody,
	context: RequestContext & { deviceCookie?: string },
): Promise<SignedIn | SecondFactorNeeded> {
	const failures: Failure[] = [];
	const emailProblem = checkEmailField(body.email ?? body.username);
	if (emailProblem) failures.push(emailProblem);
	if (!body.password) failures.push(blank('password'));
	if (failures.length) refuse(failures);
	const email = (body.email ?? body.username ?? '').trim();
	const password = body.password as string;

	const attempt = await countAttempt(deps, { ip: context.ip, account: emailAccount(email) });

	const row = await findUserByEmailRow(deps, email);
	const valid = await verifyPassword(row?.passwordHash ?? null, password);
	if (!row || !valid)
		throw new AppError('unauthenticated', MESSAGES.accessDenied, { detail: 'access_denied' });
	await attempt.succeeded();
	if (needsRehash(row.passwordHash)) {
		const upgraded = await hashPassword(password);
		await deps.db.update(users).set({ passwordHash: upgraded }).where(eq(users.id, row.id));
		row.passwordHash = upgraded;
	}
	if (await needsSecondFactor(deps, row.id, context.deviceCookie))
		return { challenge: await issueSignInChallenge(deps, row.id) };
	return signIn(deps, row, context);
}

/** Tells the member their second factor was turned on or off, so a change they did not make is noticed. */
export async function mailTwoFactorChange(deps: Deps, userId: number, now: 'on' | 'off'): Promise<void> {
	const row = await findUserRow(deps, userId);
	if (!row) return;
	await queueMail(deps, {
		userId: row.id,
		to: row.email,
		subject: now === 'on' ? 'Two-step sign-in is on' : 'Two-step sign-in is off',
		text: `Hi ${row.firstName || row.username},\n\n${
			now === 'on'
				? 'Signing in to your Mapstride account now asks for a code from your authenticator app after your password. Keep your recovery codes somewhere safe.'
				: 'Signing in to your Mapstride account no longer asks for a code from your authenticator app.'
		}\n\nIf it was not you, choose a new password now and turn two-step sign-in on again:\n\n${deps.config.publicUrl}/auth/forgot_password/\n`,
	});
}

/** The password was right and the member's second factor is on: the code step comes next. */
export type SecondFactorNeeded = { challenge: string };

/** The code step of a sign-in: a right code (or recovery code) for the challenged member signs them in. */
export async function completeSecondFactorSignIn(
	deps: Deps,
	body: { challenge: string; code: string },
	context: RequestContext,
): Promise<SignedIn> {
	const challenge = await challengedMember(deps, body.challenge);
	await checkSecondFactor(deps, challenge.userId, body.code, context);
	await spendChallenge(deps, challenge.id);
	const row = await findUserRow(deps, challenge.userId);
	if (!row) throw new AppError('unauthenticated', MESSAGES.accessDenied, { detail: 'access_denied' });
	return signIn(deps, row, context);
}

// ---------------------------------------------------------------- signup

function validateSignup(body: SignupBody, today: Date): Failure[] {
	const failures: Failure[] = [];
	for (const field of ['first_name', 'last_name'] as const) {
		const value = body[field]?.trim() ?? '';
		if (!value) failures.push(blank(field));
		else if (value.length > 60 || /[<>]/.test(value))
			failures.push({
				field,
				code: `${field}_invalid_format`,
				message: `${field === 'first_name' ? 'First' : 'Last'} name may have at most 60 characters and no < or >.`,
			});
	}
	const emailProblem = checkEmailField(body.email);
	if (emailProblem) failures.push(emailProblem);
	const password = body.password ?? '';
	const problem = checkPassword(password, [body.email ?? '', body.first_name ?? '', body.last_name ?? '']);
	if (problem) failures.push(passwordFailure('password', problem));
	const birthdate = body.birthdate?.trim() ?? '';
	if (!birthdate) failures.push(blank('birthdate'));
	else if (checkBirthdate(birthdate, today) !== 'ok')
		failures.push({ field: 'birthdate', code: 'birthdate_invalid_format', message: MESSAGES.invalidDate });
	if (!body.gender?.trim()) failures.push(blank('gender'));
	else if (!normaliseGender(body.gender))
		failures.push({ field: 'gender', code: 'gender_invalid_format', message: 'Select a valid choice.' });
	const country = body.location?.country?.trim() ?? '';
	if (!country) failures.push(blank('country'));
	else if (!/^[A-Za-z]{2}$/.test(country))
		failures.push({ field: 'country', code: 'country_invalid_format', message: 'Select a valid choice.' });
	return failures;
}

async function uniqueUsername(deps: Pick<AppDeps, 'db'>, email: string): Promise<string> {
	const base =
		email
			.split('@')[0]
			.toLowerCase()
			.replace(/[^a-z0-9_]/g, '')
			.slice(0, 20) || 'member';
	for (let attempt = 0; attempt < 20; attempt++) {
		const candidate = attempt === 0 ? base : `${base}${randomInt(100, 1_000_000)}`;
		const [taken] = await deps.db
			.select({ id: users.id })
			.from(users)
			.where(sql`lower(${users.username}) = ${candidate}`);
		if (!taken) return candidate;
	}
	return `member${randomInt(1_000_000, 1_000_000_000)}`;
}

/** Writes a member whose answers are already checked: the part of sign-up after its budgets. */
async function insertMember(deps: Deps, body: SignupBody, passwordHash: string, now: Date): Promise<UserRow> {
	const email = (body.email as string).trim();
	const firstName = (body.first_name as string).trim();
	const lastName = (body.last_name as string).trim();
	let row: UserRow;
	try {
		[row] = await deps.db
			.insert(users)
			.values({
				username: await uniqueUsername(deps, email),
				email,
				passwordHash,
				firstName,
				lastName,
				displayName: `${firstName} ${lastName}`.trim(),
				gender: normaliseGender(body.gender),
				birthdate: (body.birthdate as string).trim(),
				country: (body.location?.country ?? '').trim().toUpperCase(),
				displayMeasurementSystem: measurementSystemForPlace({ country: body.location?.country?.trim() }),
				region: body.location?.region?.trim() ?? '',
				locality: body.location?.locality?.trim() ?? '',
				signupConsents: {
					consentMatrixVersion: body.consent_matrix_version,
					consents: body.consents,
					gdprIsoCode: body.gdpr_iso_code,
					appName: body.appName,
				},
				createdAt: now,
				updatedAt: now,
			})
			.returning();
	} catch (error) {
		// Two signups racing for one address: the unique index decides.
		if (isUniqueViolation(error))
			throw new AppError('conflict', MESSAGES.emailUsed, { detail: 'email/used' });
		throw error;
	}
	if (body.promotionalPreference !== undefined) {
		await deps.db.insert(promotionalPreferences).values({
			userId: row.id,
			choice: body.promotionalPreference,
			region: row.country || 'US',
			updatedAt: now,
		});
	}
	await recordSignupConsents(deps, row.id, body.consents);
	return row;
}

/**
 * Creates a member of the demo world, unless one has that email (then null). It writes directly,
 * so restarting the server spends none of 127.0.0.1's sign-up or login budget, and sends no mail.
 */
export async function createDemoMember(deps: Deps, body: SignupBody): Promise<Viewer | null> {
	if (await findUserByEmailRow(deps, body.email as string)) return null;
	const failures = validateSignup(body, deps.clock());
	if (failures.length) refuse(failures);
	return viewerOf(await insertMember(deps, body, await hashPassword(body.password as string), deps.clock()));
}

/**
 * Creates the member, sends the confirmation mail and signs them in. The password is hashed
 * before the duplicate check, so a used email answers no faster than a new one.
 */
export async function signup(deps: Deps, body: SignupBody, context: RequestContext): Promise<SignedIn> {
	const now = deps.clock();
	await limitRequests(deps, 'signup', context.ip, deps.config.signupsPerHour);
	const failures = validateSignup(body, now);
	if (failures.length) refuse(failures);
	// Under the region's minimum age nothing is kept: refused before anything is written.
	if (!meetsMinimumAge(body.location?.country?.trim(), (body.birthdate as string).trim(), now))
		refuse([{ field: 'birthdate', code: 'birthdate_ineligible', message: MESSAGES.ineligible }]);
	const email = (body.email as string).trim();
	const passwordHash = await hashPassword(body.password as string);
	// "This email is used" says as much as a login would: it spends the same per-address budget.
	const attempt = await countAttempt(deps, { ip: context.ip });
	if (await findUserByEmailRow(deps, email))
		throw new AppError('conflict', MESSAGES.emailUsed, {
			detail: 'email/used',
			failures: [{ field: 'email', message: MESSAGES.emailUsed }],
		});
	const row = await insertMember(deps, body, passwordHash, now);
	await attempt.succeeded();
	await sendVerificationMail(deps, row);
	return signIn(deps, row, context);
}

// ---------------------------------------------------------------- one-time tokens

/** Why an emailed link no longer works, as far as its holder may learn: nothing about the account. */
export type LinkProblem = 'invalid_token' | 'used_token' | 'expired_token';

const LINK_PROBLEMS: Record<LinkProblem, string> = {
	invalid_token: 'This link is not valid. Ask for a new one.',
	used_token: 'This link was already used, or a newer one replaced it. Ask for a new one.',
	expired_token: 'This link has expired. Ask for a new one.',
};

const invalidLink = (problem: LinkProblem = 'invalid_token') =>
	new AppError('bad_request', LINK_PROBLEMS[problem], { detail: problem });

/** The token's row while it still works; otherwise refuses, saying whether it was used, expired or never ours. */
async function findLiveToken(deps: Deps, token: string, purpose: string) {
	if (!/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw invalidLink();
	const [row] = await deps.db
		.select()
		.from(oneTimeTokens)
		.where(and(eq(oneTimeTokens.tokenHash, hashToken(token)), eq(oneTimeTokens.purpose, purpose)));
	if (!row) throw invalidLink();
	// Used first: a link that was used and then ran out was, above all, used.
	if (row.usedAt) throw invalidLink('used_token');
	if (row.expiresAt <= deps.clock()) throw invalidLink('expired_token');
	return row;
}

/**
 * Development only (the development mailbox offers it): lets a mailed link run out now, so what a
 * member sees when opening an old link can be looked at without waiting an hour or a week.
 */
export async function expireLinkNow(deps: Deps, token: string): Promise<boolean> {
	if (deps.config.env === 'production') return false;
	const expired = await deps.db
		.update(oneTimeTokens)
		.set({ expiresAt: deps.clock() })
		.where(eq(oneTimeTokens.tokenHash, hashToken(token)))
		.returning({ id: oneTimeTokens.id });
	return expired.length === 1;
}

async function composeVerificationMail(deps: Deps, row: UserRow): Promise<MailMessage> {
	const token = await issueToken(deps, row.id, 'email_verify', VERIFY_TOKEN_SECONDS);
	const link = `${deps.config.publicUrl}/verify_email/${token}`;
	return {
		userId: row.id,
		to: row.email,
		subject: 'Confirm your email address',
		text: `Hi ${row.firstName || row.username},\n\nConfirm your email address for Mapstride by opening this link:\n\n${link}\n\nThe link works once and for 7 days. If you did not sign up, ignore this message.\n`,
	};
}

export async function sendVerificationMail(deps: Deps, row: UserRow): Promise<void> {
	await queueMail(deps, await composeVerificationMail(deps, row));
}

/** A few confirmation mails an hour per member: enough for a lost mail, too few to spam an inbox. */
const VERIFICATION_MAILS_PER_HOUR = 5;

/** Sends a signed-in member a new confirmation link, unless the address is already confirmed. */
export async function resendVerificationMail(
	deps: Deps,
	viewer: Viewer,
): Promise<{ status: 'sent' | 'already_confirmed' }> {
	const row = await findUserRow(deps, viewer.id);
	if (!row) throw new AppError('not_found', 'No such member.', { detail: 'not_found' });
	if (row.emailVerifiedAt) return { status: 'already_confirmed' };
	await limitRequests(deps, 'verify-mail', `user-${row.id}`, VERIFICATION_MAILS_PER_HOUR);
	await sendVerificationMail(deps, row);
	return { status: 'sent' };
}

/**
 * A new confirmation link for whoever holds an address, asked for from a link that no longer works.
 * Same answer, and the same work before it, whether or not the address is a member's or is already
 * confirmed, like a password-reset request; the member's own hourly limit applies after the answer.
 */
export async function requestVerificationMail(
	deps: Deps,
	body: { email?: string },
	context: RequestContext,
): Promise<void> {
	const emailProblem = checkEmailField(body.email);
	if (emailProblem) refuse([emailProblem]);
	await limitRequests(deps, 'verify-request', context.ip);
	const email = body.email as string;
	queueMailJob(deps, async () => {
		const row = await findUserByEmailRow(deps, email);
		if (!row || row.emailVerifiedAt) return null;
		try {
			await limitRequests(deps, 'verify-mail', `user-${row.id}`, VERIFICATION_MAILS_PER_HOUR);
		} catch (error) {
			if (error instanceof AppError && error.code === 'rate_limited') return null;
			throw error;
		}
		return composeVerificationMail(deps, row);
	});
}

export async function confirmEmail(deps: Deps, token: string): Promise<{ userId: number }> {
	const row = await findLiveToken(deps, token, 'email_verify');
	if (!(await consumeToken(deps, row.id))) throw invalidLink('used_token');
	await deps.db
		.update(users)
		.set({ emailVerifiedAt: deps.clock() })
		.where(and(eq(users.id, row.userId), isNull(users.emailVerifiedAt)));
	return { userId: row.userId };
}

/** A reset link may send the member on to a page of ours only. */
function safeRedirect(uri: string | undefined): string | null {
	if (!uri) return null;
	if (/^\/(?![/\\])[^\s]*$/.test(uri)) return uri.slice(0, 500);
	return null;
}

/**
 * Same answer, and the same work, whether or not the address belongs to a member: the request
 * only queues the job; looking the member up, making the link and writing the mail happen after
 * the answer.
 */
export async function requestPasswordReset(
	deps: Deps,
	body: { email?: string; redirect_uri?: string },
	context: RequestContext,
): Promise<void> {
	const emailProblem = checkEmailField(body.email);
	if (emailProblem) refuse([emailProblem]);
	await limitRequests(deps, 'reset', context.ip);
	const email = body.email as string;
	const redirectUri = safeRedirect(body.redirect_uri);
	queueMailJob(deps, () => composeResetMail(deps, email, redirectUri));
}

async function composeResetMail(
	deps: Deps,
	email: string,
	redirectUri: string | null,
): Promise<MailMessage | null> {
	const row = await findUserByEmailRow(deps, email);
	if (!row) return null;
	const token = await issueToken(deps, row.id, 'password_reset', RESET_TOKEN_SECONDS, redirectUri);
	const link = `${deps.config.publicUrl}/password_reset/${token}`;
	return {
		userId: row.id,
		to: row.email,
		subject: 'Reset your password',
		text: `Hi ${row.firstName || row.username},\n\nSomeone asked to reset the password of your Mapstride account. To choose a new password, open this link within 60 minutes:\n\n${link}\n\nIf it was not you, ignore this message; your password stays as it is.\n`,
	};
}

export async function checkResetToken(deps: Deps, token: string): Promise<{ userId: number }> {
	const row = await findLiveToken(deps, token, 'password_reset');
	return { userId: row.userId };
}

/** Sets the new password, signs the member out everywhere and lifts any login pause. */
export async function resetPassword(
	deps: Deps,
	token: string,
	body: { password?: string },
): Promise<{ userId: number; redirectUri: string | null }> {
	const row = await findLiveToken(deps, token, 'password_reset');
	const user = await findUserRow(deps, row.userId);
	if (!user) throw invalidLink();
	const problem = checkPassword(body.password ?? '', [user.email, user.firstName, user.lastName]);
	if (problem) refuse([passwordFailure('password', problem)]);
	const passwordHash = await hashPassword(body.password as string);
	if (!(await consumeToken(deps, row.id))) throw invalidLink('used_token');
	await deps.db.update(users).set({ passwordHash, updatedAt: deps.clock() }).where(eq(users.id, user.id));
	await revokeAllSessions(deps, user.id);
	await clearAccountCounters(deps, user.email);
	return { userId: user.id, redirectUri: row.redirectUri };
}

/**
 * A signed-in member changes their password: the current one proves it is them (throttled like
 * login), the new one meets the signup rules, and every other sign-in ends while the one making
 * the change (`currentSessionToken`, when the browser sent it) stays. A mail says it happened.
 */
export async function changePassword(
	deps: Deps,
	viewer: Viewer,
	body: ChangePasswordBody,
	context: RequestContext & { currentSessionToken?: string },
): Promise<{ endedSessions: number }> {
	if (!body.current_password)
		refuse([
			{ field: 'current_password', code: 'blank_current_password', message: 'Enter your current password.' },
		]);
	let row: UserRow;
	try {
		row = await reauthenticate(deps, viewer, body.current_password, context);
	} catch (error) {
		if (error instanceof AppError && error.code === 'forbidden')
			throw new AppError('forbidden', 'Your current password is not right.', {
				detail: 'access_denied',
				failures: [{ field: 'current_password', message: 'Your current password is not right.' }],
			});
		throw error;
	}
	const password = body.new_password ?? '';
	const problem = checkPassword(password, [row.email, row.firstName, row.lastName]);
	if (problem) refuse([passwordFailure('new_password', problem)]);
	if (password === body.current_password)
		refuse([
			{
				field: 'new_password',
				code: 'new_password_invalid_format',
				message: 'Choose a password different from your current one.',
			},
		]);
	const passwordHash = await hashPassword(password);
	await deps.db.update(users).set({ passwordHash, updatedAt: deps.clock() }).where(eq(users.id, row.id));
	const keep = context.currentSessionToken
		? await findSessionFamily(deps, row.id, context.currentSessionToken)
		: null;
	let endedSessions = 0;
	for (const session of await listSessions(deps, row.id)) {
		if (session.id !== keep && (await revokeSessionById(deps, row.id, session.id))) endedSessions += 1;
	}
	await queueMail(deps, {
		userId: row.id,
		to: row.email,
		subject: 'Your password was changed',
		text: `Hi ${row.firstName || row.username},\n\nThe password of your Mapstride account was just changed, and every other device was logged out.\n\nIf it was not you, choose a new password now:\n\n${deps.config.publicUrl}/auth/forgot_password/\n`,
	});
	return { endedSessions };
}

// ---------------------------------------------------------------- refresh and logout

export async function refreshSession(
	deps: Deps,
	token: string | undefined,
): Promise<Omit<SignedIn, 'sessionExpiresAt'> & { sessionExpiresAt: Date }> {
	const unauthenticated = new AppError('unauthenticated', 'Your session has ended. Log in again.', {
		detail: 'invalid_session',
	});
	if (!token) throw unauthenticated;
	const result = await rotateSession(deps, token);
	if (!result.ok) {
		if (result.reason === 'reused')
			deps.logger.warn(
				{ reason: result.reason },
				'a rotated refresh token was presented again; family revoked',
			);
		throw unauthenticated;
	}
	const row = await findUserRow(deps, result.viewer.id);
	if (!row) throw unauthenticated;
	const now = deps.clock();
	return {
		sessionToken: result.token,
		sessionExpiresAt: result.familyExpiresAt,
		accessToken: await signAccessToken(result.viewer, result.sessionId, deps.config.sessionSecret, now),
		expiresIn: ACCESS_TOKEN_SECONDS,
		user: presentSelfUser(row, now),
		viewer: result.viewer,
	};
}

/**
 * Ends the sign-in named by the session cookie or, for clients that only hold an access token,
 * the one that token belongs to.
 */
export async function logout(
	deps: Deps,
	token: string | undefined,
	bearer: { viewer: Viewer; sessionId: string } | null,
): Promise<void> {
	if (token) await revokeSessionFamily(deps, token);
	else if (bearer) await revokeSessionById(deps, bearer.viewer.id, bearer.sessionId);
}

// ---------------------------------------------------------------- look-ups

/**
 * Anonymous callers learn nothing (401). A member finds another only when that member lets
 * everyone search them by email, and at most 30 look-ups an hour.
 */
export async function findUserByEmail(deps: Deps, viewer: Viewer, email: string) {
	const emailProblem = checkEmailField(email);
	if (emailProblem) refuse([emailProblem]);
	await limitRequests(deps, 'email-search', `user-${viewer.id}`);
	const row = await findUserByEmailRow(deps, email);
	if (!row || (row.id !== viewer.id && row.emailSearchPrivacy !== 3))
		throw new AppError('not_found', 'No member can be found with this email.', { detail: 'not_found' });
	return presentPublicUser(row);
}

/** Re-authentication for sensitive actions (account deletion): same throttling as login. */
export async function reauthenticate(
	deps: Deps,
	viewer: Viewer,
	password: string | undefined,
	context: RequestContext,
): Promise<UserRow> {
	if (!password) refuse([blank('password')]);
	const row = await findUserRow(deps, viewer.id);
	if (!row) throw new AppError('not_found', 'No such member.', { detail: 'not_found' });
	const attempt = await countAttempt(deps, { ip: context.ip, account: emailAccount(row.email) });
	if (!(await verifyPassword(row.passwordHash, password as string)))
		throw new AppError('forbidden', MESSAGES.accessDenied, { detail: 'access_denied' });
	await attempt.succeeded();
	return row;
}

/** Whether the member is an operator who may use /admin. */
export async function isAdmin(deps: Pick<AppDeps, 'db'>, userId: number): Promise<boolean> {
	const [row] = await deps.db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, userId));
	return row?.isAdmin === true;
}

/** Makes the member with this email an operator, or no longer one; answers whether they exist. */
export async function setAdmin(deps: Pick<AppDeps, 'db'>, email: string, admin: boolean): Promise<boolean> {
	const updated = await deps.db
		.update(users)
		.set({ isAdmin: admin })
		.where(sql`lower(${users.email}) = ${email.trim().toLowerCase()}`)
		.returning({ id: users.id });
	return updated.length > 0;
}

/**
 * Billing keeps this flag in step with the member's subscriptions (any active one makes an MVP
 * member); pages, tokens and the session hint read it.
 */
export async function setPremiumMembership(db: Db, userId: number, isPremium: boolean): Promise<void> {
	await db.update(users).set({ isPremium, updatedAt: new Date() }).where(eq(users.id, userId));
}
