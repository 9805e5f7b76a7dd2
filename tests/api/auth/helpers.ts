import { desc, eq } from 'drizzle-orm';
import { createAccountApi } from '../../../src/lib/account/server/api';
import { createAuthApi } from '../../../src/lib/auth/server/api';
import { outboxMessages } from '../../../src/lib/auth/server/tables';
import type { AppDeps } from '../../../src/lib/core/server/deps';
import { flushMail } from '../../../src/lib/mail/server/service';
import { callApi, createTestApi } from '../../helpers/app';

export const PASSWORD = 'Blue-Kettle-Orbit-42';

export function createAccountsApp(deps: AppDeps) {
	return createTestApi(deps, { routes: [createAuthApi(), createAccountApi()] });
}

export type App = ReturnType<typeof createAccountsApp>;

export function signupBody(overrides: Record<string, unknown> = {}) {
	return {
		first_name: 'Ada',
		last_name: 'Runner',
		email: 'ada@example.test',
		password: PASSWORD,
		birthdate: '1990-04-12',
		gender: 'F',
		location: { country: 'GB', region: '', locality: 'London' },
		consent_matrix_version: '3',
		consents: { privacy_policy: true, terms: true },
		gdpr_iso_code: 'GB',
		appName: 'mapstride-web',
		promotionalPreference: false,
		...overrides,
	};
}

/** The session cookie's `name=value` from a response, for the next request's Cookie header. */
export function sessionCookie(headers: Headers): string | undefined {
	const cookie = headers.getSetCookie().find((line) => line.startsWith('ms_session='));
	return cookie?.split(';')[0];
}

export async function signupMember(
	app: App,
	overrides: Record<string, unknown> = {},
	headers: Record<string, string> = {},
) {
	const response = await callApi(app, 'POST', '/api/auth/signup', { body: signupBody(overrides), headers });
	if (response.status !== 201) throw new Error(`signup failed: ${response.status} ${response.text}`);
	return {
		id: response.json.user.id as number,
		token: response.json.access_token as string,
		cookie: sessionCookie(response.headers) as string,
		user: response.json.user,
	};
}

/** The newest message for an address in the outbox (once queued mail is written), and the first link in it. */
export async function latestMail(deps: AppDeps, to: string) {
	await flushMail();
	const [row] = await deps.db
		.select()
		.from(outboxMessages)
		.where(eq(outboxMessages.toAddress, to))
		.orderBy(desc(outboxMessages.id))
		.limit(1);
	const link = row?.textBody.match(/https?:\/\/\S+/)?.[0];
	return { row, link, token: link?.split('/').pop() };
}
