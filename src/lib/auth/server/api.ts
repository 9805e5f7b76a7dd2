import { type Context, Hono, type MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import * as v from 'valibot';
import { deleteAccount } from '../../account/server/service';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import type { Config } from '../../core/config';
import { formatApiDateTime } from '../../core/dates';
import { AppError, type ValidationFailure } from '../../core/errors';
import { idText } from '../../core/integers';
import { singleLineText } from '../../core/text';
import { honourGlobalPrivacyControl, needsConsentPrompt } from '../../privacy/server/consents';
import { parseCookieChoices } from '../../site/cookie-choices';
import {
	ChangePasswordSchema,
	DeletionRequestSchema,
	EMAIL_MAX_LENGTH,
	LoginBodySchema,
	PasswordResetRequestSchema,
	PasswordResetSchema,
	SecondFactorSignInSchema,
	SignupBodySchema,
	TwoFactorConfirmSchema,
	TwoFactorDisableSchema,
	TwoFactorSetupSchema,
	VerificationRequestSchema,
	type Viewer,
} from '../contract';
import { encodeSessionHint, SESSION_HINT_COOKIE } from '../hint';
import { describeDevice } from './devices';
import { requireViewer } from './middleware';
import {
	changePassword,
	checkResetToken,
	completeSecondFactorSignIn,
	confirmEmail,
	findUserByEmail,
	login,
	logout,
	mailTwoFactorChange,
	reauthenticate,
	refreshSession,
	requestPasswordReset,
	requestVerificationMail,
	resendVerificationMail,
	resetPassword,
	type SignedIn,
	signup,
} from './service';
import { listSessions, revokeSessionById, SESSION_ABSOLUTE_SECONDS, sessionCookieName } from './session';
import {
	CHALLENGE_SECONDS,
	checkSecondFactor,
	confirmTwoFactor,
	REMEMBER_DEVICE_COOKIE,
	rememberDevice,
	removeTwoFactor,
	startTwoFactorSetup,
	twoFactorStatus,
} from './two-factor';

/** Cookies we set before this API existed; /clear-legacy removes them. */
const LEGACY_COOKIES = ['auth-token', 'access_token', 'mmf_auth', 'uacf_auth', 'ms_token'];

/** Secure everywhere but plain-http localhost development. */
export function cookieIsSecure(config: Pick<Config, 'publicUrl'>): boolean {
	const url = new URL(config.publicUrl);
	if (url.protocol === 'https:') return true;
	return !['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

function setSessionCookies(c: Context<ApiEnv>, token: string, expiresAt: Date, viewer: Viewer): void {
	const config = c.var.deps.config;
	const maxAge = Math.max(1, Math.floor((expiresAt.getTime() - c.var.deps.clock().getTime()) / 1000));
	const secure = cookieIsSecure(config);
	setCookie(c, sessionCookieName(config), token, {
		httpOnly: true,
		secure,
		sameSite: 'Strict',
		path: '/',
		maxAge,
	});
	setCookie(c, SESSION_HINT_COOKIE, encodeSessionHint(viewer), {
		secure,
		sameSite: 'Lax',
		path: '/',
		maxAge,
	});
}

/**
 * After a change the header shows (becoming an MVP member), the readable hint follows at once, so
 * pre-rendered pages drop the promo banner without waiting for the next sign-in. The session cookie
 * is untouched.
 */
export function refreshSessionHint(c: Context<ApiEnv>, viewer: Viewer): void {
	if (!getCookie(c, sessionCookieName(c.var.deps.config))) return;
	setCookie(c, SESSION_HINT_COOKIE, encodeSessionHint(viewer), {
		secure: cookieIsSecure(c.var.deps.config),
		sameSite: 'Lax',
		path: '/',
		maxAge: SESSION_ABSOLUTE_SECONDS,
	});
}

/**
 * `onlySent` deletes only the cookies the request carried: a refresh a page sent before the member
 * signed in (in another tab, or a moment later in this one) answers 401 after that sign-in, and must
 * not delete the session it set.
 */
function clearSessionCookies(c: Context<ApiEnv>, { onlySent = false } = {}): void {
	const config = c.var.deps.config;
	const secure = cookieIsSecure(config);
	const sent = getCookie(c);
	const names = { session: sessionCookieName(config), hint: SESSION_HINT_COOKIE };
	if (!onlySent || names.session in sent)
		deleteCookie(c, names.session, { path: '/', secure, httpOnly: true, sameSite: 'Strict' });
	if (!onlySent || names.hint in sent) deleteCookie(c, names.hint, { path: '/', secure, sameSite: 'Lax' });
}

function readSessionCookie(c: Context<ApiEnv>): string | undefined {
	return getCookie(c, sessionCookieName(c.var.deps.config));
}

function requestContext(c: Context<ApiEnv>) {
	return { ip: c.var.clientIp, userAgent: c.req.header('user-agent') ?? '' };
}

/**
 * Field codes: text that breaks a rule (a character not allowed, too long) answers
 * `{field}_invalid_format`; a wrong-typed field `{field}_unknown_error`.
 */
function toAuthError(failures: ValidationFailure[]): AppError {
	const first = failures[0];
	const field = first?.field?.split('.').pop() ?? '';
	const problem = first?.code === 'invalid_format' ? 'invalid_format' : 'unknown_error';
	return new AppError('validation_failed', first?.message ?? 'The request is not valid', {
		detail: field && field !== '__all__' ? `${field}_${problem}` : 'unknown_error',
		failures,
	});
}

/**
 * Cookie-authenticated endpoints refuse cross-site requests: hono's csrf() checks Origin and
 * Sec-Fetch-Site on form posts, and this also covers JSON and GET calls a browser makes for
 * another site. Clients without those headers (apps, curl) are not browsers and carry no cookie
 * a site could ride on.
 */
const refuseCrossSite: MiddlewareHandler<ApiEnv> = async (c, next) => {
	const site = c.req.header('sec-fetch-site');
	const origin = c.req.header('origin');
	const allowed = new Set([new URL(c.var.deps.config.publicUrl).origin, new URL(c.req.url).origin]);
	if (
		site === 'cross-site' ||
		(origin !== undefined && origin !== 'null' && !allowed.has(origin)) ||
		origin === 'null'
	) {
		throw new AppError('forbidden', 'Cross-site requests are not accepted here.', { detail: 'forbidden' });
	}
	await next();
};

const tokenParam = v.object({ token: singleLineText('The token', 200) });
const idParam = v.object({ id: idText('id must be a number') });
const sessionParam = v.object({ sessionId: v.pipe(v.string(), v.uuid('not a session id')) });
const emailParam = v.object({ email: singleLineText('Email', EMAIL_MAX_LENGTH) });

export function createAuthApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	app.use('/auth/*', refuseCrossSite);
	app.use('/auth/*', async (c, next) => {
		// Browsers always say where a request comes from; a caller that says nothing is not a
		// browser and has no one's cookies to ride on (refuseCrossSite already ran).
		if (!c.req.header('origin') && !c.req.header('sec-fetch-site')) return next();
		const origins = [new URL(c.var.deps.config.publicUrl).origin, new URL(c.req.url).origin];
		return csrf({ origin: origins, secFetchSite: ['same-origin', 'none'] })(c, next);
	});
	// Answers carry tokens or say who someone is: never cache them.
	app.use('/auth/*', async (c, next) => {
		await next();
		c.header('Cache-Control', 'no-store');
	});

	/** A signed-in answer: the session cookies, and the token and member for the page or client. */
	async function signedInAnswer(c: Context<ApiEnv>, result: SignedIn) {
		setSessionCookies(c, result.sessionToken, result.sessionExpiresAt, result.viewer);
		return c.json({
			access_token: result.accessToken,
			token_type: 'Bearer',
			expires_in: result.expiresIn,
			user: result.user,
			// A newer consent matrix (or a declined required consent) is answered before going on.
			consents_pending: await needsConsentPrompt(c.var.deps, result.viewer.id),
		});
	}

	app.post('/auth/login', validate('json', LoginBodySchema, toAuthError), async (c) => {
		const result = await login(c.var.deps, c.req.valid('json'), {
			...requestContext(c),
			deviceCookie: getCookie(c, REMEMBER_DEVICE_COOKIE),
		});
		if ('challenge' in result)
			return c.json(
				{
					error: 'second_factor_required',
					message: 'Enter the code from your authenticator app.',
					challenge: result.challenge,
					expires_in: CHALLENGE_SECONDS,
				},
				401,
			);
		return signedInAnswer(c, result);
	});

	app.post(
		'/auth/login/second_factor',
		validate('json', SecondFactorSignInSchema, toAuthError),
		async (c) => {
			const body = c.req.valid('json');
			const result = await completeSecondFactorSignIn(c.var.deps, body, requestContext(c));
			if (body.remember_device) {
				const device = await rememberDevice(c.var.deps, result.viewer.id);
				// Sent only to the sign-in endpoints, never readable by the page.
				setCookie(c, REMEMBER_DEVICE_COOKIE, device.value, {
					httpOnly: true,
					secure: cookieIsSecure(c.var.deps.config),
					sameSite: 'Strict',
					path: '/api/auth/',
					maxAge: device.maxAge,
				});
			}
			return signedInAnswer(c, result);
		},
	);

	app.get('/auth/two_factor', requireViewer, async (c) => {
		const status = await twoFactorStatus(c.var.deps, (c.var.viewer as Viewer).id);
		return c.json({ enabled: status.enabled, recovery_codes_left: status.recoveryCodesLeft });
	});

	// Setting it up and turning it off ask for the password again: a session left open is not enough.
	app.post(
		'/auth/two_factor/setup',
		requireViewer,
		validate('json', TwoFactorSetupSchema, toAuthError),
		async (c) => {
			const row = await reauthenticate(
				c.var.deps,
				c.var.viewer as Viewer,
				c.req.valid('json').password,
				requestContext(c),
			);
			const setup = await startTwoFactorSetup(c.var.deps, row);
			return c.json({ secret: setup.secret, otpauth_uri: setup.uri, qr_svg: setup.qrSvg });
		},
	);

	app.post(
		'/auth/two_factor/confirm',
		requireViewer,
		validate('json', TwoFactorConfirmSchema, toAuthError),
		async (c) => {
			const viewer = c.var.viewer as Viewer;
			const { recoveryCodes } = await confirmTwoFactor(
				c.var.deps,
				viewer.id,
				c.req.valid('json').code,
				requestContext(c),
			);
			await mailTwoFactorChange(c.var.deps, viewer.id, 'on');
			return c.json({ enabled: true, recovery_codes: recoveryCodes });
		},
	);

	app.post(
		'/auth/two_factor/disable',
		requireViewer,
		validate('json', TwoFactorDisableSchema, toAuthError),
		async (c) => {
			const viewer = c.var.viewer as Viewer;
			const body = c.req.valid('json');
			await reauthenticate(c.var.deps, viewer, body.password, requestContext(c));
			await checkSecondFactor(c.var.deps, viewer.id, body.code, requestContext(c));
			await removeTwoFactor(c.var.deps, viewer.id);
			await mailTwoFactorChange(c.var.deps, viewer.id, 'off');
			return c.json({ enabled: false });
		},
	);

	app.post('/auth/signup', validate('json', SignupBodySchema, toAuthError), async (c) => {
		const body = c.req.valid('json');
		const result = await signup(c.var.deps, body, requestContext(c));
		// A visitor's Global Privacy Control opt-out, sent now or kept from earlier visits, becomes the member's.
		if (c.req.header('sec-gpc')?.trim() === '1' || parseCookieChoices(c.req.header('cookie'))?.gpc)
			await honourGlobalPrivacyControl(c.var.deps, result.viewer.id, { everywhere: true });
		if (body.login !== false)
			setSessionCookies(c, result.sessionToken, result.sessionExpiresAt, result.viewer);
		return c.json(
			{
				access_token: result.accessToken,
				token_type: 'Bearer',
				expires_in: result.expiresIn,
				user: result.user,
			},
			201,
		);
	});

	app.get('/auth/refresh-token', async (c) => {
		try {
			const result = await refreshSession(c.var.deps, readSessionCookie(c));
			setSessionCookies(c, result.sessionToken, result.sessionExpiresAt, result.viewer);
			return c.json({
				access_token: result.accessToken,
				token_type: 'Bearer',
				expires_in: result.expiresIn,
				user: result.user,
			});
		} catch (error) {
			clearSessionCookies(c, { onlySent: true });
			throw error;
		}
	});

	app.get('/auth/logout', async (c) => {
		const { viewer, sessionId } = c.var;
		await logout(c.var.deps, readSessionCookie(c), viewer && sessionId ? { viewer, sessionId } : null);
		clearSessionCookies(c);
		return c.json({ status: 'logged_out' });
	});

	app.post('/auth/password-reset', validate('json', PasswordResetRequestSchema, toAuthError), async (c) => {
		await requestPasswordReset(c.var.deps, c.req.valid('json'), requestContext(c));
		return c.json({
			status: 'sent',
			message: 'If an account uses this email, a link to reset its password is on its way.',
		});
	});

	app.get('/auth/password/reset/:token', validate('param', tokenParam, toAuthError), async (c) => {
		const { userId } = await checkResetToken(c.var.deps, c.req.valid('param').token);
		return c.json({ status: 'valid', user_id: userId });
	});

	app.post(
		'/auth/password/reset/:token',
		validate('param', tokenParam, toAuthError),
		validate('json', PasswordResetSchema, toAuthError),
		async (c) => {
			const result = await resetPassword(c.var.deps, c.req.valid('param').token, c.req.valid('json'));
			// Every session ended, including this browser's.
			clearSessionCookies(c);
			return c.json({ status: 'success', user_id: result.userId, redirect_uri: result.redirectUri });
		},
	);

	app.post('/auth/email/confirm/:token', validate('param', tokenParam, toAuthError), async (c) => {
		const { userId } = await confirmEmail(c.var.deps, c.req.valid('param').token);
		return c.json({ status: 'confirmed', user_id: userId });
	});

	app.post('/auth/email/resend', requireViewer, async (c) => {
		return c.json(await resendVerificationMail(c.var.deps, c.var.viewer as Viewer));
	});

	app.post('/auth/email/request', validate('json', VerificationRequestSchema, toAuthError), async (c) => {
		await requestVerificationMail(c.var.deps, c.req.valid('json'), requestContext(c));
		return c.json({
			status: 'sent',
			message: 'If this address still needs confirming, a new link is on its way.',
		});
	});

	app.get(
		'/auth/find-user-by-email/:email',
		requireViewer,
		validate('param', emailParam, toAuthError),
		async (c) => {
			const viewer = c.var.viewer as Viewer;
			return c.json({ user: await findUserByEmail(c.var.deps, viewer, c.req.valid('param').email) });
		},
	);

	/** Country (and region) from the proxy in front of us; never guessed from untrusted headers. */
	app.get('/auth/geoip', (c) => {
		const config = c.var.deps.config;
		const header = (name: string) =>
			config.trustedProxy ? (c.req.header(name)?.trim().toUpperCase().slice(0, 8) ?? '') : '';
		const country = header(config.geoHeaders.country);
		const region = header(config.geoHeaders.region);
		const valid = /^[A-Z]{2}$/.test(country);
		return c.json({
			country_code: valid ? country : 'US',
			region_code: valid && /^[A-Z0-9]{1,3}$/.test(region) ? region : null,
			source: valid ? 'proxy' : 'default',
		});
	});

	app.get('/auth/clear-legacy', (c) => {
		for (const name of LEGACY_COOKIES) deleteCookie(c, name, { path: '/' });
		return c.body(null, 204);
	});

	app.get('/auth/sessions', requireViewer, async (c) => {
		const viewer = c.var.viewer as Viewer;
		const sessions = await listSessions(c.var.deps, viewer.id);
		return c.json({
			sessions: sessions.map((session) => ({
				id: session.id,
				created_datetime: formatApiDateTime(session.createdAt),
				last_used_datetime: formatApiDateTime(session.lastUsedAt),
				expires_datetime: formatApiDateTime(session.expiresAt),
				user_agent: session.userAgent,
				device: describeDevice(session.userAgent),
				current: session.id === c.var.sessionId,
			})),
		});
	});

	app.delete(
		'/auth/sessions/:sessionId',
		requireViewer,
		validate('param', sessionParam, toAuthError),
		async (c) => {
			const viewer = c.var.viewer as Viewer;
			if (!(await revokeSessionById(c.var.deps, viewer.id, c.req.valid('param').sessionId)))
				throw new AppError('not_found', 'No such session.', { detail: 'not_found' });
			return c.json({ status: 'revoked' });
		},
	);

	app.post(
		'/auth/password/change',
		requireViewer,
		validate('json', ChangePasswordSchema, toAuthError),
		async (c) => {
			const viewer = c.var.viewer as Viewer;
			const { endedSessions } = await changePassword(c.var.deps, viewer, c.req.valid('json'), {
				...requestContext(c),
				currentSessionToken: readSessionCookie(c),
			});
			return c.json({ status: 'changed', ended_sessions: endedSessions });
		},
	);

	app.delete(
		'/auth/deletion-request/:id',
		requireViewer,
		validate('param', idParam, toAuthError),
		validate('json', DeletionRequestSchema, toAuthError),
		async (c) => {
			const viewer = c.var.viewer as Viewer;
			const id = Number(c.req.valid('param').id);
			if (id !== viewer.id)
				throw new AppError('forbidden', 'You can only delete your own account.', { detail: 'forbidden' });
			await reauthenticate(c.var.deps, viewer, c.req.valid('json').password, requestContext(c));
			await deleteAccount(c.var.deps, viewer.id);
			clearSessionCookies(c);
			return c.json({ status: 'deleted', user_id: viewer.id });
		},
	);

	return app;
}
