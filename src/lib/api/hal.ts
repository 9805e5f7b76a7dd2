import type { Context } from 'hono';
import { AppError } from '../core/errors';

/**
 * The MapMyFitness v7.1 conventions every domain's API keeps: item paths with and without the
 * trailing slash, `_links` as lists of `{href, id}`, paging links, and versions for safe edits.
 */

/** Both spellings of an item path: our documented paths end in `/`, clients also call them without. */
export const both = (path: string) => [path, path.replace(/\/$/, '')];

/** A `_links` entry: a list of one `{href, id}` with the id as a string of digits. */
export const link = (kind: string, id: number) => [{ href: `/v7.1/${kind}/${id}/`, id: String(id) }];

/**
 * A write's `_links.user` (or another link naming its author, read by `halBody`) may only name the
 * caller: nobody saves anything as someone else. 403, naming the field.
 */
export function requireOwnLink(
	viewer: { id: number },
	userId: number | undefined,
	noun: string,
	linkName = 'user',
) {
	if (userId !== undefined && userId !== viewer.id)
		throw new AppError('forbidden', `You can only save ${noun} as yourself.`, {
			detail: 'forbidden',
			failures: [
				{
					field: `_links.${linkName}`,
					message: `_links.${linkName} must be you (/v7.1/user/${viewer.id}/).`,
				},
			],
		});
}

/** `_links.self`, `next` and `prev` for a page, keeping the caller's other parameters. */
export function pageLinks(
	basePath: string,
	query: URLSearchParams,
	page: { limit: number; offset: number; totalCount: number },
) {
	const hrefAt = (offset: number) => {
		const params = new URLSearchParams(query);
		params.set('limit', String(page.limit));
		params.set('offset', String(offset));
		return `${basePath}?${params.toString()}`;
	};
	const links: Record<string, { href: string }[]> = { self: [{ href: hrefAt(page.offset) }] };
	if (page.offset + page.limit < page.totalCount) links.next = [{ href: hrefAt(page.offset + page.limit) }];
	if (page.offset > 0) links.prev = [{ href: hrefAt(Math.max(0, page.offset - page.limit)) }];
	return links;
}

/** `"7"`, `W/"7"` or `7` → 7; `*` or nothing → null (no precondition). */
export function readIfMatch(header: string | undefined): number | null | 'invalid' {
	if (!header || header.trim() === '*') return null;
	const match = /^(?:W\/)?"?(\d{1,9})"?$/.exec(header.trim());
	return match ? Number(match[1]) : 'invalid';
}

/**
 * The version an edit starts from: the If-Match header, else the body's `version`, else none
 * (the edit applies whatever was saved meanwhile).
 */
function expectedVersion(c: Context, bodyVersion: number | undefined, noun: string): number | null {
	const ifMatch = readIfMatch(c.req.header('if-match'));
	if (ifMatch === 'invalid')
		throw new AppError('bad_request', `If-Match must be the ETag of the ${noun}, such as "3".`);
	return ifMatch ?? bodyVersion ?? null;
}

/**
 * 412 for an edit that started from an older version: both versions, the one the edit started
 * from and the saved one in `current`, so the client can show what changed.
 */
function preconditionFailed(
	c: Context,
	noun: string,
	sentVersion: number | null,
	current: { version: number },
	representation: unknown,
) {
	c.header('ETag', `"${current.version}"`);
	return c.json(
		{
			error: 'precondition_failed',
			message: `Someone saved this ${noun} after you loaded it; here is the saved copy.`,
			sent_version: sentVersion,
			_diagnostics: { validation_failures: [] },
			current: representation,
		},
		412,
	);
}

/** What a versioned edit of a `noun` gives back: the saved row under the noun's name, or the copy saved meanwhile. */
export type EditOutcome<Noun extends string, Row> =
	| ({ ok: true } & { [key in Noun]: Row })
	| { ok: false; current: Row };

/**
 * Every versioned write (PUT of a workout, route or gear, a workout's cut) answers one way: the edit
 * starts from If-Match or the body's `version`; someone's save in between is a 412 with the saved copy;
 * otherwise the new copy with its ETag.
 */
export async function answerVersionedEdit<Noun extends string, Row extends { version: number }>(
	c: Context,
	noun: Noun,
	bodyVersion: number | undefined,
	edit: (expected: number | null) => Promise<EditOutcome<Noun, NoInfer<Row>>>,
	represent: (row: Row) => object,
) {
	const expected = expectedVersion(c, bodyVersion, noun);
	const outcome = await edit(expected);
	if (!outcome.ok) return preconditionFailed(c, noun, expected, outcome.current, represent(outcome.current));
	const saved = (outcome as { [key in Noun]: Row })[noun];
	c.header('ETag', `"${saved.version}"`);
	return c.json(represent(saved));
}
