import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import { describeRoute, resolver } from 'hono-openapi';
import * as v from 'valibot';
import type { ApiEnv } from './context';

export const HealthSchema = v.object({
	status: v.picklist(['ok', 'degraded']),
	database: v.picklist(['ok', 'unreachable']),
});

export const LivenessSchema = v.object({ status: v.literal('ok') });

/** Liveness stays free of I/O so load balancers can poll it hard; readiness checks the database. */
export function createHealthApi() {
	return new Hono<ApiEnv>()
		.get(
			'/health',
			describeRoute({
				summary: 'Liveness: the process answers',
				tags: ['system'],
				responses: {
					200: {
						description: 'Alive',
						content: { 'application/json': { schema: resolver(LivenessSchema) } },
					},
				},
			}),
			(c) => c.json({ status: 'ok' } as const),
		)
		.get(
			'/health/ready',
			describeRoute({
				summary: 'Readiness: the database answers',
				tags: ['system'],
				responses: {
					200: {
						description: 'Healthy',
						content: { 'application/json': { schema: resolver(HealthSchema) } },
					},
					503: {
						description: 'Database unreachable',
						content: { 'application/json': { schema: resolver(HealthSchema) } },
					},
				},
			}),
			async (c) => {
				try {
					await c.var.deps.db.execute(sql`select 1`);
					return c.json({ status: 'ok', database: 'ok' } satisfies v.InferOutput<typeof HealthSchema>);
				} catch {
					return c.json(
						{ status: 'degraded', database: 'unreachable' } satisfies v.InferOutput<typeof HealthSchema>,
						503,
					);
				}
			},
		);
}
