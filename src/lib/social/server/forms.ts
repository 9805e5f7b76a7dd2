import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { isAcceptableText } from '../../core/text';
import { MAX_COMMENT_LENGTH, STORY_ID_PATTERN } from '../contract';
import { blockMember, unblockMember } from './blocks';
import { acceptFriendship, endFriendshipWith, removeFriendship, requestFriendship } from './friendships';
import { createReaction, deleteStory } from './reactions';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'config' | 'logger'>;

/** What the page says after a form post: a notice, or an error. */
export type FormOutcome = { ok: boolean; message: string };

const memberIdOf = (form: FormData, field = 'member'): number | null => {
	const value = form.get(field);
	return typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : null;
};

/**
 * The friends pages' buttons without script: add, accept, deny, withdraw and remove. Each names the
 * other member; the service decides whether the viewer may.
 */
export async function handleFriendsForm(
	deps: Deps,
	viewer: { id: number },
	form: FormData,
	spend: (memberId: number) => Promise<void>,
): Promise<FormOutcome> {
	const action = form.get('action');
	const other = memberIdOf(form);
	if (other === null) return { ok: false, message: 'That member could not be found.' };
	const name = typeof form.get('name') === 'string' ? String(form.get('name')).slice(0, 80) : 'them';
	try {
		switch (action) {
			case 'add':
				await spend(viewer.id);
				await requestFriendship(deps, viewer, other);
				return { ok: true, message: `Friend request sent to ${name}.` };
			case 'accept':
				await acceptFriendship(deps, viewer, other, viewer.id);
				return { ok: true, message: `You and ${name} are now friends.` };
			case 'deny':
				await removeFriendship(deps, viewer, other, viewer.id);
				return { ok: true, message: `Request from ${name} declined.` };
			case 'cancel':
				await removeFriendship(deps, viewer, viewer.id, other);
				return { ok: true, message: `Request to ${name} withdrawn.` };
			case 'remove':
				if (!(await endFriendshipWith(deps, viewer, other))) throw new AppError('not_found', 'Not friends.');
				return { ok: true, message: `${name} is no longer your friend.` };
			case 'block':
				await blockMember(deps, viewer, other);
				return { ok: true, message: `${name} is blocked: neither of you sees the other.` };
			case 'unblock':
				await unblockMember(deps, viewer, other);
				return { ok: true, message: `${name} is no longer blocked.` };
			default:
				return { ok: false, message: 'Unknown action.' };
		}
	} catch (error) {
		if (error instanceof AppError) {
			if (error.code === 'rate_limited') return { ok: false, message: error.message };
			if (error.code === 'not_found')
				return { ok: false, message: 'That request or member is no longer there.' };
			return { ok: false, message: error.message };
		}
		throw error;
	}
}

/** The feed's like, unlike, comment, reply and delete buttons without script. */
export async function handleFeedForm(
	deps: Deps,
	viewer: { id: number },
	form: FormData,
	spendComment: (memberId: number) => Promise<void>,
): Promise<FormOutcome> {
	const action = form.get('action');
	const target = form.get('story');
	if (typeof target !== 'string' || !STORY_ID_PATTERN.test(target))
		return { ok: false, message: 'That story is gone.' };
	try {
		if (action === 'like') {
			await createReaction(deps, viewer, { verb: 'like', parent_story_id: target });
			return { ok: true, message: 'Liked.' };
		}
		if (action === 'comment') {
			const raw = form.get('text');
			const text = typeof raw === 'string' ? raw.trim() : '';
			if (!text) return { ok: false, message: 'A comment needs some text.' };
			if (text.length > MAX_COMMENT_LENGTH || !isAcceptableText(text, 'multi-line'))
				return { ok: false, message: `A comment may have at most ${MAX_COMMENT_LENGTH} plain characters.` };
			await spendComment(viewer.id);
			await createReaction(deps, viewer, { verb: 'comment', parent_story_id: target, text });
			return { ok: true, message: 'Comment posted.' };
		}
		if (action === 'delete') {
			await deleteStory(deps, viewer, target);
			return { ok: true, message: 'Deleted.' };
		}
		return { ok: false, message: 'Unknown action.' };
	} catch (error) {
		if (error instanceof AppError) {
			if (error.code === 'not_found') return { ok: false, message: 'That story is gone.' };
			return { ok: false, message: error.message };
		}
		throw error;
	}
}
