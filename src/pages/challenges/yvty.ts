import type { APIRoute } from 'astro';
import { getRuntime } from '../../lib/api/runtime';
import { findChallenge } from '../../lib/challenges/server/challenge';
import { challengeYear, yearChallengeSlug } from '../../lib/challenges/server/seed';
import { AppError } from '../../lib/core/errors';

export const prerender = false;

/**
 * The header's "You VS The Year": this year's challenge, whichever year it is. Pre-rendered pages
 * carry the link too, so the year is decided here, when it is followed. Until an operator (or the
 * demo seed) has made this year's, the challenge list.
 */
export const GET: APIRoute = async ({ redirect }) => {
	const { deps } = await getRuntime();
	const slug = yearChallengeSlug(challengeYear(deps.clock()));
	try {
		await findChallenge(deps, slug);
	} catch (error) {
		if (error instanceof AppError && error.code === 'not_found') return redirect('/challenges/', 302);
		throw error;
	}
	return redirect(`/challenges/${slug}`, 302);
};
