/**
 * Challenge leaderboards at size: one challenge with 100,000 participants and 2,000,000 qualifying
 * runs (20 each), side by side on PGlite and PostgreSQL:
 *
 * 1. Any leaderboard page (a random page of 25, with the viewer's own row and rank pinned) — p50/p95.
 * 1b. Any page of the age-graded board (best grade first, the ungraded last), own row pinned — p50/p95.
 * 2. "My rank" for a random participant — p50/p95.
 * 3. Saving a run: the workouts service stores it and the hook brings its owner's progress up to
 *    date; then their rank is read again — p50/p95 of the whole, and of progress + rank alone.
 *
 *   npm run bench:challenges
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/bench_challenges npm run bench:challenges
 *
 * BENCH_PARTICIPANTS and BENCH_WORKOUTS_EACH change the size; BENCH_ONLY=postgres skips PGlite. Goals: pages and rank p95 ≤ 20 ms on
 * PostgreSQL and ≤ 50 ms on PGlite; saving updates progress and rank in ≤ 20 ms.
 * Figures only; nothing passes or fails on speed.
 */
import { eq, sql } from 'drizzle-orm';
import { leaderboard, rankOf } from '../../../src/lib/challenges/server/leaderboard';
import { createChallenge } from '../../../src/lib/challenges/server/organise';
import { refreshChallengeProgress } from '../../../src/lib/challenges/server/progress';
import { challengeParticipants } from '../../../src/lib/challenges/server/tables';
import type { Db } from '../../../src/lib/core/server/deps';
import { createWorkout } from '../../../src/lib/workouts/server/service';
import { createTestDeps } from '../../helpers/app';
import { onBenchDatabases } from '../databases';

const PARTICIPANTS = Number(process.env.BENCH_PARTICIPANTS ?? 100_000);
const EACH = Number(process.env.BENCH_WORKOUTS_EACH ?? 20);
const RUNS = Number(process.env.BENCH_RUNS ?? 300);
const PAGE_SIZE = 25;

function percentile(samples: number[], q: number): number {
	const sorted = [...samples].sort((a, b) => a - b);
	return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}
const summary = (samples: number[]) =>
	`p50 ${percentile(samples, 0.5).toFixed(1)} ms, p95 ${percentile(samples, 0.95).toFixed(1)} ms (n=${samples.length})`;
const pick = (n: number) => 1 + Math.floor(Math.random() * n);

async function run(label: string, db: Db, goal: number) {
	const deps = createTestDeps(db, { clock: () => new Date('2026-06-20T12:00:00Z') });
	console.log(`\n${label}: ${PARTICIPANTS.toLocaleString('en-US')} participants × ${EACH} runs`);
	let started = performance.now();
	await db.execute(sql`
		insert into users (username, email, password_hash, display_name)
		select 'bench' || i, 'bench' || i || '@example.test', 'x', 'Bench Runner ' || i
		from generate_series(1, ${PARTICIPANTS}) as i`);
	await db.execute(sql`
		insert into workouts (owner_id, name, activity_type_id, start_datetime, distance_total, active_time_total, elapsed_time_total)
		select u, 'Run', 16,
			timestamptz '2026-06-01 00:00:00+00' + ((u * 7919 + k * 104729) % 1700000) * interval '1 second',
			3000 + ((u * 31 + k * 17) % 9000), 1500 + ((u * 13 + k * 7) % 3600), 1600 + ((u * 13 + k * 7) % 3600)
		from generate_series(1, ${PARTICIPANTS}) as u, generate_series(1, ${EACH}) as k`);
	console.log(`  seeded members and workouts in ${((performance.now() - started) / 1000).toFixed(1)} s`);
	const challenge = await createChallenge(deps, {
		name: 'Bench June Run',
		description: '',
		metric: 'distance',
		activity_groups: ['run'],
		starts_on: '2026-06-01',
		ends_on: '2026-06-30',
		target: 200_000,
		mode: 'solo',
		prizes: [],
	});
	started = performance.now();
	// Everyone's starting totals in one statement: the same sums the progress hook keeps.
	// Best age grades stand in for what the hook stores: one in ten participants ungraded (no birthdate or sex).
	await db.execute(sql`
		insert into challenge_participants (challenge_id, user_id, time_zone, show_name, progress, reached_at, workout_count, joined_at,
			age_grade, age_grade_metres, age_grade_seconds, age_graded_seconds)
		select ${challenge.id}, owner_id, 'UTC', owner_id % 2 = 0, sum(distance_total),
			max(start_datetime + elapsed_time_total * interval '1 second'), count(*), timestamptz '2026-06-01 00:00:00+00',
			case when owner_id % 10 = 0 then null else 0.35 + ((owner_id * 7919) % 50000) / 100000.0 end,
			case when owner_id % 10 = 0 then null else 5000 end,
			case when owner_id % 10 = 0 then null else 1500 end,
			case when owner_id % 10 = 0 then null else 1400 end
		from workouts group by owner_id`);
	await db.execute(
		sql`update challenges set participant_count = (select count(*) from challenge_participants where challenge_id = ${challenge.id}) where id = ${challenge.id}`,
	);
	challenge.participantCount = PARTICIPANTS;
	// What autovacuum does on a server after a bulk load: statistics, and the visibility map index-only scans need.
	await db.execute(sql`vacuum analyze`);
	console.log(`  joined everyone in ${((performance.now() - started) / 1000).toFixed(1)} s`);

	// The hook's own count agrees with the bulk one.
	const [sample] = await db
		.select()
		.from(challengeParticipants)
		.where(eq(challengeParticipants.userId, Math.min(4242, PARTICIPANTS)));
	await refreshChallengeProgress(deps, Math.min(4242, PARTICIPANTS));
	const [again] = await db
		.select()
		.from(challengeParticipants)
		.where(eq(challengeParticipants.userId, Math.min(4242, PARTICIPANTS)));
	if (Math.abs(sample.progress - again.progress) > 1e-6) throw new Error('bulk and hook progress differ');

	const viewer = (id: number) => ({
		id,
		username: `bench${id}`,
		displayName: `Bench Runner ${id}`,
		isPremium: false,
	});
	const totalPages = Math.ceil(PARTICIPANTS / PAGE_SIZE);
	for (let i = 0; i < 20; i++)
		await leaderboard(deps, viewer(pick(PARTICIPANTS)), challenge, { page: pick(totalPages) });
	const pageTimes: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const t = performance.now();
		await leaderboard(deps, viewer(pick(PARTICIPANTS)), challenge, {
			page: pick(totalPages),
			pageSize: PAGE_SIZE,
		});
		pageTimes.push(performance.now() - t);
	}
	console.log(
		`  leaderboard page (random of ${totalPages}, own row pinned): ${summary(pageTimes)}   goal p95 ≤ ${goal} ms`,
	);
	const firstPages: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const t = performance.now();
		await leaderboard(deps, viewer(pick(PARTICIPANTS)), challenge, {
			page: 1 + (i % 4),
			pageSize: PAGE_SIZE,
		});
		firstPages.push(performance.now() - t);
	}
	console.log(`  leaderboard pages 1–4 (own row pinned): ${summary(firstPages)}   goal p95 ≤ ${goal} ms`);
	const gradedTimes: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const t = performance.now();
		await leaderboard(deps, viewer(pick(PARTICIPANTS)), challenge, {
			page: pick(totalPages),
			pageSize: PAGE_SIZE,
			view: 'age_graded',
		});
		gradedTimes.push(performance.now() - t);
	}
	console.log(
		`  age-graded page (random of ${totalPages}, own row pinned): ${summary(gradedTimes)}   goal p95 ≤ ${goal} ms`,
	);

	const rankTimes: number[] = [];
	for (let i = 0; i < RUNS; i++) {
		const [participant] = await db
			.select()
			.from(challengeParticipants)
			.where(eq(challengeParticipants.userId, pick(PARTICIPANTS)));
		const t = performance.now();
		await rankOf(deps, participant);
		rankTimes.push(performance.now() - t);
	}
	console.log(`  my rank: ${summary(rankTimes)}   goal p95 ≤ ${goal} ms`);

	const saveTimes: number[] = [];
	const updateTimes: number[] = [];
	const saves = Math.min(RUNS, 200);
	for (let i = 0; i < saves; i++) {
		const member = viewer(pick(PARTICIPANTS));
		const t = performance.now();
		await createWorkout(deps, member, {
			name: 'Bench save',
			notes: '',
			source: '',
			activity_type: 16,
			start_datetime: new Date(Date.parse('2026-06-10T06:00:00Z') + i * 60_000),
			aggregates: { distance_total: 5000, active_time_total: 1800, elapsed_time_total: 1800 },
		} as never);
		const [participant] = await db
			.select()
			.from(challengeParticipants)
			.where(eq(challengeParticipants.userId, member.id));
		await rankOf(deps, participant);
		saveTimes.push(performance.now() - t);
		const u = performance.now();
		await refreshChallengeProgress(deps, member.id);
		await rankOf(deps, participant);
		updateTimes.push(performance.now() - u);
	}
	console.log(`  save a run, then read the new rank: ${summary(saveTimes)}`);
	console.log(`  progress update + rank alone: ${summary(updateTimes)}   goal p95 ≤ 20 ms`);
}

await onBenchDatabases(({ kind, label, db }) => run(label, db, kind === 'pglite' ? 50 : 20));
