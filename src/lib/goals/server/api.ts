import { Hono } from 'hono';
import type { ApiEnv } from '../../api/context';
import { both, requireOwnLink } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import {
	GoalCreateSchema,
	GoalIdParamSchema,
	GoalListQuerySchema,
	GoalPatchSchema,
	GoalProgressQuerySchema,
} from '../contract';
import {
	abandonGoal,
	createGoal,
	findGoalOwner,
	listGoalsWithProgress,
	representGoal,
	representWeek,
} from './service';

/** Weekly goals: user_goal/ (create, list, stop) and user_goal_progress/ (week by week). */
export function createGoalsApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/v7.1/user_goal/')) {
		app.get(path, validate('query', GoalListQuerySchema), async (c) => {
			const { member, goals } = await listGoalsWithProgress(c.var.deps, c.var.viewer, c.req.valid('query'));
			c.header('Cache-Control', 'private, no-cache');
			return c.json({
				_embedded: { user_goals: goals.map((entry) => representGoal(entry, member.timeZone)) },
				total_count: goals.length,
			});
		});
		app.post(path, requireViewer, validate('json', GoalCreateSchema), async (c) => {
			const viewer = c.var.viewer as { id: number };
			const input = c.req.valid('json');
			requireOwnLink(viewer, input.links?.user, 'goals');
			const goal = await createGoal(c.var.deps, viewer, input);
			const { member, goals } = await listGoalsWithProgress(c.var.deps, viewer, { goal: goal.id });
			c.header('Location', `/api/v7.1/user_goal/${goal.id}/`);
			return c.json(representGoal(goals[0], member.timeZone), 201);
		});
	}

	for (const path of both('/v7.1/user_goal/:id/')) {
		app.get(path, validate('param', GoalIdParamSchema), async (c) => {
			const id = Number(c.req.valid('param').id);
			const viewer = c.var.viewer;
			// The goal's owner is found through the goal; privacy then decides as for the list.
			const ownerId = await findGoalOwner(c.var.deps, id);
			const { member, goals } = await listGoalsWithProgress(c.var.deps, viewer, { user: ownerId, goal: id });
			c.header('Cache-Control', 'private, no-cache');
			return c.json(representGoal(goals[0], member.timeZone));
		});
		app.patch(
			path,
			requireViewer,
			validate('param', GoalIdParamSchema),
			validate('json', GoalPatchSchema),
			async (c) => {
				const viewer = c.var.viewer as { id: number };
				requireOwnLink(viewer, c.req.valid('json').links?.user, 'goals');
				const goal = await abandonGoal(c.var.deps, viewer, Number(c.req.valid('param').id));
				const { member, goals } = await listGoalsWithProgress(c.var.deps, viewer, { goal: goal.id });
				return c.json(representGoal(goals[0], member.timeZone));
			},
		);
	}

	for (const path of both('/v7.1/user_goal_progress/')) {
		app.get(path, validate('query', GoalProgressQuerySchema), async (c) => {
			const query = c.req.valid('query');
			const { member, goals } = await listGoalsWithProgress(c.var.deps, c.var.viewer, query);
			c.header('Cache-Control', 'private, no-cache');
			return c.json({
				_embedded: {
					user_goal_progress: goals.map((entry) => ({
						goal: entry.goal.id,
						status: entry.goal.status,
						weeks: entry.weeks.map(representWeek),
					})),
				},
				time_zone: member.timeZone,
				total_count: goals.length,
			});
		});
	}

	return app;
}
