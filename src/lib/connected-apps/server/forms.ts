import * as v from 'valibot';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { type AppRegistrationInput, AppRegistrationSchema, type DeveloperApp } from '../contract';
import { disconnectDevice, requestDeviceSync, startDeviceConnect } from './device-sync';
import { deleteDeveloperApp, registerApp, revokeConnectedApp } from './service';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

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

/** What a button on the connected-apps page did; `redirect` sends the member on (to a device cloud). */
export type ConnectedAppsFormOutcome = { ok: boolean; message: string; redirect?: string };

/**
 * The connected-apps page's buttons: Revoke for an app; Connect, Sync now and Disconnect for a device
 * cloud.
 */
export async function handleConnectedAppsForm(
	deps: Deps,
	viewer: { id: number },
	form: FormData,
): Promise<ConnectedAppsFormOutcome> {
	const field = (name: string) => {
		const value = form.get(name);
		return typeof value === 'string' ? value : null;
	};
	const action = field('action');
	try {
		if (action === 'device_connect') {
			const cloud = field('cloud');
			if (!cloud) return { ok: false, message: 'Which device cloud?' };
			return { ok: true, message: '', redirect: await startDeviceConnect(deps, viewer.id, cloud) };
		}
		if (action === 'device_sync' || action === 'device_disconnect') {
			const id = Number(field('connection_id'));
			if (!Number.isSafeInteger(id) || id <= 0) return { ok: false, message: 'Which device connection?' };
			if (action === 'device_sync') {
				await requestDeviceSync(deps, viewer.id, id);
				return {
					ok: true,
					message: 'Syncing: new activities appear below in a moment (reload to see them).',
				};
			}
			const name = await disconnectDevice(deps, viewer.id, id);
			return { ok: true, message: `${name} is disconnected. The workouts it brought in stay yours.` };
		}
		const clientId = field('client_id');
		if (!clientId) return { ok: false, message: 'Which app?' };
		await revokeConnectedApp(deps, viewer.id, clientId);
		return { ok: true, message: `${field('name')?.slice(0, 80) ?? 'The app'} no longer has access.` };
	} catch (error) {
		if (error instanceof AppError && error.status < 500) return { ok: false, message: error.message };
		throw error;
	}
}
