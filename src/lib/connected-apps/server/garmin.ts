import * as v from 'valibot';
import {
	type DeviceActivity,
	type DeviceCloud,
	DeviceCloudError,
	type DeviceNotice,
	type DeviceTokens,
} from './device-clouds';

export type GarminSettings = {
	clientId: string;
	clientSecret: string;
	/** Base URL of Garmin's consent page host, e.g. https://connect.garmin.com */
	authorizeBase: string;
	/** Base URL of Garmin's OAuth 2.0 token service, e.g. https://diauth.garmin.com */
	tokenBase: string;
	/** Base URL of the Health / Wellness API, e.g. https://apis.garmin.com */
	apiBase: string;
};

const REQUEST_TIMEOUT_MS = 10_000;
/** Token, user id and list answers are a few kilobytes; a day of activity files stays far below this. */
const MAX_JSON_BYTES = 1024 * 1024;
/** Garmin answers a pull for at most one day of uploads at a time. */
const WINDOW_SECONDS = 86_400;
/** A poll reaches back at most this many days, so one call stays a bounded number of requests. */
const MAX_WINDOWS = 30;
const MAX_PUSH_ENTRIES = 200;
const MAX_LIST_ENTRIES = 1000;
/** Start times up to the year 2100: anything later is not a recording. */
const LATEST_START_SECONDS = 4_102_444_800;

const GarminIdSchema = v.pipe(v.string(), v.regex(/^[\w.-]{1,100}$/));
const SummaryIdSchema = v.pipe(
	v.union([GarminIdSchema, v.pipe(v.number(), v.safeInteger(), v.minValue(0))]),
	v.transform(String),
);
const TokenSchema = v.pipe(v.string(), v.minLength(1), v.maxLength(8192));

const ActivityFileSchema = v.object({
	userId: GarminIdSchema,
	summaryId: SummaryIdSchema,
	fileType: v.pipe(v.string(), v.maxLength(16)),
	// Read only so a push with one is recognised; it is never requested (files come from apiBase).
	callbackURL: v.optional(v.pipe(v.string(), v.maxLength(2048))),
	startTimeInSeconds: v.pipe(v.number(), v.safeInteger(), v.minValue(0), v.maxValue(LATEST_START_SECONDS)),
	activityId: v.optional(v.union([GarminIdSchema, v.pipe(v.number(), v.safeInteger())])),
	activityName: v.optional(v.pipe(v.string(), v.maxLength(500))),
});
type GarminActivityFile = v.InferOutput<typeof ActivityFileSchema>;

const PushSchema = v.object({
	activityFiles: v.optional(v.pipe(v.array(ActivityFileSchema), v.maxLength(MAX_PUSH_ENTRIES))),
});
const ActivityListSchema = v.pipe(v.array(ActivityFileSchema), v.maxLength(MAX_LIST_ENTRIES));
const TokenAnswerSchema = v.object({
	access_token: TokenSchema,
	refresh_token: v.optional(TokenSchema),
	expires_in: v.optional(v.pipe(v.number(), v.minValue(0), v.maxValue(10 * 365 * 86_400))),
	token_type: v.pipe(v.string(), v.regex(/^bearer$/i)),
	scope: v.optional(v.pipe(v.string(), v.maxLength(2048))),
});
type TokenAnswer = v.InferOutput<typeof TokenAnswerSchema>;
const OAuthErrorSchema = v.object({ error: v.pipe(v.string(), v.maxLength(100)) });
const UserIdAnswerSchema = v.object({ userId: GarminIdSchema });

function parseJson(text: string): unknown {
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/** The body, or null once it is longer than `maxBytes` (told by content-length or found while reading). */
async function readCapped(response: Response, maxBytes: number): Promise<Uint8Array | null> {
	const declared = Number(response.headers.get('content-length') ?? 0);
	if (declared > maxBytes) {
		await response.body?.cancel().catch(() => {});
		return null;
	}
	if (!response.body) return new Uint8Array(0);
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	for (;;) {
		const { done, value } = await reader.read();
		if (done) break;
		total += value.byteLength;
		if (total > maxBytes) {
			await reader.cancel().catch(() => {});
			return null;
		}
		chunks.push(value);
	}
	const bytes = new Uint8Array(total);
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.byteLength;
	}
	return bytes;
}

function statusError(status: number, what: string): DeviceCloudError {
	if (status === 401 || status === 403)
		return new DeviceCloudError(
			`Garmin refused ${what}: the connection is no longer allowed (HTTP ${status})`,
			'auth',
		);
	return new DeviceCloudError(`Garmin did not answer ${what} (HTTP ${status})`, 'unavailable');
}

function activityFrom(file: GarminActivityFile): DeviceActivity {
	return {
		externalId: file.summaryId,
		startTime: new Date(file.startTimeInSeconds * 1000),
		name: file.activityName ?? 'Garmin activity',
	};
}

function oldestFirst(activities: Iterable<DeviceActivity>): DeviceActivity[] {
	return [...activities].sort(
		(a, b) => a.startTime.getTime() - b.startTime.getTime() || a.externalId.localeCompare(b.externalId),
	);
}

const withoutTrailingSlash = (base: string) => base.replace(/\/+$/, '');

/**
 * Garmin Connect through the Connect Developer Program: OAuth 2.0 with PKCE, activity files announced by
 * ping/push notifications and downloaded as FIT from the Wellness API with the member's own token.
 */
export function garminCloud(settings: GarminSettings, fetchImpl: typeof fetch = fetch): DeviceCloud {
	const authorizeBase = withoutTrailingSlash(settings.authorizeBase);
	const tokenUrl = `${withoutTrailingSlash(settings.tokenBase)}/di-oauth2-service/oauth/token`;
	const apiBase = withoutTrailingSlash(settings.apiBase);

	/** Sends one request with its own timeout; a failure to get any answer is `unavailable`. */
	async function send(
		url: string | URL,
		what: string,
		init: { method?: string; headers: Record<string, string>; body?: string; redirect?: RequestRedirect },
		callerSignal?: AbortSignal,
	): Promise<{ response: Response; read: (maxBytes: number) => Promise<Uint8Array | null> }> {
		const timeout = AbortSignal.timeout(REQUEST_TIMEOUT_MS);
		const signal = callerSignal ? AbortSignal.any([callerSignal, timeout]) : timeout;
		const noAnswer = (): unknown => {
			// Our own caller giving up is not the cloud's fault: let them see their own reason.
			if (callerSignal?.aborted) return callerSignal.reason;
			return new DeviceCloudError(
				timeout.aborted
					? `Garmin did not answer ${what} within ${REQUEST_TIMEOUT_MS / 1000} s`
					: `Garmin could not be reached for ${what}`,
				'unavailable',
			);
		};
		let response: Response;
		try {
			// Secrets and tokens only ever go to the configured hosts: a redirect there is not followed unless asked.
			response = await fetchImpl(url, { redirect: 'error', ...init, signal });
		} catch {
			throw noAnswer();
		}
		const read = async (maxBytes: number) => {
			try {
				return await readCapped(response, maxBytes);
			} catch {
				throw noAnswer();
			}
		};
		return { response, read };
	}

	async function readJson<S extends v.GenericSchema>(
		read: (maxBytes: number) => Promise<Uint8Array | null>,
		schema: S,
		what: string,
	): Promise<v.InferOutput<S>> {
		const bytes = await read(MAX_JSON_BYTES);
		const parsed = v.safeParse(schema, bytes && parseJson(new TextDecoder().decode(bytes)));
		if (!parsed.success)
			throw new DeviceCloudError(`Garmin answered ${what} in an unknown shape`, 'unavailable');
		return parsed.output;
	}

	async function requestTokens(form: Record<string, string>, what: string): Promise<TokenAnswer> {
		const { response, read } = await send(tokenUrl, what, {
			method: 'POST',
			headers: { 'content-type': 'application/x-www-form-urlencoded', accept: 'application/json' },
			body: new URLSearchParams({
				...form,
				client_id: settings.clientId,
				client_secret: settings.clientSecret,
			}).toString(),
		});
		if (!response.ok) {
			const body = await read(MAX_JSON_BYTES).catch(() => null);
			const refusal = v.safeParse(OAuthErrorSchema, body && parseJson(new TextDecoder().decode(body)));
			// OAuth's answer for a code or refresh token that is spent, revoked or not ours: connect again.
			if (response.status === 400 && refusal.success && refusal.output.error === 'invalid_grant')
				throw new DeviceCloudError(`Garmin refused ${what}: the grant is no longer valid`, 'auth');
			throw statusError(response.status, what);
		}
		return readJson(read, TokenAnswerSchema, what);
	}

	function tokensFrom(
		answer: TokenAnswer,
		cloudAccount: string,
		previousRefreshToken?: string,
	): DeviceTokens {
		const tokens: DeviceTokens = { cloudAccount, accessToken: answer.access_token };
		// Garmin rotates refresh tokens; keep the old one only when none came back.
		const refreshToken = answer.refresh_token ?? previousRefreshToken;
		if (refreshToken !== undefined) tokens.refreshToken = refreshToken;
		if (answer.expires_in !== undefined) tokens.expiresAt = Date.now() + answer.expires_in * 1000;
		return tokens;
	}

	async function getJson<S extends v.GenericSchema>(
		url: URL,
		accessToken: string,
		schema: S,
		what: string,
		signal?: AbortSignal,
	): Promise<v.InferOutput<S>> {
		const { response, read } = await send(
			url,
			what,
			{ headers: { authorization: `Bearer ${accessToken}`, accept: 'application/json' } },
			signal,
		);
		if (!response.ok) {
			await response.body?.cancel().catch(() => {});
			throw statusError(response.status, what);
		}
		return readJson(read, schema, what);
	}

	return {
		key: 'garmin',
		name: 'Garmin Connect',
		description:
			'Activities you record on a Garmin watch or bike computer arrive here as workouts once they sync to Garmin Connect.',
		test: false,

		authorizeUrl({ state, redirectUri, codeChallenge }) {
			const query = new URLSearchParams({
				response_type: 'code',
				client_id: settings.clientId,
				code_challenge: codeChallenge,
				code_challenge_method: 'S256',
				redirect_uri: redirectUri,
				state,
			});
			return `${authorizeBase}/oauth2Confirm?${query}`;
		},

		async exchangeCode({ code, redirectUri, codeVerifier }) {
			const answer = await requestTokens(
				{
					grant_type: 'authorization_code',
					code,
					code_verifier: codeVerifier,
					redirect_uri: redirectUri,
				},
				'the authorisation code',
			);
			// Pushes name members by this id, not by anything in the token answer.
			const { userId } = await getJson(
				new URL(`${apiBase}/wellness-api/rest/user/id`),
				answer.access_token,
				UserIdAnswerSchema,
				'the user id request',
			);
			return tokensFrom(answer, userId);
		},

		async refresh(tokens) {
			if (!tokens.refreshToken)
				throw new DeviceCloudError('Garmin tokens cannot be renewed without a refresh token', 'auth');
			const answer = await requestTokens(
				{ grant_type: 'refresh_token', refresh_token: tokens.refreshToken },
				'the token refresh',
			);
			return tokensFrom(answer, tokens.cloudAccount, tokens.refreshToken);
		},

		async listActivities(tokens, since, signal) {
			const nowSeconds = Math.floor(Date.now() / 1000);
			const sinceSeconds = Math.floor(since.getTime() / 1000);
			// Garmin lists by upload time, one day per request; an older `since` gets the most recent days.
			let windowStart = Math.max(sinceSeconds, nowSeconds - MAX_WINDOWS * WINDOW_SECONDS);
			const found = new Map<string, DeviceActivity>();
			while (windowStart < nowSeconds) {
				const windowEnd = Math.min(windowStart + WINDOW_SECONDS, nowSeconds);
				const url = new URL(`${apiBase}/wellness-api/rest/activityFile`);
				url.search = new URLSearchParams({
					uploadStartTimeInSeconds: String(windowStart),
					uploadEndTimeInSeconds: String(windowEnd),
				}).toString();
				const files = await getJson(url, tokens.accessToken, ActivityListSchema, 'the activity list', signal);
				for (const file of files) {
					// Uploaded in the window but recorded before `since` is outside what was asked for.
					if (file.fileType !== 'FIT' || file.startTimeInSeconds < sinceSeconds) continue;
					found.set(file.summaryId, activityFrom(file));
				}
				windowStart = windowEnd;
			}
			return oldestFirst(found.values());
		},

		async fetchActivityFile(tokens, activity, maxBytes, signal) {
			if (!v.is(GarminIdSchema, activity.externalId))
				throw new DeviceCloudError('Not a Garmin activity id', 'refused');
			// Built from apiBase alone: a callbackURL from a push or list could point anywhere (SSRF).
			const url = new URL(`${apiBase}/wellness-api/rest/activityFile`);
			url.searchParams.set('id', activity.externalId);
			const { response, read } = await send(
				url,
				'the activity file download',
				// The request starts at Garmin's own host, so a redirect is Garmin's choice; fetch drops the bearer across origins.
				{
					headers: { authorization: `Bearer ${tokens.accessToken}`, accept: 'application/octet-stream' },
					redirect: 'follow',
				},
				signal,
			);
			if (!response.ok) {
				await response.body?.cancel().catch(() => {});
				throw statusError(response.status, 'the activity file download');
			}
			const bytes = await read(maxBytes);
			if (!bytes) throw new DeviceCloudError(`The activity file is larger than ${maxBytes} bytes`, 'refused');
			return bytes;
		},

		async readWebhook({ body }) {
			// Garmin does not sign pushes: a forged one can only make us ask Garmin, with the member's token.
			const push = parseJson(body);
			// valibot's object() also takes an array; a push is never one.
			if (Array.isArray(push)) return null;
			const parsed = v.safeParse(PushSchema, push);
			if (!parsed.success) return null;
			const byMember = new Map<string, Map<string, DeviceActivity>>();
			for (const file of parsed.output.activityFiles ?? []) {
				if (file.fileType !== 'FIT') continue;
				const activities = byMember.get(file.userId) ?? new Map<string, DeviceActivity>();
				activities.set(file.summaryId, activityFrom(file));
				byMember.set(file.userId, activities);
			}
			return [...byMember].map(
				([cloudAccount, activities]): DeviceNotice => ({
					cloudAccount,
					activities: oldestFirst(activities.values()),
				}),
			);
		},

		async deauthorize(tokens) {
			const what = 'ending the registration';
			let response: Response;
			try {
				({ response } = await send(`${apiBase}/wellness-api/rest/user/registration`, what, {
					method: 'DELETE',
					headers: { authorization: `Bearer ${tokens.accessToken}` },
				}));
			} catch (error) {
				if (error instanceof DeviceCloudError && error.kind === 'unavailable') return;
				throw error;
			}
			await response.body?.cancel().catch(() => {});
			if (response.ok || response.status >= 500) return;
			throw statusError(response.status, what);
		},
	};
}
