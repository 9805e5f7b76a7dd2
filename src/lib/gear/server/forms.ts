import * as v from 'valibot';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { METRES_PER_UNIT } from '../../workouts/detail-format';
import { GearCreateSchema, GearUpdateSchema } from '../contract';
import { createGear, deleteGear, getOwnGear, updateGear } from './service';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
export type GearFormOutcome = { ok: boolean; message: string };

/** A distance typed in the member's unit as metres; blank is `blank`, anything else unreadable is NaN. */
function metresFrom(text: string, unit: 'km' | 'mi', blank: number | null): number | null {
	const trimmed = text.trim().replace(',', '.');
	if (!trimmed) return blank;
	if (!/^\d{1,9}(\.\d{1,3})?$/.test(trimmed)) return Number.NaN;
	return Math.round(Number(trimmed) * METRES_PER_UNIT[unit] * 10) / 10;
}

const messages = (issues: readonly { message: string }[]) =>
	[...new Set(issues.map((issue) => issue.message))].join(' ');

/**
 * The gear page's buttons: add, save, retire or bring back, and delete. The fields go through the
 * API's own schemas, so the page and the API accept the same things.
 */
export async function handleGearForm(
	deps: Deps,
	viewer: { id: number },
	form: FormData,
	unit: 'km' | 'mi',
): Promise<GearFormOutcome> {
	const text = (name: string) => {
		const value = form.get(name);
		return typeof value === 'string' ? value : '';
	};
	const action = text('action');
	const fields = () => {
		const start = metresFrom(text('start_distance'), unit, 0);
		const alert = metresFrom(text('alert_distance'), unit, null);
		return {
			kind: text('kind'),
			brand: text('brand'),
			model: text('model'),
			nickname: text('nickname'),
			// An unreadable number goes to the schema as text, which refuses it in its own words.
			start_distance: Number.isNaN(start) ? text('start_distance') : start,
			alert_distance: Number.isNaN(alert) ? text('alert_distance') : alert,
		};
	};
	try {
		if (action === 'add') {
			const parsed = v.safeParse(GearCreateSchema, fields());
			if (!parsed.success) return { ok: false, message: messages(parsed.issues) };
			await createGear(deps, viewer, parsed.output);
			return { ok: true, message: 'Gear added.' };
		}
		const id = /^\d{1,9}$/.test(text('id')) ? Number(text('id')) : null;
		if (id === null) return { ok: false, message: 'Which gear?' };
		if (action === 'delete') {
			await deleteGear(deps, viewer, id);
			return { ok: true, message: 'Gear deleted. Its workouts keep their distances.' };
		}
		if (action === 'retire' || action === 'unretire') {
			await updateGear(deps, viewer, id, { retired: action === 'retire' }, null);
			return { ok: true, message: action === 'retire' ? 'Gear retired.' : 'Gear back in use.' };
		}
		if (action === 'save') {
			const parsed = v.safeParse(GearUpdateSchema, {
				...fields(),
				version: Number(text('version')) || undefined,
			});
			if (!parsed.success) return { ok: false, message: messages(parsed.issues) };
			const outcome = await updateGear(deps, viewer, id, parsed.output, parsed.output.version ?? null);
			if (!outcome.ok)
				return { ok: false, message: 'This gear was changed elsewhere; here is the saved copy.' };
			return { ok: true, message: 'Gear saved.' };
		}
		await getOwnGear(deps, viewer, id);
		return { ok: false, message: 'Which button?' };
	} catch (error) {
		if (error instanceof AppError && error.code !== 'unavailable')
			return { ok: false, message: error.message };
		throw error;
	}
}
