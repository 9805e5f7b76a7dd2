import type { Viewer } from '../../auth/contract';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { loginPathFor } from '../../site/guards';
import { CHALLENGE_SPORTS, type ChallengeSport } from '../contract';
import { challengeDetails } from './details';
import { joinChallenge, leaveChallenge } from './participation';
import { confirmWorkoutPace } from './progress';

/** A challenge reference from a page address: an id or a named challenge's slug, else null. */
export function readChallengeRef(value: string | undefined): string | null {
	return value && /^(\d{1,9}|[a-z][a-z0-9-]{1,39})$/.test(value) ? value : null;
}

export function readSport(value: string | null): ChallengeSport | null {
	return CHALLENGE_SPORTS.find((sport) => sport === value) ?? null;
}

/** A whole page number from the query, 1 when absent or not one. */
export function readPage(value: string | null): number {
	return value && /^\d{1,6}$/.test(value) && Number(value) >= 1 ? Number(value) : 1;
}

const DONE_MESSAGES = {
	joined: 'You joined this challenge.',
	left: 'You left this challenge.',
	confirmed: 'Confirmed: the workout counts now.',
	named: 'Saved your name choice.',
	team: 'You switched teams.',
} as const;
type Done = keyof typeof DONE_MESSAGES;

/** The note shown after a form post redirected back to the page. */
function doneMessage(value: string | null): { ok: boolean; message: string } | null {
	return value && value in DONE_MESSAGES ? { ok: true, message: DONE_MESSAGES[value as Done] } : null;
}

/**
 * The challenge page's form posts: join (with the name choice), switching teams, leave and
 * confirming a flagged workout. Answers the message to show, or null when the post was not one of these.
 */
async function handleChallengePost(
	deps: AppDeps,
	viewer: Viewer,
	ref: string,
	form: FormData | null,
): Promise<{ ok: true; done: Done } | { ok: false; message: string } | null> {
	const action = form?.get('action');
	try {
		if (action === 'join' || action === 'team') {
			const team = String(form?.get('team') ?? '');
			if ((team || action === 'team') && !/^\d{1,9}$/.test(team))
				return { ok: false, message: 'Choose a team.' };
			await joinChallenge(
				deps,
				viewer,
				ref,
				form?.get('show_name') === 'on',
				team ? Number(team) : undefined,
			);
			return { ok: true, done: action === 'team' ? 'team' : 'joined' };
		}
		if (action === 'name') {
			await joinChallenge(deps, viewer, ref, form?.get('show_name') === 'on');
			return { ok: true, done: 'named' };
		}
		if (action === 'leave') {
			await leaveChallenge(deps, viewer, ref, viewer.id);
			return { ok: true, done: 'left' };
		}
		if (action === 'confirm') {
			const id = String(form?.get('workout') ?? '');
			if (!/^\d{1,9}$/.test(id)) return { ok: false, message: 'Choose a workout to confirm.' };
			await confirmWorkoutPace(deps, viewer, ref, Number(id));
			return { ok: true, done: 'confirmed' };
		}
	} catch (error) {
		if (error instanceof AppError) return { ok: false, message: error.message };
		throw error;
	}
	return null;
}

/** The details, or null when no challenge has that id or name. */
async function loadChallengePage(deps: AppDeps, viewer: Viewer | null, ref: string | null) {
	if (ref === null) return null;
	try {
		return await challengeDetails(deps, viewer, ref);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return null;
		throw error;
	}
}

/**
 * A challenge page's answer to a visit or a form post (the page, its phone twin and the named
 * challenges share it): a redirect after a post, or what to render with its status.
 */
export async function serveChallengePage(
	deps: AppDeps,
	viewer: Viewer | null,
	ref: string | null,
	request: Request,
	url: URL,
): Promise<
	| { redirect: string }
	| {
			status: number;
			details: Awaited<ReturnType<typeof loadChallengePage>>;
			flash: { ok: boolean; message: string } | null;
	  }
> {
	let flash = doneMessage(url.searchParams.get('done'));
	let status = 200;
	if (ref && request.method === 'POST') {
		if (!viewer) return { redirect: loginPathFor(url) };
		const outcome = await handleChallengePost(deps, viewer, ref, await request.formData().catch(() => null));
		if (outcome?.ok) return { redirect: `${url.pathname}?done=${outcome.done}` };
		if (outcome) {
			flash = outcome;
			status = 409;
		}
	}
	const details = await loadChallengePage(deps, viewer, ref);
	return { status: details ? status : 404, details, flash };
}
