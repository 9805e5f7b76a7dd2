import { eq } from 'drizzle-orm';
import * as v from 'valibot';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { UserUpdateSchema } from '../../../src/lib/account/contract';
import { updateUser } from '../../../src/lib/account/server/service';
import { users } from '../../../src/lib/auth/server/tables';
import { ageGrade } from '../../../src/lib/challenges/age-grade';
import { handleAdminChallengePost } from '../../../src/lib/challenges/server/admin';
import type { ChallengeRow } from '../../../src/lib/challenges/server/challenge';
import { type ChallengeRules, createChallenge } from '../../../src/lib/challenges/server/organise';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, createChallengesTestApp, logWorkout, type Member } from './helpers';

let database: TestDatabase;
let made: ReturnType<typeof createChallengesTestApp>;
let young: Member;
let older: Member;
let anon: Member;
let june: ChallengeRow;

const rules: Omit<ChallengeRules, 'name' | 'mode'> = {
	description: '',
	metric: 'distance',
	activity_groups: ['run'],
	starts_on: '2026-06-01',
	ends_on: '2026-06-30',
	target: 50_000,
	prizes: [],
};

async function profile(member: Member, birthdate: string | null, gender: string | null) {
	await made.deps.db.update(users).set({ birthdate, gender }).where(eq(users.id, member.id));
}

beforeAll(async () => {
	database = await openTestDb();
	made = createChallengesTestApp(database);
});
beforeEach(async () => {
	await database.reset();
	young = await addMember(made.deps, 'young');
	older = await addMember(made.deps, 'older');
	anon = await addMember(made.deps, 'anon');
	// The test clock reads 2026-06-01T12:00Z: young is 25, older 60 on the day of their runs.
	await profile(young, '2001-01-15', 'M');
	await profile(older, '1966-03-02', 'M');
	june = await createChallenge(made.deps, { ...rules, name: 'June Run', mode: 'solo' });
});
afterAll(async () => {
	await database.close();
});

const join = (member: Member, body?: unknown, ref: number = june.id) =>
	callApi(made.app, 'POST', `/api/challenges/${ref}/users/`, { token: member.token, body });
const board = (member: Member | null, query: string, ref: number = june.id) =>
	callApi(made.app, 'GET', `/api/widgets/challenges/${ref}/leaderboard/${query}`, { token: member?.token });

describe('the age-graded leaderboard', () => {
	test('ranks each participant’s best counted run by age grade, the ungraded listed last', async () => {
		for (const member of [young, older, anon]) await join(member, { show_name: true });
		// Young: 5 km in 20:00 (64.3 %) and a slower 10 km; older: 5 km in 23:00, 77.8 % at 60.
		await logWorkout(made.app, young, { start: '2026-06-01T06:00:00Z', metres: 5000, seconds: 1200 });
		await logWorkout(made.app, young, { start: '2026-06-01T07:00:00Z', metres: 10_000, seconds: 3000 });
		await logWorkout(made.app, older, { start: '2026-06-01T06:00:00Z', metres: 5000, seconds: 1380 });
		// Too short to grade, and anon has no birthdate or sex.
		await logWorkout(made.app, older, { start: '2026-06-01T08:00:00Z', metres: 1000, seconds: 150 });
		await logWorkout(made.app, anon, { start: '2026-06-01T06:00:00Z', metres: 5000, seconds: 1000 });

		const total = await board(young, '');
		expect(total.json.view).toBe('total');
		expect(total.json.results.map((row: { name: string }) => row.name)).toEqual([
			'young D.',
			'older D.',
			'anon D.',
		]);
		expect(total.json.results[0].ageGrade).toBeUndefined();

		const graded = await board(young, '?view=age_graded');
		expect(graded.status).toBe(200);
		expect(graded.json.view).toBe('age_graded');
		const rows = graded.json.results;
		expect(rows.map((row: { name: string; rank: number | null }) => [row.name, row.rank])).toEqual([
			['older D.', 1],
			['young D.', 2],
			['anon D.', null],
		]);
		const olderGrade = ageGrade('M', 60, 5000, 1380);
		expect(rows[0].ageGrade).toMatchObject({
			metres: 5000,
			seconds: 1380,
			distanceText: '5 km',
			timeText: '23:00',
			gradeText: `${(olderGrade.grade * 100).toFixed(1)} %`,
		});
		expect(rows[0].ageGrade.grade).toBeCloseTo(olderGrade.grade, 10);
		expect(rows[0].ageGrade.gradedSeconds).toBeCloseTo(1380 * 0.8096, 6);
		// The young runner's best is the 5 km (64.3 %), not the slower 10 km.
		expect(rows[1].ageGrade).toMatchObject({ metres: 5000, gradeText: '64.3 %' });
		expect(rows[2]).toMatchObject({ ageGrade: null, ungraded: 'no_age_or_sex' });
		// Nothing about anyone's birthdate or sex leaves the server.
		expect(graded.text).not.toContain('1966');
		expect(graded.text).not.toContain('birthdate');
		expect(graded.text).not.toContain('gender');

		// The viewer off the page is pinned with their graded rank.
		const second = await board(young, '?view=age_graded&page=2&page_size=1');
		expect(second.json.results.map((row: { name: string }) => row.name)).toEqual(['young D.']);
		const pinned = await board(young, '?view=age_graded&page=1&page_size=1');
		expect(pinned.json.me).toMatchObject({ rank: 2, isMe: true });
	});

	test('a profile that gains a birthdate and sex is graded; one without a counted run says so', async () => {
		await join(anon);
		await logWorkout(made.app, anon, { start: '2026-06-01T06:00:00Z', metres: 5000, seconds: 1500 });
		await join(young);
		expect(
			(await board(anon, '?view=age_graded')).json.results.map((row: { ungraded: string }) => row.ungraded),
		).toEqual(['no_qualifying_run', 'no_age_or_sex']);
		// Saving the profile regrades the member's runs.
		await updateUser(
			made.deps,
			{ id: anon.id, username: 'anon', displayName: 'anon', isPremium: false },
			anon.id,
			v.parse(UserUpdateSchema, { birthdate: '1980-05-05', gender: 'F' }),
		);
		const after = await board(anon, '?view=age_graded');
		expect(after.json.results[0]).toMatchObject({ rank: 1, isMe: true, ungraded: null });
		expect(after.json.results[0].ageGrade.grade).toBeCloseTo(ageGrade('F', 46, 5000, 1500).grade, 10);
	});

	test('only running distance challenges have an age-graded board; the view is validated', async () => {
		const hours = await createChallenge(made.deps, {
			...rules,
			name: 'June Hours',
			metric: 'duration',
			mode: 'solo',
		});
		const refused = await board(null, '?view=age_graded', hours.id);
		expect(refused.status).toBe(400);
		expect((await board(null, '?view=fastest')).status).toBe(400);
		const details = await callApi(made.app, 'GET', `/api/challenges/challenge/${june.id}/details/`);
		expect(details.json.rules.ageGraded).toBe(true);
	});
});

describe('team challenges', () => {
	let relay: ChallengeRow;
	beforeEach(async () => {
		relay = await createChallenge(made.deps, {
			...rules,
			name: 'June Relay',
			mode: 'team',
			teams: ['Harriers', 'Striders'],
		});
	});
	const detailsOf = (member: Member | null) =>
		callApi(made.app, 'GET', `/api/challenges/challenge/${relay.id}/details/`, { token: member?.token });

	test('members join a team; standings show each team’s total, members and rank', async () => {
		const teams = (await detailsOf(null)).json.teams;
		expect(teams.map((team: { name: string }) => team.name).sort()).toEqual(['Harriers', 'Striders']);
		const harriers = teams.find((team: { name: string }) => team.name === 'Harriers').id;
		const striders = teams.find((team: { name: string }) => team.name === 'Striders').id;

		const teamless = await join(young, {}, relay.id);
		expect(teamless.status).toBe(422);
		expect((await join(young, { team_id: 999_999 }, relay.id)).status).toBe(422);

		expect((await join(young, { team_id: harriers }, relay.id)).status).toBe(201);
		expect((await join(older, { team_id: harriers }, relay.id)).status).toBe(201);
		expect((await join(anon, { team_id: striders }, relay.id)).status).toBe(201);
		await logWorkout(made.app, young, { start: '2026-06-01T06:00:00Z', metres: 5000 });
		await logWorkout(made.app, older, { start: '2026-06-01T06:00:00Z', metres: 3000 });
		await logWorkout(made.app, anon, { start: '2026-06-01T06:00:00Z', metres: 7000 });

		const standings = (await detailsOf(young)).json.teams;
		expect(standings).toEqual([
			expect.objectContaining({
				name: 'Harriers',
				rank: 1,
				progress: 8000,
				members: 2,
				isMine: true,
				progressText: '8 km',
			}),
			expect.objectContaining({ name: 'Striders', rank: 2, progress: 7000, members: 1, isMine: false }),
		]);
		// The leaderboard carries them too.
		const fromBoard = await board(null, '', relay.id);
		expect(
			fromBoard.json.teams.map((team: { name: string; rank: number }) => [team.name, team.rank]),
		).toEqual([
			['Harriers', 1],
			['Striders', 2],
		]);

		// Switching teams moves the member's distance; leaving takes it away.
		await join(older, { team_id: striders }, relay.id);
		expect(
			(await detailsOf(null)).json.teams.map((team: { name: string; progress: number; members: number }) => [
				team.name,
				team.progress,
				team.members,
			]),
		).toEqual([
			['Striders', 10_000, 2],
			['Harriers', 5000, 1],
		]);
		// Re-joining without a team keeps it (the name choice alone changes).
		expect((await join(older, { show_name: true }, relay.id)).status).toBe(201);
		await callApi(made.app, 'DELETE', `/api/challenges/${relay.id}/users/${anon.id}/`, { token: anon.token });
		expect(
			(await detailsOf(null)).json.teams.map((team: { name: string; progress: number }) => [
				team.name,
				team.progress,
			]),
		).toEqual([
			['Harriers', 5000],
			['Striders', 3000],
		]);
	});

	test('solo challenges take no team; the admin form sets teams, and a team challenge needs two', async () => {
		const harriers = (await detailsOf(null)).json.teams[0].id;
		expect((await join(young, { team_id: harriers })).status).toBe(422);
		const form = (fields: Record<string, string>) => {
			const data = new FormData();
			for (const [key, value] of Object.entries({
				name: 'Autumn Relay',
				metric: 'distance',
				activity_groups: 'run',
				starts_on: '2026-09-01',
				ends_on: '2026-09-30',
				target: '100',
				...fields,
			}))
				data.set(key, value);
			return data;
		};
		const one = await handleAdminChallengePost(
			made.deps,
			young.id,
			null,
			form({ mode: 'team', teams: 'Solo' }),
		);
		expect(one).toMatchObject({ ok: false });
		const made2 = await handleAdminChallengePost(
			made.deps,
			young.id,
			null,
			form({ mode: 'team', teams: 'Owls\nLarks\n' }),
		);
		expect(made2).toMatchObject({ ok: true });
		const id = made2.ok ? made2.id : 0;
		const created = await callApi(made.app, 'GET', `/api/challenges/challenge/${id}/details/`);
		expect(created.json.teams.map((team: { name: string }) => team.name).sort()).toEqual(['Larks', 'Owls']);
		// Editing renames the set: a removed team goes, its members stay in the challenge without a team.
		const edited = await handleAdminChallengePost(
			made.deps,
			young.id,
			String(id),
			form({ mode: 'team', teams: 'Owls\nNightjars' }),
		);
		expect(edited).toMatchObject({ ok: true });
		const after = await callApi(made.app, 'GET', `/api/challenges/challenge/${id}/details/`);
		expect(after.json.teams.map((team: { name: string }) => team.name).sort()).toEqual(['Nightjars', 'Owls']);
	});
});
