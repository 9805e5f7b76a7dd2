import { Hono } from 'hono';
import type { ApiEnv } from '../../api/context';
import { both } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import {
	ChallengeDetailsQuerySchema,
	ChallengeListQuerySchema,
	ChallengeParamSchema,
	ChallengeUserParamSchema,
	ChallengeWorkoutParamSchema,
	JoinBodySchema,
	LeaderboardQuerySchema,
} from '../contract';
import { challengeAwards } from './awards';
import { listChallenges } from './catalogue';
import { findChallenge } from './challenge';
import { challengeDetails } from './details';
import { leaderboard } from './leaderboard';
import { joinChallenge, leaveChallenge } from './participation';
import { confirmWorkoutPace } from './progress';

const yes = (value: string | undefined) => value === '1' || value === 'true';

/** Challenges: the list, a challenge's details, joining and leaving, the leaderboard and awards. */
export function createChallengesApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/v2/challenges/')) {
		app.get(path, validate('query', ChallengeListQuerySchema), async (c) => {
			c.header('Cache-Control', 'private, no-cache');
			return c.json(await listChallenges(c.var.deps, c.var.viewer, c.req.valid('query')));
		});
	}

	for (const path of both('/challenges/challenge/:id/details/')) {
		app.get(
			path,
			validate('param', ChallengeParamSchema),
			validate('query', ChallengeDetailsQuerySchema),
			async (c) => {
				const query = c.req.valid('query');
				c.header('Cache-Control', 'private, no-cache');
				return c.json(
					await challengeDetails(c.var.deps, c.var.viewer, c.req.valid('param').id, {
						timezone: query.timezone,
						userId: query.mmfUserId,
					}),
				);
			},
		);
	}

	for (const path of both('/challenges/:id/users/')) {
		// The body is optional: a bare POST joins with the name hidden.
		app.post(
			path,
			requireViewer,
			validate('param', ChallengeParamSchema),
			validate('json', JoinBodySchema),
			async (c) => {
				const challenge = await joinChallenge(
					c.var.deps,
					c.var.viewer,
					c.req.valid('param').id,
					c.req.valid('json').show_name ?? false,
					c.req.valid('json').team_id,
				);
				return c.json(await challengeDetails(c.var.deps, c.var.viewer, challenge.id), 201);
			},
		);
	}

	for (const path of both('/challenges/:id/users/:userId/')) {
		app.delete(path, requireViewer, validate('param', ChallengeUserParamSchema), async (c) => {
			const param = c.req.valid('param');
			const challenge = await leaveChallenge(c.var.deps, c.var.viewer, param.id, param.userId);
			return c.json({ id: challenge.id, joined: false });
		});
	}

	for (const path of both('/challenges/:id/workouts/:workoutId/confirm/')) {
		app.post(path, requireViewer, validate('param', ChallengeWorkoutParamSchema), async (c) => {
			const param = c.req.valid('param');
			const challenge = await confirmWorkoutPace(c.var.deps, c.var.viewer, param.id, param.workoutId);
			return c.json(await challengeDetails(c.var.deps, c.var.viewer, challenge.id));
		});
	}

	for (const path of both('/widgets/challenges/:id/leaderboard/')) {
		app.get(
			path,
			validate('param', ChallengeParamSchema),
			validate('query', LeaderboardQuerySchema),
			async (c) => {
				const query = c.req.valid('query');
				const challenge = await findChallenge(c.var.deps, c.req.valid('param').id);
				c.header('Cache-Control', 'private, no-cache');
				return c.json(
					await leaderboard(c.var.deps, c.var.viewer, challenge, {
						page: query.page,
						pageSize: query.page_size,
						friends: yes(query.friends),
						view: query.view,
					}),
				);
			},
		);
	}

	for (const path of both('/v2/mobile/challenges/awards/:id/')) {
		app.get(path, requireViewer, validate('param', ChallengeParamSchema), async (c) => {
			const result = await challengeAwards(c.var.deps, c.var.viewer, c.req.valid('param').id);
			c.header('Cache-Control', 'private, no-cache');
			return c.json({ id: result.challenge.id, joined: result.joined, awards: result.awards });
		});
	}

	return app;
}
