/**
 * The activity feed and friend search at scale, through the social service (the SQL the API runs):
 * a member with 500 friends among 100,000 members and 2,000,000 stories (workouts, routes, goals met
 * and challenges joined).
 *
 * 1. The first feed page (20 stories) of that member, p50/p95.
 * 2. The next pages, following each page's position, p50/p95.
 * 3. Friend search by name, p50/p95.
 *
 * PGlite always; PostgreSQL too when BENCH_DATABASE_URL names a database of its own (it is emptied first):
 *
 *   npm run bench:feed
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_feed npm run bench:feed
 *
 * BENCH_MEMBERS, BENCH_STORIES and BENCH_RUNS scale it down for a quick look; BENCH_ONLY=postgres skips
 * PGlite, and BENCH_REUSE=1 measures a PostgreSQL database an earlier run already filled.
 * Goals: first and next pages p95 ≤ 30 ms on PostgreSQL and ≤ 60 ms on PGlite; search p95 ≤ 20 ms.
 * Figures only; nothing passes or fails on speed.
 */
import { sql } from 'drizzle-orm';
import type { Db } from '../../../src/lib/core/server/deps';
import { listStories } from '../../../src/lib/social/server/feed';
import { searchMembers } from '../../../src/lib/social/server/people-lists';
import { createTestDeps } from '../../helpers/app';
import { onBenchDatabases } from '../databases';

const MEMBERS = Number(process.env.BENCH_MEMBERS ?? 100_000);
const STORIES = Number(process.env.BENCH_STORIES ?? 2_000_000);
const FRIENDS = 500;
const RUNS = Number(process.env.BENCH_RUNS ?? 200);

function percentile(samples: number[], q: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const summary = (samples: number[]) =>
	`p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms (n=${samples.length})`;

async function timed(runs: number, work: (run: number) => Promise<unknown>): Promise<number[]> {
	for (let run = 0; run < 5; run++) await work(run);
	const times: number[] = [];
	for (let run = 0; run < runs; run++) {
		const start = performance.now();
		await work(run);
		times.push(performance.now() - start);
	}
	return times;
}

/**
 * Members 1…N; member 1 is friends with members 2…501, and everyone else has a few friends too.
 * Three stories in four are workouts, one a route; privacy is spread over only me, friends and everyone.
 */
async function load(db: Db) {
	const started = performance.now();
	await db.execute(sql`insert into users (id, username, email, password_hash, display_name, first_name, last_name, locality, region, country, profile_privacy, workout_privacy)
		select i, 'member' || i, 'member' || i || '@bench.example', 'x', 'Member ' || i, 'Member', 'N' || i, 'Harrisburg', 'PA', 'US', (array[0, 1, 3])[1 + i % 3], (array[0, 1, 3])[1 + (i / 3) % 3]
		from generate_series(1, ${MEMBERS}::int) as i`);
	await db.execute(sql`select setval('users_id_seq', ${MEMBERS})`);
	await db.execute(sql`insert into friendships (from_user_id, to_user_id, status)
		select 1, i, 'active' from generate_series(2, ${FRIENDS + 1}::int) as i`);
	await db.execute(sql`insert into friendships (from_user_id, to_user_id, status)
		select i, 1 + ((i::bigint * 7919 + k * 104729) % ${MEMBERS}::int), case when k = 0 then 'pending' else 'active' end
		from generate_series(${FRIENDS + 2}::int, ${MEMBERS}::int) as i, generate_series(0, 3) as k
		where 1 + ((i::bigint * 7919 + k * 104729) % ${MEMBERS}::int) not in (i, 1)
		on conflict do nothing`);
	const workoutCount = Math.round(STORIES * 0.75);
	const memberStoryCount = Math.round(STORIES * 0.05);
	const routeCount = STORIES - workoutCount - memberStoryCount;
	await db.execute(sql`insert into workouts (owner_id, name, activity_type_id, privacy, start_datetime, distance_total, active_time_total)
		select 1 + (i::bigint * 48271) % ${MEMBERS}::int, 'Run ' || i, 16, (array[0, 1, 3])[1 + (i / 7) % 3],
			timestamp with time zone '2024-01-01' + ((i::bigint * 7907) % 63072000) * interval '1 second', 5000 + i % 5000, 1800 + i % 1200
		from generate_series(1, ${workoutCount}::int) as i`);
	await db.execute(sql`insert into routes (owner_id, name, privacy, link_token, distance_m, path, point_count, start_lat, start_lng, created_at)
		select 1 + (i::bigint * 69621) % ${MEMBERS}::int, 'Route ' || i, (array[0, 1, 3, 6])[1 + (i / 5) % 4], md5(i::text), 4000 + i % 9000,
			'_p~iF~ps|U_ulLnnqC_mqNvxq\`@', 3, 40.27, -76.88,
			timestamp with time zone '2024-01-01' + ((i::bigint * 7919) % 63072000) * interval '1 second'
		from generate_series(1, ${routeCount}::int) as i`);
	// One goal met or challenge joined in twenty stories, each goal week and challenge its own.
	await db.execute(sql`insert into member_stories (actor_id, object_type, subject_id, period, published_at, privacy_cap, title, details)
		select 1 + (i::bigint * 16807) % ${MEMBERS}::int, case when i % 3 = 0 then 'challenge' else 'goal' end, i,
			case when i % 3 = 0 then '' else '2024-01-01' end,
			timestamp with time zone '2024-01-01' + ((i::bigint * 7901) % 63072000) * interval '1 second',
			case when i % 2 = 0 then 3 else 1 end, 'Story ' || i,
			case when i % 3 = 0 then jsonb_build_object('type', 'challenge', 'challenge_id', i)
				else jsonb_build_object('type', 'goal', 'goal_id', i, 'metric', 'distance', 'target', 20000, 'activity_group', 'all', 'week_start', '2024-01-01') end
		from generate_series(1, ${memberStoryCount}::int) as i`);
	await db.execute(sql`analyze`);
	console.log(
		`  loaded ${MEMBERS.toLocaleString('en')} members, ${workoutCount.toLocaleString('en')} workouts, ${routeCount.toLocaleString('en')} routes and ${memberStoryCount.toLocaleString('en')} goal and challenge stories in ${((performance.now() - started) / 1000).toFixed(0)} s`,
	);
}

async function run(label: string, db: Db, reuse = false) {
	console.log(`\n${label}`);
	if (reuse) console.log('  reusing the members and stories already loaded');
	else await load(db);
	const deps = createTestDeps(db);
	const viewer = { id: 1 };
	const first = await timed(RUNS, () => listStories(deps, viewer, { feedId: 1, view: 'home', limit: 20 }));
	console.log(`  first feed page: ${summary(first)}   goal p95 ≤ ${label === 'PostgreSQL' ? 30 : 60} ms`);
	// The positions of pages 2…10, found by walking the feed once.
	const positions: string[] = [];
	let next: string | null = (await listStories(deps, viewer, { feedId: 1, view: 'home', limit: 20 })).next;
	while (next && positions.length < 9) {
		positions.push(next);
		next = (await listStories(deps, viewer, { feedId: 1, view: 'home', limit: 20, before: next })).next;
	}
	const later = await timed(RUNS, (index) =>
		listStories(deps, viewer, {
			feedId: 1,
			view: 'home',
			limit: 20,
			before: positions[index % positions.length],
		}),
	);
	console.log(`  next feed pages (2–${positions.length + 1}): ${summary(later)}`);
	const terms = ['Member 12', 'member99', 'Member 5', 'N4321', 'member100'];
	const search = await timed(RUNS, (index) =>
		searchMembers(deps, viewer, terms[index % terms.length], { limit: 20 }),
	);
	console.log(`  friend search: ${summary(search)}   goal p95 ≤ 20 ms`);
}

await onBenchDatabases(({ label, db, reused }) => run(label, db, reused));
