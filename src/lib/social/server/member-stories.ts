/** Goal and challenge stories, which the goals and challenges domains keep current. */
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AppDeps } from '../../core/server/deps';
import type { StoryDetails } from '../contract';
import type { MemberStoryType } from './story-shared';
import { memberStories } from './tables';

export type MemberStoryInput = {
	/** The goal's week (YYYY-MM-DD of its first day); none for a challenge. */
	period?: string;
	publishedAt: Date;
	title: string;
	details: StoryDetails;
	/** The most open privacy level the story may have: 3 everyone, 1 friends. */
	privacyCap?: 1 | 3;
};

/** A flat object as text with its keys in order: jsonb hands keys back in an order of its own. */
const flatJson = (value: object) =>
	JSON.stringify(Object.entries(value).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/**
 * Makes a member's live stories about one goal or one challenge exactly `stories`, one per period,
 * so calling it again after any change is safe. A story already live keeps its time, place and
 * reactions; one that is not listed is withdrawn, and comes back with its likes and comments when
 * it is listed again. Only periods from `fromPeriod` on are withdrawn: older ones were not looked at.
 */
export async function syncMemberStories(
	deps: Pick<AppDeps, 'db'>,
	subject: { actorId: number; type: MemberStoryType; subjectId: number; fromPeriod?: string },
	stories: MemberStoryInput[],
): Promise<void> {
	const existing = await deps.db
		.select()
		.from(memberStories)
		.where(
			and(
				eq(memberStories.actorId, subject.actorId),
				eq(memberStories.objectType, subject.type),
				eq(memberStories.subjectId, subject.subjectId),
			),
		);
	const wanted = new Map(stories.map((story) => [story.period ?? '', story]));
	const withdrawn = existing
		.filter(
			(row) =>
				row.live && !wanted.has(row.period) && (!subject.fromPeriod || row.period >= subject.fromPeriod),
		)
		.map((row) => row.id);
	if (withdrawn.length > 0)
		await deps.db.update(memberStories).set({ live: false }).where(inArray(memberStories.id, withdrawn));
	const byPeriod = new Map(existing.map((row) => [row.period, row]));
	const changed = [...wanted].filter(([period, story]) => {
		const row = byPeriod.get(period);
		return (
			!row?.live ||
			row.title !== story.title ||
			row.privacyCap !== (story.privacyCap ?? 3) ||
			flatJson(row.details) !== flatJson(story.details)
		);
	});
	if (changed.length === 0) return;
	await deps.db
		.insert(memberStories)
		.values(
			changed.map(([period, story]) => ({
				actorId: subject.actorId,
				objectType: subject.type,
				subjectId: subject.subjectId,
				period,
				publishedAt: story.publishedAt,
				title: story.title,
				details: story.details,
				privacyCap: story.privacyCap ?? 3,
				live: true,
			})),
		)
		.onConflictDoUpdate({
			target: [
				memberStories.objectType,
				memberStories.subjectId,
				memberStories.actorId,
				memberStories.period,
			],
			set: {
				title: sql`excluded.title`,
				details: sql`excluded.details`,
				privacyCap: sql`excluded.privacy_cap`,
				// A story coming back is news again; one still live keeps its place in the feed.
				publishedAt: sql`case when ${memberStories.live} then ${memberStories.publishedAt} else excluded.published_at end`,
				live: true,
			},
		});
}

/** A challenge renamed: every member's story about it carries the new name. */
export async function retitleMemberStories(
	deps: Pick<AppDeps, 'db'>,
	subject: { type: MemberStoryType; subjectId: number },
	title: string,
): Promise<void> {
	await deps.db
		.update(memberStories)
		.set({ title })
		.where(and(eq(memberStories.objectType, subject.type), eq(memberStories.subjectId, subject.subjectId)));
}
