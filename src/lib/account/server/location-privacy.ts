import { and, asc, count, eq, inArray, sql } from 'drizzle-orm';
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
import type { AppDeps } from '../../core/server/deps';
import { singleLineText } from '../../core/text';
import {
	HIDE_ENDS_DEFAULT_M,
	HIDE_ENDS_MAX_M,
	HIDE_ENDS_MIN_M,
	type LocationPrivacy,
	MAX_PRIVACY_ZONES,
	placeZone,
	ZONE_RADIUS_MAX_M,
	ZONE_RADIUS_MIN_M,
} from '../../workouts/privacy-zones';
import { locationPrivacySettings, privacyZones } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock'>;
type Viewer = { id: number };

export const PrivacyZoneSaveSchema = v.object({
	name: v.optional(singleLineText('name', 60), ''),
	/** The point to hide (the member's address, found with the place search, or a point on the map). */
	lat: v.pipe(v.number(), v.finite(), v.minValue(-85), v.maxValue(85)),
	lng: v.pipe(v.number(), v.finite(), v.minValue(-180), v.maxValue(180)),
	radius: v.pipe(
		v.number(),
		v.integer(),
		v.minValue(ZONE_RADIUS_MIN_M, `radius must be at least ${ZONE_RADIUS_MIN_M} m`),
		v.maxValue(ZONE_RADIUS_MAX_M, `radius must be at most ${ZONE_RADIUS_MAX_M} m`),
	),
});

export const HideEndsSchema = v.object({
	hide_ends: v.pipe(
		v.number(),
		v.integer(),
		v.check(
			(value) => value === 0 || (value >= HIDE_ENDS_MIN_M && value <= HIDE_ENDS_MAX_M),
			`hide_ends must be 0 (off) or ${HIDE_ENDS_MIN_M}–${HIDE_ENDS_MAX_M} m`,
		),
	),
});

const ZoneIdParam = v.object({
	id: idText('id must be a privacy zone id'),
});

type ZoneRow = typeof privacyZones.$inferSelect;

/** The owner's view: the hidden circle (not the point they gave) and the radius they chose. */
function representZone(zone: ZoneRow) {
	return {
		id: zone.id,
		name: zone.name,
		radius: zone.chosenRadiusM,
		hidden_area: { lat: zone.lat, lng: zone.lng, radius: zone.radiusM },
		created_datetime: formatApiDateTime(zone.createdAt),
		_links: { self: [{ href: `/v7.1/privacy_zone/${zone.id}/`, id: String(zone.id) }] },
	};
}

export async function listPrivacyZones(deps: Deps, viewer: Viewer): Promise<ZoneRow[]> {
	return deps.db
		.select()
		.from(privacyZones)
		.where(eq(privacyZones.ownerId, viewer.id))
		.orderBy(asc(privacyZones.id));
}

export async function addPrivacyZone(
	deps: Deps,
	viewer: Viewer,
	input: v.InferOutput<typeof PrivacyZoneSaveSchema>,
	random: () => number = Math.random,
): Promise<ZoneRow> {
	const [{ zones }] = await deps.db
		.select({ zones: count() })
		.from(privacyZones)
		.where(eq(privacyZones.ownerId, viewer.id));
	if (zones >= MAX_PRIVACY_ZONES)
		throw new AppError('conflict', `You can keep up to ${MAX_PRIVACY_ZONES} privacy zones.`);
	const circle = placeZone({ lat: input.lat, lng: input.lng }, input.radius, random);
	const [row] = await deps.db
		.insert(privacyZones)
		.values({
			ownerId: viewer.id,
			name: input.name,
			chosenRadiusM: input.radius,
			lat: circle.lat,
			lng: circle.lng,
			radiusM: circle.radiusM,
			createdAt: deps.clock(),
		})
		.returning();
	return row;
}

export async function deletePrivacyZone(deps: Deps, viewer: Viewer, id: number): Promise<void> {
	const deleted = await deps.db
		.delete(privacyZones)
		.where(and(eq(privacyZones.id, id), eq(privacyZones.ownerId, viewer.id)))
		.returning({ id: privacyZones.id });
	if (deleted.length === 0) throw new AppError('not_found', 'No such privacy zone');
}

export async function hideEndsOf(deps: Deps, userId: number): Promise<number> {
	const [row] = await deps.db
		.select({ hideEndsM: locationPrivacySettings.hideEndsM })
		.from(locationPrivacySettings)
		.where(eq(locationPrivacySettings.userId, userId));
	return row?.hideEndsM ?? HIDE_ENDS_DEFAULT_M;
}

export async function setHideEnds(deps: Deps, viewer: Viewer, hideEndsM: number): Promise<void> {
	const now = deps.clock();
	await deps.db
		.insert(locationPrivacySettings)
		.values({ userId: viewer.id, hideEndsM, updatedAt: now })
		.onConflictDoUpdate({ target: locationPrivacySettings.userId, set: { hideEndsM, updatedAt: now } });
}

/** What a workout's owner hides from everyone else. */
export async function locationPrivacyOf(deps: Deps, ownerId: number): Promise<LocationPrivacy> {
	const [zones, hideEndsM] = await Promise.all([
		deps.db
			.select({ lat: privacyZones.lat, lng: privacyZones.lng, radiusM: privacyZones.radiusM })
			.from(privacyZones)
			.where(eq(privacyZones.ownerId, ownerId)),
		hideEndsOf(deps, ownerId),
	]);
	return { zones, hideEndsM };
}

/** The privacy of several owners at once, in two queries whatever their number (a feed page's owners). */
export async function locationPrivacyOfMany(
	deps: Deps,
	ownerIds: number[],
): Promise<Map<number, LocationPrivacy>> {
	const owners = [...new Set(ownerIds)];
	const found = new Map<number, { zones: LocationPrivacy['zones'][number][]; hideEndsM: number }>(
		owners.map((id) => [id, { zones: [], hideEndsM: HIDE_ENDS_DEFAULT_M }]),
	);
	if (owners.length === 0) return found;
	// One query for both: each zone as a row, and each owner's hidden-ends setting as a row of its own.
	const rows = await deps.db
		.select({
			ownerId: privacyZones.ownerId,
			lat: sql<number | null>`${privacyZones.lat}`,
			lng: sql<number | null>`${privacyZones.lng}`,
			radiusM: sql<number | null>`${privacyZones.radiusM}`,
			hideEndsM: sql<number | null>`null::integer`,
		})
		.from(privacyZones)
		.where(inArray(privacyZones.ownerId, owners))
		.unionAll(
			deps.db
				.select({
					ownerId: locationPrivacySettings.userId,
					lat: sql<number | null>`null::double precision`,
					lng: sql<number | null>`null::double precision`,
					radiusM: sql<number | null>`null::integer`,
					hideEndsM: sql<number | null>`${locationPrivacySettings.hideEndsM}`,
				})
				.from(locationPrivacySettings)
				.where(inArray(locationPrivacySettings.userId, owners)),
		);
	for (const { ownerId, lat, lng, radiusM, hideEndsM } of rows) {
		const privacy = found.get(ownerId);
		if (!privacy) continue;
		if (hideEndsM !== null) privacy.hideEndsM = hideEndsM;
		else if (lat !== null && lng !== null && radiusM !== null) privacy.zones.push({ lat, lng, radiusM });
	}
	return found;
}

/** A member's own privacy zones and hidden workout ends; nobody else reads or changes them. */
export function createLocationPrivacyApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	const viewerOf = (c: { var: { viewer: Viewer | null } }) => c.var.viewer as Viewer;

	for (const path of both('/v7.1/privacy_zone/')) {
		app.get(
			path,
			describeRoute({ summary: "The signed-in member's privacy zones" }),
			requireViewer,
			async (c) => {
				const zones = await listPrivacyZones(c.var.deps, viewerOf(c));
				c.header('Cache-Control', 'private, no-store');
				return c.json({ _embedded: { privacy_zones: zones.map(representZone) }, total_count: zones.length });
			},
		);
		app.post(path, requireViewer, validate('json', PrivacyZoneSaveSchema), async (c) => {
			const zone = await addPrivacyZone(c.var.deps, viewerOf(c), c.req.valid('json'));
			c.header('Location', `/api/v7.1/privacy_zone/${zone.id}/`);
			return c.json(representZone(zone), 201);
		});
	}
	for (const path of both('/v7.1/privacy_zone/:id/')) {
		app.delete(path, requireViewer, validate('param', ZoneIdParam), async (c) => {
			await deletePrivacyZone(c.var.deps, viewerOf(c), Number(c.req.valid('param').id));
			return c.body(null, 204);
		});
	}
	for (const path of both('/v7.1/location_privacy/')) {
		app.get(
			path,
			describeRoute({ summary: 'How much of each workout end the member hides' }),
			requireViewer,
			async (c) => {
				c.header('Cache-Control', 'private, no-store');
				return c.json({ hide_ends: await hideEndsOf(c.var.deps, viewerOf(c).id) });
			},
		);
		app.put(path, requireViewer, validate('json', HideEndsSchema), async (c) => {
			const { hide_ends } = c.req.valid('json');
			await setHideEnds(c.var.deps, viewerOf(c), hide_ends);
			return c.json({ hide_ends });
		});
	}
	return app;
}
