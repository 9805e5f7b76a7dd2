import { atom, type WritableAtom } from 'nanostores';
import { FetchError } from 'ofetch';
import type { DetailedError } from 'tus-js-client';
import { api, ensureSession, errorData, loginPath, refreshToken } from '../api/client';
import { $session } from '../auth/store';
import {
	ACTIVITY_TYPES_CACHE_DAYS,
	ACTIVITY_TYPES_STORAGE_KEY,
	type ActivityTypeView,
	type BulkImportProgress,
	WORKOUT_UPLOADS_PATH,
	type WorkoutUploadView,
} from './contract';

/**
 * The workout islands' state: the activity type list (kept in this browser for 30 days), the
 * calorie estimate, saving a workout logged by hand, and uploading device files two at a time
 * with their progress.
 */

export { ACTIVITY_TYPES_STORAGE_KEY };
export const ACTIVITY_TYPES_CACHE_MS = ACTIVITY_TYPES_CACHE_DAYS * 24 * 3600 * 1000;
/** The synthetic group shown first, in this order, with the ids the list holds. */
export const POPULAR_ACTIVITY_TYPE_IDS = [16, 9, 11, 24, 15, 78] as const;

export type ActivityTypeOption = { id: number; name: string; parentId: number | null; rootId: number };
export type ActivityTypesState =
	| { status: 'idle' | 'loading' | 'error'; types: ActivityTypeOption[] }
	| { status: 'loaded'; types: ActivityTypeOption[] };

export const $activityTypes = atom<ActivityTypesState>({ status: 'idle', types: [] });

type CachedTypes = { savedAt: number; types: ActivityTypeOption[] };

function linkedId(view: ActivityTypeView, name: string): number | null {
	const id = Number(view._links[name]?.[0]?.id);
	return Number.isInteger(id) && id > 0 ? id : null;
}

export function toActivityTypeOption(view: ActivityTypeView): ActivityTypeOption {
	return {
		id: view.id,
		name: view.name,
		parentId: linkedId(view, 'parent'),
		rootId: linkedId(view, 'root') ?? view.id,
	};
}

function readCache(storage: Storage | null, now: number): ActivityTypeOption[] | null {
	try {
		const cached = JSON.parse(storage?.getItem(ACTIVITY_TYPES_STORAGE_KEY) ?? 'null') as CachedTypes | null;
		if (!cached || !Array.isArray(cached.types) || typeof cached.savedAt !== 'number') return null;
		if (now - cached.savedAt > ACTIVITY_TYPES_CACHE_MS || cached.savedAt > now) return null;
		return cached.types.length > 0 ? cached.types : null;
	} catch {
		return null;
	}
}

function writeCache(storage: Storage | null, types: ActivityTypeOption[], now: number) {
	try {
		storage?.setItem(
			ACTIVITY_TYPES_STORAGE_KEY,
			JSON.stringify({ savedAt: now, types } satisfies CachedTypes),
		);
	} catch {
		// A full or switched-off storage only means the list is fetched again next time.
	}
}

function browserStorage(): Storage | null {
	try {
		return typeof window === 'undefined' ? null : window.localStorage;
	} catch {
		return null;
	}
}

let loading: Promise<void> | null = null;

/** Loads the activity types once per page: from this browser's copy when under 30 days old, else the API. */
export function loadActivityTypes(
	options: { force?: boolean; now?: number; storage?: Storage | null } = {},
): Promise<void> {
	const state = $activityTypes.get();
	if (!options.force && (state.status === 'loaded' || loading)) return loading ?? Promise.resolve();
	const storage = options.storage === undefined ? browserStorage() : options.storage;
	const now = options.now ?? Date.now();
	const cached = options.force ? null : readCache(storage, now);
	if (cached) {
		$activityTypes.set({ status: 'loaded', types: cached });
		return Promise.resolve();
	}
	$activityTypes.set({ status: 'loading', types: [] });
	loading = (async () => {
		try {
			const page = await api<{ _embedded?: { activity_types?: ActivityTypeView[] } }>('/v7.1/activity_type/');
			const types = (page._embedded?.activity_types ?? []).map(toActivityTypeOption);
			if (types.length === 0) throw new Error('No activity types');
			writeCache(storage, types, now);
			$activityTypes.set({ status: 'loaded', types });
		} catch {
			$activityTypes.set({ status: 'error', types: [] });
		} finally {
			loading = null;
		}
	})();
	return loading;
}

export type ActivityTypeGroup = { label: string; options: ActivityTypeOption[] };

/**
 * The selector's groups: "Popular" first, then one per top-level type (the type itself first,
 * the rest by name). A search keeps the types whose name, or whose group's name, holds the text.
 */
export function groupActivityTypes(types: readonly ActivityTypeOption[], search = ''): ActivityTypeGroup[] {
	const needle = search.trim().toLocaleLowerCase();
	const byId = new Map(types.map((type) => [type.id, type]));
	const matches = (type: ActivityTypeOption) =>
		needle === '' ||
		type.name.toLocaleLowerCase().includes(needle) ||
		(byId.get(type.rootId)?.name.toLocaleLowerCase().includes(needle) ?? false);
	const groups: ActivityTypeGroup[] = [];
	const popular = POPULAR_ACTIVITY_TYPE_IDS.flatMap((id) => {
		const type = byId.get(id);
		return type && matches(type) ? [type] : [];
	});
	if (popular.length > 0) groups.push({ label: 'Popular', options: popular });
	const roots = types.filter((type) => type.parentId === null).sort((a, b) => a.name.localeCompare(b.name));
	for (const root of roots) {
		const members = types
			.filter((type) => type.rootId === root.id && type.id !== root.id)
			.sort((a, b) => a.name.localeCompare(b.name));
		const options = [root, ...members].filter(matches);
		if (options.length > 0) groups.push({ label: root.name, options });
	}
	return groups;
}

/** The calorie estimate (kcal) for an activity and duration, from the member's weight. */
export async function estimateCalories(
	activityType: number,
	durationSeconds: number,
	signal?: AbortSignal,
): Promise<number> {
	const answer = await api<{ calories: number }>('/_api/workout/calculate/calories/', {
		query: { activity_type: activityType, duration: durationSeconds },
		signal,
	});
	return answer.calories;
}

export type WorkoutLogBody = {
	name: string;
	start_datetime: string;
	start_locale_timezone: string;
	activity_type: number;
	privacy: number;
	notes: string;
	aggregates: Record<string, number>;
	gear?: number;
};

export type SaveOutcome =
	| { ok: true; id: number }
	| {
			ok: false;
			code: 'validation_error' | 'unknown_error' | 'network_error';
			message: string;
			fields: string[];
	  };

/** The messages of a refused save, one per failing field, from the API's `fields` or `_diagnostics`. */
function failureMessages(data: ReturnType<typeof errorData>): string[] {
	const fromFields = (data.fields ?? []).map((field) => field.message).filter(Boolean);
	if (fromFields.length > 0) return fromFields;
	return (data._diagnostics?.validation_failures ?? []).flatMap((failure) =>
		Object.entries(failure).flatMap(([field, messages]) => messages.map((message) => `${field}: ${message}`)),
	);
}

/** Saves a workout logged by hand; a refusal says why, and the form keeps everything typed. */
export async function saveWorkout(body: WorkoutLogBody): Promise<SaveOutcome> {
	if (!(await ensureSession())) {
		window.location.assign(loginPath());
		return { ok: false, code: 'unknown_error', message: 'Log in again to save your workout.', fields: [] };
	}
	try {
		const saved = await api<{ id: number }>('/v7.1/workout/', { method: 'POST', body });
		return { ok: true, id: saved.id };
	} catch (error) {
		if (!(error instanceof FetchError) || error.status === undefined)
			return {
				ok: false,
				code: 'network_error',
				message:
					'We could not reach the server, so the workout is not saved yet. Check your connection and save again.',
				fields: [],
			};
		const data = errorData(error);
		const fields = failureMessages(data);
		if (fields.length > 0 || data.error === 'validation_error' || error.status === 400)
			return {
				ok: false,
				code: 'validation_error',
				message: data.message ?? 'Some entries need a change before the workout can be saved.',
				fields,
			};
		return {
			ok: false,
			code: 'unknown_error',
			message: data.message
				? `The workout could not be saved: ${data.message}`
				: 'The workout could not be saved because of a problem on our side. Please try again.',
			fields: [],
		};
	}
}

// —— Uploading device files ——

export type UploadOutcome =
	| { kind: 'imported'; workoutId: number; name: string; notice?: string; heldBack?: string[] }
	| { kind: 'duplicate'; workoutId: number }
	| { kind: 'failed'; message: string }
	| { kind: 'network' };

export type UploadItem = {
	key: number;
	fileName: string;
	size: number;
	status: 'queued' | 'uploading' | 'done';
	/** Bytes sent of the request, 0–1; null until the browser reports it. */
	progress: number | null;
	outcome: UploadOutcome | null;
};

export type SendFile = (file: File, onProgress: (fraction: number) => void) => Promise<UploadOutcome>;

export const WORKOUT_FILE_EXTENSIONS = ['.gpx', '.tcx', '.fit', '.gz', '.zip'] as const;
export const MAX_PARALLEL_UPLOADS = 2;

/** The outcome of an answer from device/file_import/. */
export function uploadOutcomeOf(status: number, body: unknown): UploadOutcome {
	const data = (body && typeof body === 'object' ? body : {}) as {
		id?: number;
		name?: string;
		message?: string;
		_links?: { existing?: { id?: string }[] };
	};
	if (status === 201 && typeof data.id === 'number')
		return { kind: 'imported', workoutId: data.id, name: data.name ?? '' };
	const existing = Number(data._links?.existing?.[0]?.id);
	if (status === 409 && Number.isInteger(existing)) return { kind: 'duplicate', workoutId: existing };
	if (status === 0) return { kind: 'network' };
	if (status === 413) return { kind: 'failed', message: data.message ?? 'The file is too large to import.' };
	return {
		kind: 'failed',
		message:
			data.message ?? `The file could not be imported (the server answered ${status}). Please try again.`,
	};
}

/**
 * One Idempotency-Key per chosen file, kept across its retries: an upload started again after its
 * first one was lost (a closed tab, an expired upload) gets the workout the first one stored, not a
 * second one.
 */
const uploadKeys = new WeakMap<File, string>();
function uploadKeyOf(file: File): string {
	let key = uploadKeys.get(file);
	if (!key) {
		key = crypto.randomUUID().replaceAll('-', '');
		uploadKeys.set(file, key);
	}
	return key;
}

function xhrSend(file: File, token: string | undefined, onProgress: (fraction: number) => void, url: string) {
	return new Promise<{ status: number; body: unknown }>((resolve) => {
		const request = new XMLHttpRequest();
		request.open('POST', url);
		request.withCredentials = true;
		if (token) request.setRequestHeader('authorization', `Bearer ${token}`);
		request.responseType = 'json';
		request.upload.addEventListener('progress', (event) => {
			if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
		});
		request.addEventListener('load', () => resolve({ status: request.status, body: request.response }));
		request.addEventListener('error', () => resolve({ status: 0, body: null }));
		request.addEventListener('abort', () => resolve({ status: 0, body: null }));
		const form = new FormData();
		form.append('file', file, file.name);
		request.send(form);
	});
}

/**
 * A PATCH of at most this many bytes: at 10 KB/s it ends well inside the server's two-minute
 * request limit, and a drop costs only the part of it still in flight.
 */
export const UPLOAD_CHUNK_BYTES = 512 * 1024;
/** Waits before each try after a drop; a try that moved the upload on starts the list again. */
export const UPLOAD_RETRY_DELAYS_MS = [0, 1000, 3000, 5000, 10_000, 20_000, 30_000];

/** The outcome the upload's own address reports once every byte is in (waiting while the file is read). */
async function outcomeOfUpload(url: string): Promise<UploadOutcome> {
	const path = new URL(url, window.location.href).pathname.replace(/^\/api/, '');
	for (let asked = 0; asked < 30; asked++) {
		let view: WorkoutUploadView;
		try {
			view = await api<WorkoutUploadView>(path);
		} catch (error) {
			if (!(error instanceof FetchError) || error.status === undefined) return { kind: 'network' };
			return uploadOutcomeOf(error.status, error.data);
		}
		if (view.status === 'imported' && view.workout)
			return {
				kind: 'imported',
				workoutId: view.workout.id,
				name: view.workout.name,
				...(view.workout.notice ? { notice: view.workout.notice } : {}),
				...(view.workout.held_back?.length ? { heldBack: view.workout.held_back } : {}),
			};
		if (view.status === 'duplicate' && view.workout) return { kind: 'duplicate', workoutId: view.workout.id };
		if (view.status === 'refused' && view.refusal)
			return uploadOutcomeOf(view.refusal.status, { message: view.refusal.message });
		if (view.status !== 'importing') break;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	return { kind: 'failed', message: 'The file could not be imported. Please try again.' };
}

/** What a refused or broken-off upload means for the member: the server's own answer when there is one. */
function outcomeOfUploadError(error: DetailedError | Error): UploadOutcome {
	const response = (error as DetailedError).originalResponse;
	if (!response) return { kind: 'network' };
	let body: unknown = null;
	try {
		body = JSON.parse(response.getBody());
	} catch {
		body = null;
	}
	return uploadOutcomeOf(response.getStatus(), body);
}

/** Statuses after which the same request may work: a drop, a timeout, a busy server, a lock still held. */
function isWorthRetrying(status: number | undefined): boolean {
	return status === undefined || status === 0 || [408, 409, 423, 429].includes(status) || status >= 500;
}

/**
 * Sends one file as a resumable (tus) upload: in parts, each request carrying the member's current
 * token, with a real progress bar. After a drop it asks the server how far the bytes got and goes on
 * from there, by itself; a file chosen again after a closed tab resumes too. tus-js-client is
 * loaded when the first upload starts, so the page itself stays light.
 */
export const sendWorkoutFile: SendFile = async (file, onProgress) => {
	if (!(await ensureSession())) {
		window.location.assign(loginPath());
		return { kind: 'failed', message: 'Log in again to import files.' };
	}
	const { Upload } = await import('tus-js-client');
	let signedOut = false;
	const outcome = await new Promise<UploadOutcome>((resolve) => {
		const upload = new Upload(file, {
			endpoint: WORKOUT_UPLOADS_PATH,
			chunkSize: UPLOAD_CHUNK_BYTES,
			retryDelays: UPLOAD_RETRY_DELAYS_MS,
			metadata: { filename: file.name, idempotency_key: uploadKeyOf(file) },
			removeFingerprintOnSuccess: true,
			// Access tokens live minutes; a slow upload outlasts several.
			onBeforeRequest: async (request) => {
				await ensureSession();
				const token = $session.get()?.accessToken;
				if (token) request.setHeader('Authorization', `Bearer ${token}`);
			},
			onShouldRetry: (error) => {
				const status = (error as DetailedError).originalResponse?.getStatus();
				if (status === 401) {
					// A refreshed token goes with the next try; a refused refresh ends the upload.
					return !signedOut;
				}
				return isWorthRetrying(status);
			},
			onProgress: (sent, total) => {
				if (total > 0) onProgress(sent / total);
			},
			onSuccess: () => void outcomeOfUpload(upload.url ?? '').then(resolve),
			onError: (error) => resolve(outcomeOfUploadError(error)),
			onAfterResponse: async (_request, response) => {
				if (response.getStatus() === 401 && !(await refreshToken())) signedOut = true;
			},
		});
		void upload
			.findPreviousUploads()
			.then((previous) => {
				if (previous[0]) upload.resumeFromPreviousUpload(previous[0]);
			})
			.catch(() => {})
			.finally(() => upload.start());
	});
	if (signedOut) {
		window.location.assign(loginPath());
		return { kind: 'failed', message: 'Log in again to import files.' };
	}
	return outcome;
};

export type UploadQueue = {
	$items: WritableAtom<UploadItem[]>;
	add(files: Iterable<File>): void;
	retry(key: number): void;
};

/** Files wait their turn and go at most `parallel` at once; each item shows its progress and outcome. */
export function createUploadQueue(send: SendFile, parallel = MAX_PARALLEL_UPLOADS): UploadQueue {
	const $items = atom<UploadItem[]>([]);
	const files = new Map<number, File>();
	let nextKey = 1;
	let running = 0;

	const update = (key: number, change: Partial<UploadItem>) =>
		$items.set($items.get().map((item) => (item.key === key ? { ...item, ...change } : item)));

	function pump() {
		while (running < parallel) {
			const next = $items.get().find((item) => item.status === 'queued');
			if (!next) return;
			const file = files.get(next.key) as File;
			running++;
			update(next.key, { status: 'uploading', progress: null, outcome: null });
			send(file, (fraction) => update(next.key, { progress: Math.min(1, Math.max(0, fraction)) }))
				.catch((): UploadOutcome => ({ kind: 'network' }))
				.then((outcome) => {
					running--;
					if (outcome.kind !== 'network') files.delete(next.key);
					update(next.key, {
						status: 'done',
						outcome,
						progress: outcome.kind === 'network' ? null : 1,
					});
					pump();
				});
		}
	}

	return {
		$items,
		add(chosen) {
			const added: UploadItem[] = [];
			for (const file of chosen) {
				const key = nextKey++;
				files.set(key, file);
				added.push({
					key,
					fileName: file.name,
					size: file.size,
					status: 'queued',
					progress: null,
					outcome: null,
				});
			}
			$items.set([...$items.get(), ...added]);
			pump();
		},
		retry(key) {
			const item = $items.get().find((candidate) => candidate.key === key);
			if (item?.outcome?.kind !== 'network' || !files.has(key)) return;
			update(key, { status: 'queued', outcome: null, progress: null });
			pump();
		},
	};
}

/** Whether a chosen or dropped file is one the import reads, by its name. */
export function isWorkoutFileName(name: string): boolean {
	const lower = name.toLowerCase();
	return WORKOUT_FILE_EXTENSIONS.some((extension) => lower.endsWith(extension));
}

/** One file's outcome in a bulk import, as the progress endpoint lists it. */
export const BULK_IMPORT_URL = '/api/v7.1/device/bulk_import/';
/** How often the upload page asks how an import is going. */
export const BULK_IMPORT_POLL_MS = 1000;

/**
 * Sends a zip of workout files with upload progress; the server answers at once with the import
 * it queued, or refuses the archive with the reason.
 */
export async function sendBulkImport(
	file: File,
	onProgress: (fraction: number) => void,
): Promise<{ ok: true; progress: BulkImportProgress } | { ok: false; message: string }> {
	if (!(await ensureSession())) {
		window.location.assign(loginPath());
		return { ok: false, message: 'Log in again to import files.' };
	}
	let answer = await xhrSend(file, $session.get()?.accessToken, onProgress, BULK_IMPORT_URL);
	if (answer.status === 401 && (await refreshToken()))
		answer = await xhrSend(file, $session.get()?.accessToken, onProgress, BULK_IMPORT_URL);
	if (answer.status === 202) return { ok: true, progress: answer.body as BulkImportProgress };
	if (answer.status === 0) return { ok: false, message: 'The upload did not reach the server. Try again.' };
	const message = (answer.body as { message?: string } | null)?.message;
	return {
		ok: false,
		message: message ?? `The zip could not be imported (the server answered ${answer.status}).`,
	};
}

export async function readBulkImport(id: number): Promise<BulkImportProgress> {
	return api<BulkImportProgress>(`/v7.1/device/bulk_import/${id}/`);
}
