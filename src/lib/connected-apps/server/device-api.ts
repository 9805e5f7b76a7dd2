import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import * as v from 'valibot';
import type { ApiEnv } from '../../api/context';
import { both } from '../../api/hal';
import { validate } from '../../api/validate';
import { requireViewer } from '../../auth/server/middleware';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import { idText } from '../../core/integers';
import {
	disconnectDevice,
	listDeviceClouds,
	listDeviceConnections,
	receiveDeviceWebhook,
	requestDeviceSync,
} from './device-sync';

const ConnectionIdParam = v.object({ id: idText('id must be a connection id.') });
const CloudParam = v.object({
	cloud: v.pipe(v.string(), v.regex(/^[a-z]{1,30}$/, 'cloud must be a device cloud key.')),
});

/**
 * Device clouds in the v7.1 shape: the kinds a member may connect, their connections (each removable,
 * and synced on request), and the webhook the clouds call when a member records something new.
 */
export function createDeviceCloudsApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/v7.1/remoteconnectiontype/')) {
		app.get(path, describeRoute({ summary: 'Device clouds a member may connect' }), requireViewer, (c) => {
			const clouds = listDeviceClouds(c.var.deps);
			c.header('Cache-Control', 'private, no-store');
			return c.json({
				_embedded: {
					remoteconnectiontypes: clouds.map((cloud) => ({
						type: cloud.key,
						name: cloud.name,
						description: cloud.description,
						test_connection: cloud.test,
						_links: { self: [{ href: `/v7.1/remoteconnectiontype/${cloud.key}/`, id: cloud.key }] },
					})),
				},
				total_count: clouds.length,
				_links: { self: [{ href: '/v7.1/remoteconnectiontype/' }] },
			});
		});
	}

	for (const path of both('/v7.1/remoteconnection/')) {
		app.get(path, describeRoute({ summary: "The member's device connections" }), requireViewer, async (c) => {
			const viewer = c.var.viewer as { id: number };
			const connections = await listDeviceConnections(c.var.deps, viewer.id);
			c.header('Cache-Control', 'private, no-store');
			return c.json({
				_embedded: {
					remoteconnections: connections.map((connection) => ({
						id: String(connection.id),
						type: connection.cloud,
						name: connection.name,
						test_connection: connection.test,
						created_datetime: formatApiDateTime(new Date(connection.connectedAt)),
						last_sync_time: connection.lastSyncAt ? formatApiDateTime(new Date(connection.lastSyncAt)) : null,
						last_sync_error: connection.lastError,
						_links: {
							self: [{ href: `/v7.1/remoteconnection/${connection.id}/`, id: String(connection.id) }],
							user: [{ href: `/v7.1/user/${viewer.id}/`, id: String(viewer.id) }],
							remoteconnectiontype: [
								{ href: `/v7.1/remoteconnectiontype/${connection.cloud}/`, id: connection.cloud },
							],
						},
					})),
				},
				total_count: connections.length,
				_links: { self: [{ href: '/v7.1/remoteconnection/' }] },
			});
		});
	}

	for (const path of both('/v7.1/remoteconnection/:id/')) {
		app.delete(
			path,
			describeRoute({ summary: 'Disconnect a device cloud' }),
			requireViewer,
			validate('param', ConnectionIdParam),
			async (c) => {
				const viewer = c.var.viewer as { id: number };
				await disconnectDevice(c.var.deps, viewer.id, Number(c.req.valid('param').id));
				return c.body(null, 204);
			},
		);
	}

	for (const path of both('/v7.1/remoteconnection/:id/sync/')) {
		app.post(
			path,
			describeRoute({ summary: "Sync a device connection's new activities now" }),
			requireViewer,
			validate('param', ConnectionIdParam),
			async (c) => {
				const viewer = c.var.viewer as { id: number };
				await requestDeviceSync(c.var.deps, viewer.id, Number(c.req.valid('param').id));
				return c.json({ status: 'queued' }, 202);
			},
		);
	}

	// Clouds post here; the cloud's own check of the notice, not a session, says who is calling. The
	// API's default body limit (1 MB) is far more than a notice of new activities holds.
	app.post(
		'/device_clouds/:cloud/webhook',
		describeRoute({ summary: "A device cloud's notice of new activities" }),
		validate('param', CloudParam),
		async (c) => {
			const received = await receiveDeviceWebhook(c.var.deps, c.req.valid('param').cloud, {
				headers: c.req.raw.headers,
				body: await c.req.text(),
			});
			if (received === null)
				throw new AppError('bad_request', 'This is not a notice from that device cloud.');
			return c.json({ status: 'received' });
		},
	);

	return app;
}
