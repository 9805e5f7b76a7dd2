import * as v from 'valibot';
import type { AppDeps } from '../../api/context';
import { AppError } from '../../core/errors';
import { type AppRegistrationInput, AppRegistrationSchema, type DeveloperApp } from '../contract';
import { deleteDeveloperApp, registerApp, revokeConnectedApp } from './service';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** The registration form's fields: redirect URIs one per line, scopes as checkboxes. */
export function readAppRegistrationForm(
	form: FormData,
): { input: AppRegistrationInput; errors: null } | { input: null; errors: string[] } {
	const text = (name: string) => {
		const value = form.get(name);
		return typeof value === 'string' ? value : '';
	};
	const parsed = v.safeParse(AppRegistrationSchema, {
		name: text('name'),
		redirect_uris: text('redirect_uris')
			.split(/\r?\n/)
			.map((line) => line.trim())
			.filter((line) => line.length > 0),
		scopes: form.getAll('scopes').filter((value): value is string => typeof value === 'string'),
		confidential: text('client_type') !== 'public',
	});
	if (parsed.success) return { input: parsed.output, errors: null };
	return { input: null, errors: [...new Set(parsed.issues.map((issue) => issue.message))] };
}

export type DeveloperFormOutcome =
	| { kind: 'registered'; app: DeveloperApp; clientSecret: string | null }
	| { kind: 'deleted' }
	| { kind: 'invalid'; errors: string[] };

/** The Developer page's buttons: register an app, or delete one of the member's apps. */
export async function handleDeveloperForm(
	deps: Deps,
	viewer: { id: number },
	form: FormData,
): Promise<DeveloperFormOutcome> {
	const action = form.get('action');
	try {
		if (action === 'delete') {
			const clientId = form.get('client_id');
			if (typeof clientId !== 'string') return { kind: 'invalid', errors: ['Which app?'] };
			await deleteDeveloperApp(deps, viewer, clientId);
			return { kind: 'deleted' };
		}
		const read = readAppRegistrationForm(form);
		if (!read.input) return { kind: 'invalid', errors: read.errors };
		return { kind: 'registered', ...(await registerApp(deps, viewer, read.input)) };
	} catch (error) {
		if (error instanceof AppError && error.status < 500) return { kind: 'invalid', errors: [error.message] };
		throw error;
	}
}

/** The connected-apps page's Revoke button. */
export async function handleConnectedAppsForm(
	deps: Deps,
	viewer: { id: number },
	form: FormData,
): Promise<{ ok: boolean; message: string }> {
	const clientId = form.get('client_id');
	const name = form.get('name');
	if (typeof clientId !== 'string') return { ok: false, message: 'Which app?' };
	try {
		await revokeConnectedApp(deps, viewer.id, clientId);
		return {
			ok: true,
			message: `${typeof name === 'string' ? name.slice(0, 80) : 'The app'} no longer has access.`,
		};
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return { ok: false, message: error.message };
		throw error;
	}
}
