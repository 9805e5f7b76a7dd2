import { desc } from 'drizzle-orm';
import * as v from 'valibot';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { isUniqueViolation } from '../../db/errors';
import { ACTIVITY_GROUPS } from '../../workouts/activity-groups';
import {
	CHALLENGE_METRICS,
	type ChallengeInput,
	ChallengeInputSchema,
	type ChallengeMetric,
} from '../contract';
import type { ChallengeRow } from './challenge';
import { createChallenge, endChallenge, updateChallenge } from './organise';
import { challenges } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;

/** Every challenge, newest first, for the operator's list. */
export async function listAllChallenges(deps: Pick<AppDeps, 'db'>): Promise<ChallengeRow[]> {
	return deps.db.select().from(challenges).orderBy(desc(challenges.startsOn), desc(challenges.id));
}

/** Targets in the units an operator types: km, hours, workouts, kcal or metres climbed. */
export const TARGET_UNITS: Record<ChallengeMetric, { label: string; factor: number }> = {
	distance: { label: 'km', factor: 1000 },
	duration: { label: 'hours', factor: 3600 },
	count: { label: 'workouts', factor: 1 },
	calories: { label: 'kcal', factor: 1 },
	climb: { label: 'metres', factor: 1 },
};

export type ChallengeFormValues = ReturnType<typeof challengeFormValues>;

/** What the admin form shows for a challenge: its rules in the form's own units. */
export function challengeFormValues(row: ChallengeRow | null, teams: readonly string[] = []) {
	const metric = (row?.metric ?? 'distance') as ChallengeMetric;
	return {
		name: row?.name ?? '',
		slug: row?.slug ?? '',
		description: row?.description ?? '',
		metric,
		activity_groups: row?.activityGroups ?? ['run'],
		starts_on: row?.startsOn ?? '',
		ends_on: row?.endsOn ?? '',
		target: row ? String(row.target / TARGET_UNITS[metric].factor) : '',
		mode: row?.mode ?? 'solo',
		prizes: (row?.prizes ?? []).join('\n'),
		teams: teams.join('\n'),
	};
}

/** What the operator typed, shown again beside the errors of a refused post. */
export function typedChallengeFormValues(form: FormData | null): ChallengeFormValues {
	const text = (name: string) => String(form?.get(name) ?? '');
	return {
		name: text('name'),
		slug: text('slug'),
		description: text('description'),
		metric: (CHALLENGE_METRICS as readonly string[]).includes(text('metric'))
			? (text('metric') as ChallengeMetric)
			: 'distance',
		activity_groups: (form?.getAll('activity_groups') ?? []).map(String) as ChallengeRow['activityGroups'],
		starts_on: text('starts_on'),
		ends_on: text('ends_on'),
		target: text('target'),
		mode: text('mode') || 'solo',
		prizes: text('prizes'),
		teams: text('teams'),
	};
}

/** Reads the admin form into the rules the challenge service takes, or says what is wrong. */
export function readChallengeForm(
	form: FormData,
): { ok: true; input: ChallengeInput } | { ok: false; errors: string[] } {
	const text = (name: string) => String(form.get(name) ?? '').trim();
	const metric = text('metric') as ChallengeMetric;
	const factor = TARGET_UNITS[metric]?.factor ?? 1;
	const target = Number.parseFloat(text('target'));
	const parsed = v.safeParse(ChallengeInputSchema, {
		name: text('name'),
		...(text('slug') ? { slug: text('slug') } : {}),
		description: text('description'),
		metric,
		activity_groups: form
			.getAll('activity_groups')
			.map(String)
			.filter((group) => ACTIVITY_GROUPS.includes(group as never)),
		starts_on: text('starts_on'),
		ends_on: text('ends_on'),
		target: Number.isFinite(target) ? target * factor : Number.NaN,
		mode: text('mode') || 'solo',
		prizes: text('prizes')
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean),
		teams: text('teams')
			.split('\n')
			.map((line) => line.trim())
			.filter(Boolean),
	});
	if (parsed.success) return { ok: true, input: parsed.output };
	return {
		ok: false,
		errors: parsed.issues.map((issue) => {
			const field = v.getDotPath(issue)?.split('.')[0];
			return field ? `${FIELD_NAMES[field] ?? field}: ${issue.message}` : issue.message;
		}),
	};
}

const FIELD_NAMES: Record<string, string> = {
	name: 'Name',
	slug: 'Address name',
	description: 'Description',
	metric: 'Metric',
	activity_groups: 'Sports counted',
	starts_on: 'Starts on',
	ends_on: 'Ends on',
	target: 'Target',
	mode: 'Mode',
	prizes: 'Prizes',
	teams: 'Teams',
};

/**
 * The admin pages' posts: create, edit or end a challenge. Answers where to go next, or the
 * errors to show beside the form as it was typed.
 */
export async function handleAdminChallengePost(
	deps: Deps,
	adminId: number,
	ref: string | null,
	form: FormData | null,
): Promise<{ ok: true; id: number; done: 'created' | 'saved' | 'ended' } | { ok: false; errors: string[] }> {
	if (!form) return { ok: false, errors: ['The form could not be read.'] };
	try {
		if (form.get('action') === 'end' && ref) {
			const row = await endChallenge(deps, ref);
			return { ok: true, id: row.id, done: 'ended' };
		}
		const read = readChallengeForm(form);
		if (!read.ok) return read;
		if (ref) {
			const row = await updateChallenge(deps, ref, read.input);
			return { ok: true, id: row.id, done: 'saved' };
		}
		const row = await createChallenge(deps, read.input, adminId);
		return { ok: true, id: row.id, done: 'created' };
	} catch (error) {
		if (error instanceof AppError) return { ok: false, errors: [error.message] };
		// Two challenges may not share an address name.
		if (isUniqueViolation(error))
			return { ok: false, errors: ['Address name: another challenge already uses it.'] };
		throw error;
	}
}
