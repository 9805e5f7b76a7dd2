import {
	type FormEvent,
	type KeyboardEvent,
	useCallback,
	useEffect,
	useLayoutEffect,
	useRef,
	useState,
} from 'react';
import { api, ensureSession, errorData, loginPath } from '../../lib/api/client';
import type { GoalGroup } from '../../lib/goals/contract';
import type { CommentView, StoryObjectType, StoryView } from '../../lib/social/contract';
import { describeGoal } from '../../lib/stats/format';
import { StoryThumbnail } from './StoryThumbnail';
import './activity-feed.scss';

type Like = { id: string; actor: { id: number; title: string } };
export type FeedItem = { story: StoryView; comments: CommentView[]; likes: Like[] };

export type ActivityFeedProps = {
	items: FeedItem[];
	next: string | null;
	feedId: number;
	view: 'home' | 'own';
	unit: 'km' | 'mi';
	/** The page's address, where the buttons post when script has not run yet. */
	action: string;
	/** How often to look for new stories, in milliseconds; 0 turns it off. */
	pollMs?: number;
};

type StoriesAnswer = { _embedded: { activity_stories: StoryView[] }; _links: { next?: { href: string }[] } };
type RepliesAnswer<T> = { _embedded: { activity_stories: T[] } };

const METRES = { km: 1000, mi: 1609.344 };

/** What the actor did, after their name on a card. */
const VERBS: Record<StoryObjectType, string> = {
	workout: 'recorded a workout',
	route: 'created a route',
	goal: 'completed their weekly goal',
	challenge: 'joined the challenge',
};

function formatFigures(story: StoryView, unit: 'km' | 'mi'): string[] {
	const out: string[] = [];
	if (story.details?.type === 'goal') {
		const { metric, target, activity_group, week_start } = story.details;
		out.push(describeGoal(metric, target, activity_group as GoalGroup, unit));
		out.push(`week of ${day(`${week_start}T12:00:00Z`)}`);
	}
	if (story.figures.distance_m !== null)
		out.push(`${(story.figures.distance_m / METRES[unit]).toFixed(2)} ${unit}`);
	if (story.figures.duration_s !== null) {
		const total = Math.round(story.figures.duration_s);
		const h = Math.floor(total / 3600);
		const m = Math.floor((total % 3600) / 60);
		const s = total % 60;
		out.push(
			h > 0
				? `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`
				: `${m}:${String(s).padStart(2, '0')}`,
		);
	}
	if (story.figures.ascent_m !== null)
		out.push(
			unit === 'mi'
				? `${Math.round(story.figures.ascent_m * 3.28084)} ft up`
				: `${Math.round(story.figures.ascent_m)} m up`,
		);
	if (story.figures.energy_j !== null) out.push(`${Math.round(story.figures.energy_j / 4184)} kcal`);
	return out;
}

// Built once: a feed page writes two dates per story.
const publishedFormat = new Intl.DateTimeFormat(undefined, {
	year: 'numeric',
	month: 'short',
	day: 'numeric',
});
const dayFormat = new Intl.DateTimeFormat(undefined, {
	year: 'numeric',
	month: 'short',
	day: 'numeric',
	timeZone: 'UTC',
});
const published = (iso: string) => publishedFormat.format(new Date(iso));
/** A calendar day (noon UTC), the same wherever the reader is. */
const day = (iso: string) => dayFormat.format(new Date(iso));

async function loadReplies(story: StoryView): Promise<FeedItem> {
	const [comments, likes] = await Promise.all([
		api<RepliesAnswer<CommentView>>('/v7.1/activity_story/', {
			query: { reply_type: 'comment', parent_story_id: story.id },
		}),
		api<RepliesAnswer<Like>>('/v7.1/activity_story/', {
			query: { reply_type: 'like', parent_story_id: story.id },
		}),
	]);
	return { story, comments: comments._embedded.activity_stories, likes: likes._embedded.activity_stories };
}

/**
 * The activity feed: story cards with likes and comments, the next page on demand, and new stories
 * added at the top while the reader stays where they are. Every button is a form that works as a
 * plain post before script runs; once it runs, the same forms call the API in place.
 */
export default function ActivityFeed(props: ActivityFeedProps) {
	const [items, setItems] = useState(props.items);
	const [next, setNext] = useState(props.next);
	const [message, setMessage] = useState<string | null>(null);
	const [loadingMore, setLoadingMore] = useState(false);
	const itemsRef = useRef(items);
	itemsRef.current = items;
	/** The story the reader is looking at when new ones are put above it, and where it was on screen. */
	const anchor = useRef<{ id: string; top: number } | null>(null);

	useLayoutEffect(() => {
		const held = anchor.current;
		if (!held) return;
		anchor.current = null;
		const element = document.getElementById(held.id);
		if (element) window.scrollBy(0, element.getBoundingClientRect().top - held.top);
	});

	const feedQuery = { feed_id: props.feedId, feed_type: 'user', feed_view: props.view };

	const refresh = useCallback(async (storyId: string) => {
		const [, type, id] = /^(workout|route|goal|challenge)_(\d+)$/.exec(storyId) ?? [];
		if (!type) return;
		try {
			const answer = await api<StoriesAnswer>('/v7.1/activity_story/', {
				query: { object_type: type, object_id: id },
			});
			const item = await loadReplies(answer._embedded.activity_stories[0]);
			setItems((current) => current.map((old) => (old.story.id === storyId ? item : old)));
		} catch {
			setItems((current) => current.filter((old) => old.story.id !== storyId));
		}
	}, []);

	const submit = async (event: FormEvent<HTMLFormElement>, storyId: string) => {
		event.preventDefault();
		const element = event.currentTarget;
		const form = new FormData(element, (event.nativeEvent as SubmitEvent).submitter);
		const action = form.get('action');
		const target = String(form.get('story') ?? '');
		if (!(await ensureSession())) return window.location.assign(loginPath());
		try {
			if (action === 'like') {
				await api('/v7.1/activity_story/', {
					method: 'POST',
					body: { verb: 'like', parent_story_id: target },
				});
			} else if (action === 'comment') {
				const text = String(form.get('text') ?? '').trim();
				if (!text) return setMessage('A comment needs some text.');
				await api('/v7.1/activity_story/', {
					method: 'POST',
					body: { verb: 'comment', parent_story_id: target, text },
				});
				element.reset();
			} else if (action === 'delete') {
				await api(`/v7.1/activity_story/${target}/`, { method: 'DELETE' });
			}
			setMessage(null);
			await refresh(storyId);
		} catch (error) {
			setMessage(errorData(error).message ?? 'That did not work. Please try again.');
		}
	};

	const loadMore = async (event: React.MouseEvent) => {
		if (!next) return;
		event.preventDefault();
		setLoadingMore(true);
		try {
			const answer = await api<StoriesAnswer>('/v7.1/activity_story/', {
				query: { ...feedQuery, limit: 20, before: next },
			});
			const more = await Promise.all(answer._embedded.activity_stories.map(loadReplies));
			setItems((current) => [
				...current,
				...more.filter((item) => !current.some((old) => old.story.id === item.story.id)),
			]);
			const href = answer._links.next?.[0]?.href;
			setNext(href ? new URL(href, window.location.origin).searchParams.get('before') : null);
		} catch {
			setMessage('More stories could not be loaded. Please try again.');
		} finally {
			setLoadingMore(false);
		}
	};

	// New stories are put at the top; the browser's scroll anchoring keeps the reader's place.
	useEffect(() => {
		if (!props.pollMs) return;
		const timer = window.setInterval(async () => {
			if (document.hidden) return;
			const top = itemsRef.current[0]?.story.position;
			try {
				const answer = await api<StoriesAnswer>('/v7.1/activity_story/', {
					query: { ...feedQuery, limit: 20, ...(top ? { after: top } : {}) },
				});
				const fresh = answer._embedded.activity_stories.filter(
					(story) => !itemsRef.current.some((item) => item.story.id === story.id),
				);
				if (fresh.length === 0) return;
				const loaded = await Promise.all(fresh.map(loadReplies));
				// A reader further down keeps their place; one at the top sees the new stories.
				if (window.scrollY > 0) {
					const visible = itemsRef.current
						.map((item) => document.getElementById(item.story.id))
						.find((element) => element && element.getBoundingClientRect().bottom > 0);
					if (visible) anchor.current = { id: visible.id, top: visible.getBoundingClientRect().top };
				}
				setItems((current) => [
					...loaded.filter((item) => !current.some((old) => old.story.id === item.story.id)),
					...current,
				]);
			} catch {
				// A missed poll is caught up by the next one.
			}
		}, props.pollMs);
		return () => window.clearInterval(timer);
	});

	return (
		<div className="feed">
			{message && (
				<p className="feed__message" role="alert">
					{message}
				</p>
			)}
			{items.length === 0 ? (
				<p className="feed__empty">
					Nothing here yet. Stories appear when you or your friends record a workout, create a route, complete
					a weekly goal or join a challenge.
				</p>
			) : (
				<ol className="feed__stories" data-testid="feed">
					{items.map((item) => (
						<Story
							key={item.story.id}
							item={item}
							unit={props.unit}
							action={props.action}
							onSubmit={submit}
						/>
					))}
				</ol>
			)}
			{next && (
				<a
					className="feed__more"
					href={`${props.action}?before=${encodeURIComponent(next)}`}
					onClick={loadMore}
					aria-busy={loadingMore}
				>
					{loadingMore ? 'Loading…' : 'Older stories'}
				</a>
			)}
		</div>
	);
}

/**
 * Enter posts a comment or reply, as in a chat box; Shift+Enter starts a new line. A key that
 * finishes an input method's composition is left to it.
 */
function postOnEnter(event: KeyboardEvent<HTMLTextAreaElement>) {
	if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
	const form = event.currentTarget.form;
	if (!form) return;
	event.preventDefault();
	// The named submit button says what the post is (action=comment).
	form.requestSubmit(form.querySelector<HTMLButtonElement>('button[type="submit"]'));
}

function Story({
	item,
	unit,
	action,
	onSubmit,
}: {
	item: FeedItem;
	unit: 'km' | 'mi';
	action: string;
	onSubmit: (event: FormEvent<HTMLFormElement>, storyId: string) => void;
}) {
	const { story, comments, likes } = item;
	const verb = VERBS[story.object_type];
	const topLevel = comments.filter((comment) => comment.reply_to === null);
	const repliesTo = (id: string) => comments.filter((comment) => comment.reply_to === id);
	const post = (event: FormEvent<HTMLFormElement>) => onSubmit(event, story.id);
	const hidden = (target: string) => <input type="hidden" name="story" value={target} />;
	const renderComment = (comment: CommentView) => (
		<li key={comment.id} className="comment" data-testid="comment">
			<p>
				<a href={`/profile/${comment.actor.id}/activity_feed`} className="comment__actor">
					{comment.actor.title}
				</a>{' '}
				<span className="comment__text">{comment.text}</span>
			</p>
			<div className="comment__actions">
				{comment.reply_to === null && (
					<details>
						<summary>Reply</summary>
						<form method="post" action={`${action}#${story.id}`} onSubmit={post} className="comment-form">
							{hidden(comment.id)}
							<label>
								<span className="visually-hidden">Reply to {comment.actor.title}</span>
								<textarea name="text" rows={2} maxLength={1000} required onKeyDown={postOnEnter} />
							</label>
							<button type="submit" name="action" value="comment">
								Post reply
							</button>
						</form>
					</details>
				)}
				{comment.can_delete && (
					<form method="post" action={`${action}#${story.id}`} onSubmit={post}>
						{hidden(comment.id)}
						<button type="submit" name="action" value="delete" className="link-button">
							Delete
						</button>
					</form>
				)}
			</div>
			{repliesTo(comment.id).length > 0 && (
				<ul className="comment__replies">{repliesTo(comment.id).map(renderComment)}</ul>
			)}
		</li>
	);
	return (
		<li className="story" id={story.id} data-testid="story" data-story={story.id}>
			<header className="story__head">
				<a href={`/profile/${story.actor.id}/activity_feed`} className="story__actor">
					{story.actor.title}
				</a>{' '}
				<span>{verb}</span> · <time dateTime={story.published}>{published(story.published)}</time>
			</header>
			<div className="story__body">
				<StoryThumbnail points={story.thumbnail} label={`Map of ${story.title}`} />
				<div>
					<h2 className="story__title">
						<a href={story.href}>{story.title}</a>
					</h2>
					<p className="story__figures">{formatFigures(story, unit).join(' · ')}</p>
				</div>
			</div>
			{story.photos.first.length > 0 && (
				<ul className="story__photos" data-testid="story-photos">
					{story.photos.first.map((photo, index) => (
						<li key={photo.id}>
							<a href={photo.uri}>
								<img
									src={photo.thumbnail_uri}
									width={96}
									height={96}
									alt={`${index + 1} of ${story.photos.total} from ${story.title}`}
									loading="lazy"
									decoding="async"
								/>
							</a>
						</li>
					))}
					{story.photos.total > story.photos.first.length && (
						<li>
							<a href={`${story.href}#photos`} className="story__more-photos">
								{story.photos.total - story.photos.first.length} more
								<span className="visually-hidden"> photos from {story.title}</span>
							</a>
						</li>
					)}
				</ul>
			)}
			<div className="story__actions">
				<form method="post" action={`${action}#${story.id}`} onSubmit={post}>
					{story.likes.liked_by_me && story.likes.like_id ? (
						<>
							{hidden(story.likes.like_id)}
							<button type="submit" name="action" value="delete" aria-pressed="true" data-testid="like">
								Unlike
							</button>
						</>
					) : (
						<>
							{hidden(story.id)}
							<button type="submit" name="action" value="like" aria-pressed="false" data-testid="like">
								Like
							</button>
						</>
					)}
				</form>
				<span data-testid="like-count">
					{story.likes.count} {story.likes.count === 1 ? 'like' : 'likes'}
				</span>
				{likes.length > 0 && (
					<span className="story__likers">Liked by {likes.map((like) => like.actor.title).join(', ')}</span>
				)}
				{story.can_delete && (
					<form method="post" action={`${action}#${story.id}`} onSubmit={post} className="story__delete">
						{hidden(story.id)}
						<button type="submit" name="action" value="delete" className="link-button">
							Remove from feed
						</button>
					</form>
				)}
			</div>
			<section className="story__comments" aria-label={`Comments on ${story.title}`}>
				{topLevel.length > 0 && <ul>{topLevel.map(renderComment)}</ul>}
				<form method="post" action={`${action}#${story.id}`} onSubmit={post} className="comment-form">
					{hidden(story.id)}
					<label>
						<span className="visually-hidden">Comment on {story.title}</span>
						<textarea
							name="text"
							rows={2}
							maxLength={1000}
							placeholder="Write a comment"
							required
							onKeyDown={postOnEnter}
						/>
					</label>
					<button type="submit" name="action" value="comment">
						Comment
					</button>
				</form>
			</section>
		</li>
	);
}
