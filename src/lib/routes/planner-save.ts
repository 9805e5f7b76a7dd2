import { atom } from 'nanostores';
import { trackEvent } from '../analytics/queue';
import { type ApiOptions, api, errorCode, errorData } from '../api/client';
import { CUSTOM_NOTE_ICON_ID, type RouteSaveInput } from './contract';
import {
	buildSavePayload,
	type LatLng,
	type OpenedRoute,
	planFromSavedRoute,
	plannerDraftKey,
	type SavedRoute,
} from './planner';
import {
	createPlannerDraft,
	type DraftStorage,
	detailsOf,
	EMPTY_DETAILS,
	type PlannerDetails,
} from './planner-draft';
import type { PlannerStore } from './planner-store';

/** When the route was saved elsewhere (another tab, another device) after the planner opened it. */
export type SaveConflict = { sentVersion: number; savedVersion: number; savedName: string };

/** The API as the save uses it: resolves to the answer, throws the API's refusal (`errorData` reads it). */
export type SaveRequest = (path: string, options: Pick<ApiOptions, 'method' | 'body'>) => Promise<unknown>;

export type PlannerSaveOptions = {
	store: PlannerStore;
	/** The saved route an edit or a copy starts from; none when drawing a new route. */
	opened?: OpenedRoute;
	/** Where the page's draft is kept; null where the browser keeps none. */
	storage: DraftStorage | null;
	/** Called once the route is saved, with its id (the page then opens it). */
	onSaved: (id: number) => void;
	request?: SaveRequest;
};

/** The save form's fields the API names, shown beside their fields; other refusals are said under the form. */
const FORM_FIELDS = ['name', 'description', 'activity_type', 'privacy'];

/**
 * The planner's save form: the details, the draft kept beside them (`draft`), and the save. An edit
 * replaces its route only if nobody saved it meanwhile: when someone did, `$conflict` holds the
 * choice, to save over theirs (`keepMine`) or take theirs into the planner (`takeTheirs`). A new
 * route or a copy becomes a route of the member's.
 */
export function createPlannerSave(options: PlannerSaveOptions) {
	const { store, opened, onSaved } = options;
	const request: SaveRequest = options.request ?? ((path, init) => api(path, init));
	const $details = atom<PlannerDetails>(opened ? detailsOf(opened.route) : EMPTY_DETAILS);
	/** The details the route opened (or was last taken) with: unchanged, they leave nothing unsaved. */
	const $initialDetails = atom<PlannerDetails>($details.get());
	const $saving = atom(false);
	const $fieldErrors = atom<Record<string, string[]>>({});
	const $saveError = atom('');
	const $conflict = atom<SaveConflict | null>(null);
	const draft = createPlannerDraft({
		store,
		storage: options.storage,
		key: plannerDraftKey(opened ? { kind: opened.kind, routeId: opened.routeId } : { kind: 'create' }),
		isOpenedRoute: opened !== undefined,
		$details,
		$initialDetails,
	});
	/** The version the edit is based on: sent with the save, so a save made elsewhere meanwhile is not lost. */
	let version = opened?.route.version ?? null;
	/** The save that lost to a newer one, and that newer route, kept while the member chooses. */
	let lost: { payload: RouteSaveInput; theirs: SavedRoute } | null = null;

	const finish = (id: number) => {
		draft.close();
		onSaved(id);
	};

	async function send(payload: RouteSaveInput): Promise<void> {
		if (opened?.kind === 'edit') {
			try {
				const saved = (await request(`/v7.1/route/${opened.routeId}/`, {
					method: 'PUT',
					body: { ...payload, version: version ?? undefined } as unknown as Record<string, unknown>,
				})) as { id: number; version: number };
				version = saved.version;
				trackEvent('route_updated', { route_id: saved.id, points: payload.points.length });
				finish(saved.id);
			} catch (error) {
				const current = (errorData(error) as { current?: SavedRoute }).current;
				if (errorCode(error) !== 'precondition_failed' || !current) throw error;
				lost = { payload, theirs: current };
				$conflict.set({ sentVersion: version ?? 0, savedVersion: current.version, savedName: current.name });
				$saving.set(false);
			}
			return;
		}
		const saved = (await request('/v7.1/route/', {
			method: 'POST',
			body: payload as unknown as Record<string, unknown>,
		})) as { id: number };
		if (opened?.kind === 'copy')
			trackEvent('route_copied', { route_id: saved.id, source_route_id: opened.routeId });
		else trackEvent('route_created', { route_id: saved.id, points: payload.points.length });
		finish(saved.id);
	}

	function fail(error: unknown): void {
		const data = errorData(error);
		const failures: Record<string, string[]> = {};
		for (const entry of data._diagnostics?.validation_failures ?? []) {
			for (const [field, messages] of Object.entries(entry)) {
				const key = field.split('.')[0].toLowerCase();
				failures[key] = [...(failures[key] ?? []), ...messages];
			}
		}
		$fieldErrors.set(failures);
		const other = Object.entries(failures)
			.filter(([field]) => !FORM_FIELDS.includes(field))
			.flatMap(([, messages]) => messages);
		$saveError.set(other.join(' ') || data.message || 'The route could not be saved. Please try again.');
		$saving.set(false);
	}

	return {
		$details,
		$initialDetails,
		$saving,
		$fieldErrors,
		$saveError,
		$conflict,
		draft,
		setDetails(change: Partial<PlannerDetails>): void {
			$details.set({ ...$details.get(), ...change });
		},
		/** Saves the route as the store has it now (the panels' view may lag the newest click by a moment). */
		async save(): Promise<void> {
			$saveError.set('');
			$fieldErrors.set({});
			const details = $details.get();
			if (!details.name.trim()) {
				$fieldErrors.set({ name: ['Name is required.'] });
				return;
			}
			const legs = store.$legs.get();
			if (legs.length === 0) {
				$saveError.set('A route needs at least two points.');
				return;
			}
			$saving.set(true);
			$conflict.set(null);
			try {
				await send(
					buildSavePayload(
						legs,
						store.$history.get().present.notes ?? [],
						{
							name: details.name,
							description: details.description,
							activity_type: details.activity,
							privacy: details.privacy,
						},
						CUSTOM_NOTE_ICON_ID,
					),
				);
			} catch (error) {
				fail(error);
			}
		},
		/** Saves the route that lost over the newer one. */
		async keepMine(): Promise<void> {
			if (!lost) return;
			version = lost.theirs.version;
			$conflict.set(null);
			$saving.set(true);
			try {
				await send(lost.payload);
			} catch (error) {
				fail(error);
			}
		},
		/** Drops the route that lost and opens the newer one in its place; returns its waypoints, to frame them. */
		takeTheirs(): readonly LatLng[] | null {
			if (!lost) return null;
			const { theirs } = lost;
			const plan = planFromSavedRoute(theirs);
			const taken = detailsOf(theirs);
			version = theirs.version;
			store.reset(plan.state, plan.routed);
			$initialDetails.set(taken);
			$details.set(taken);
			$conflict.set(null);
			lost = null;
			return plan.state.waypoints;
		},
	};
}

export type PlannerSave = ReturnType<typeof createPlannerSave>;
