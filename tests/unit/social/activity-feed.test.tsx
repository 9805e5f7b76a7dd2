// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import ActivityFeed, { type FeedItem } from '../../../src/islands/social/ActivityFeed';
import { $session } from '../../../src/lib/auth/store';
import type { StoryView } from '../../../src/lib/social/contract';

const json = (status: number, body: unknown) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function story(likes: number, likedByMe: boolean): StoryView {
	return {
		id: 'workout_5',
		object_type: 'workout',
		object_id: 5,
		published: '2026-05-01T07:30:00+00:00',
		position: '1777620600000000_workout_5',
		actor: { id: 2, title: 'Ana Runner', username: 'ana' },
		title: 'Riverfront tempo run',
		activity_type: 16,
		privacy: 1,
		figures: { distance_m: 8200, duration_s: 2460, ascent_m: null, energy_j: null },
		thumbnail: [
			[40.27, -76.88],
			[40.28, -76.87],
			[40.29, -76.88],
		],
		photos: { total: 0, first: [] },
		details: null,
		href: '/workout/5',
		likes: { count: likes, liked_by_me: likedByMe, like_id: likedByMe ? 'like_9' : null },
		comments: { count: 1 },
		can_delete: false,
	};
}

const item = (likes = 0, liked = false): FeedItem => ({
	story: story(likes, liked),
	comments: [
		{
			id: 'comment_3',
			parent_story_id: 'workout_5',
			reply_to: null,
			actor: { id: 7, title: 'Dana Demo', username: 'dana' },
			text: '<img src=x onerror=alert(1)> nice',
			published: '2026-05-01T08:00:00+00:00',
			can_delete: true,
			_links: {
				self: [{ href: '/v7.1/activity_story/comment_3/', id: 'comment_3' }],
				user: [{ href: '/v7.1/user/7/', id: '7' }],
			},
		},
	],
	likes: [],
});

let requests: { url: URL; method: string; body: unknown }[];
let liked = false;

beforeEach(() => {
	requests = [];
	liked = false;
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user: { id: 7 } as never });
	vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) => {
		const request = input instanceof Request ? input : null;
		const url = new URL(request ? request.url : String(input), 'http://localhost');
		const method = request?.method ?? init?.method ?? 'GET';
		const text = request ? await request.text() : typeof init?.body === 'string' ? init.body : '';
		requests.push({ url, method, body: text ? JSON.parse(text) : null });
		if (method === 'POST') {
			liked = true;
			return json(201, { id: 'like_9', verb: 'like' });
		}
		if (url.searchParams.get('reply_type') === 'like')
			return json(200, {
				_embedded: {
					activity_stories: liked ? [{ id: 'like_9', actor: { id: 7, title: 'Dana Demo' } }] : [],
				},
			});
		if (url.searchParams.get('reply_type') === 'comment')
			return json(200, { _embedded: { activity_stories: item().comments } });
		return json(200, { _embedded: { activity_stories: [story(liked ? 1 : 0, liked)] }, _links: {} });
	});
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

const props = {
	next: null,
	feedId: 7,
	view: 'home' as const,
	unit: 'km' as const,
	action: '/activity_feed/',
};

describe('ActivityFeed', () => {
	test('a goal card says the goal and its week and leads to the goals page; a challenge card leads to the challenge', () => {
		const plain = {
			...story(0, false),
			figures: { distance_m: null, duration_s: null, ascent_m: null, energy_j: null },
		};
		const goal: StoryView = {
			...plain,
			id: 'goal_4',
			object_type: 'goal',
			object_id: 4,
			title: 'Weekly distance goal',
			activity_type: null,
			thumbnail: [],
			details: {
				type: 'goal',
				goal_id: 9,
				metric: 'distance',
				target: 20_000,
				activity_group: 'run',
				week_start: '2026-04-27',
			},
			href: '/profile/2/goals/',
		};
		const challenge: StoryView = {
			...plain,
			id: 'challenge_5',
			object_type: 'challenge',
			object_id: 5,
			title: 'May Running Challenge',
			activity_type: null,
			thumbnail: [],
			details: { type: 'challenge', challenge_id: 12 },
			href: '/challenges/12',
		};
		const { container } = render(
			<ActivityFeed
				{...props}
				items={[goal, challenge].map((entry) => ({ story: entry, comments: [], likes: [] }))}
			/>,
		);
		const [goalCard, challengeCard] = screen.getAllByTestId('story');
		expect(goalCard.textContent).toContain('Ana Runner completed their weekly goal');
		expect(goalCard.textContent).toContain('Run: 20.0 km a week · week of Apr 27, 2026');
		expect(screen.getByRole('link', { name: 'Weekly distance goal' }).getAttribute('href')).toBe(
			'/profile/2/goals/',
		);
		expect(challengeCard.textContent).toContain('Ana Runner joined the challenge');
		expect(screen.getByRole('link', { name: 'May Running Challenge' }).getAttribute('href')).toBe(
			'/challenges/12',
		);
		// No map for what has no track.
		expect(container.querySelector('svg.story__thumbnail')).toBeNull();
	});

	test('shows a comment’s markup as text, and the card’s line and figures', () => {
		const { container } = render(<ActivityFeed {...props} items={[item()]} />);
		expect(screen.getByText('<img src=x onerror=alert(1)> nice')).toBeTruthy();
		expect(container.querySelector('.story__comments img')).toBeNull();
		expect(container.querySelector('polyline')?.getAttribute('points')?.split(' ')).toHaveLength(3);
		expect(screen.getByText('8.20 km · 41:00')).toBeTruthy();
	});

	test('a card shows its first photos, each opening the full one, and leads to the rest', () => {
		const photos = [11, 12, 13, 14].map((id) => ({
			id,
			uri: `/workout/5/photo/${id}?size=large`,
			thumbnail_uri: `/workout/5/photo/${id}?size=thumbnail`,
		}));
		const withPhotos = { ...item(), story: { ...story(0, false), photos: { total: 6, first: photos } } };
		render(<ActivityFeed {...props} items={[withPhotos]} />);
		const shown = screen.getByTestId('story-photos').querySelectorAll('img');
		expect([...shown].map((img) => img.getAttribute('src'))).toEqual(
			photos.map((photo) => photo.thumbnail_uri),
		);
		expect(
			screen
				.getByRole('img', { name: '1 of 6 from Riverfront tempo run' })
				.closest('a')
				?.getAttribute('href'),
		).toBe('/workout/5/photo/11?size=large');
		expect(
			screen.getByRole('link', { name: '2 more photos from Riverfront tempo run' }).getAttribute('href'),
		).toBe('/workout/5#photos');
	});

	test('Like posts a like for the story and shows the new count and who liked it', async () => {
		render(<ActivityFeed {...props} items={[item()]} />);
		fireEvent.click(screen.getByRole('button', { name: 'Like' }));
		await vi.waitFor(() => expect(screen.getByTestId('like-count').textContent).toBe('1 like'));
		const posted = requests.find((request) => request.method === 'POST');
		expect(posted?.body).toEqual({ verb: 'like', parent_story_id: 'workout_5' });
		expect(screen.getByText('Liked by Dana Demo')).toBeTruthy();
		expect(screen.getByRole('button', { name: 'Unlike' })).toBeTruthy();
	});
});
