import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { haversineM } from '../../../src/lib/workout-files/geo';
import { callApi } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import {
	addMember,
	befriend,
	createSocialTestApp,
	linePayload,
	type Member,
	type SocialApp,
} from '../social/helpers';

/**
 * Security test 23 for routes: a route planned from home leaves nothing inside its owner's privacy zone
 * in any representation another member or a visitor can get — the detail and its points, heights and
 * cues, the start, the list and search preview line, a search near home, the GPX, FIT and KML files, a
 * copy, and the feed card. The owner still sees all of it.
 */
let database: TestDatabase;
let app: SocialApp;
let owner: Member;
let friend: Member;
let stranger: Member;
const HOME = { lat: 40.27, lng: -76.88 };
const RADIUS_M = 400;
let routeId: number;
let insideId: number;

const fromHome = (lat: number, lng: number) => haversineM(HOME.lat, HOME.lng, lat, lng);
const decodeLine = (encoded: string, precision: number) => {
	// Google's polyline encoding, read here independently of the product's decoder.
	const points: [number, number][] = [];
	let index = 0;
	let lat = 0;
	let lng = 0;
	const next = () => {
		let result = 0;
		let shift = 0;
		let byte: number;
		do {
			byte = encoded.charCodeAt(index++) - 63;
			result |= (byte & 0x1f) << shift;
			shift += 5;
		} while (byte >= 0x20);
		return result & 1 ? ~(result >> 1) : result >> 1;
	};
	while (index < encoded.length) {
		lat += next();
		lng += next();
		points.push([lat / 10 ** precision, lng / 10 ** precision]);
	}
	return points;
};

beforeAll(async () => {
	database = await openTestDb();
	let deps: ReturnType<typeof createSocialTestApp>['deps'];
	({ app, deps } = createSocialTestApp(database));
	owner = await addMember(deps, 'zone-planner');
	friend = await addMember(deps, 'zone-friend');
	stranger = await addMember(deps, 'zone-stranger');
	await befriend(deps, owner, friend, 'active');
	const zone = await callApi(app, 'POST', '/api/v7.1/privacy_zone/', {
		token: owner.token,
		body: { name: 'Home', lat: HOME.lat, lng: HOME.lng, radius: RADIUS_M },
	});
	expect(zone.status).toBe(201);
	// 5 km due north from the front door, with a cue at the door and one far out.
	const payload = linePayload('From my door', { ...HOME, km: 5, points: 51, privacy: 3, climb: 50 });
	const made = await callApi(app, 'POST', '/api/v7.1/route/', {
		token: owner.token,
		body: {
			...payload,
			// The MapMyFitness notes string: instructions:lat:lng:distance, joined by ~.
			notes: `Leave home:${HOME.lat}:${HOME.lng}:0~Turn at the mill:${HOME.lat + 0.04}:${HOME.lng}:4450`,
		},
	});
	expect(made.status, made.text).toBe(201);
	routeId = made.json.id;
	const inside = await callApi(app, 'POST', '/api/v7.1/route/', {
		token: owner.token,
		body: linePayload('Round the garden', { ...HOME, km: 0.2, points: 5, privacy: 3 }),
	});
	expect(inside.status).toBe(201);
	insideId = inside.json.id;
});
afterAll(() => database.close());

describe('privacy zones on routes', () => {
	test('others get the route without anything inside the zone; the owner gets all of it', async () => {
		for (const member of [friend, stranger, null]) {
			const detail = await callApi(app, 'GET', `/api/v7.1/route/${routeId}/?field_set=detailed`, {
				token: member?.token,
			});
			expect(detail.status).toBe(200);
			const points = detail.json.points as { lat: number; lng: number; dis: number }[];
			expect(points.length).toBeGreaterThan(30);
			for (const point of points) expect(fromHome(point.lat, point.lng)).toBeGreaterThan(RADIUS_M);
			const [startLng, startLat] = detail.json.starting_location.coordinates;
			expect(fromHome(startLat, startLng)).toBeGreaterThan(RADIUS_M);
			// Distances count from the first point shown, so they do not measure the hidden part.
			expect(points[0].dis).toBe(0);
			expect(JSON.stringify(detail.json.notes)).not.toContain('Leave home');
			expect(JSON.stringify(detail.json.notes)).toContain('Turn at the mill');

			const internal = await callApi(app, 'GET', `/api/v7.1/route/${routeId}/?field_set=detailed_internal`, {
				token: member?.token,
			});
			for (const point of internal.json.points as { lat: number; lng: number }[])
				expect(fromHome(point.lat, point.lng)).toBeGreaterThan(RADIUS_M);

			const summary = await callApi(app, 'GET', `/api/v7.1/route/?user=${owner.id}`, {
				token: member?.token,
			});
			const listed = summary.json._embedded.routes as { id: number; preview_line: string }[];
			expect(listed.map((route) => route.id)).toEqual([routeId]);
			for (const [lat, lng] of decodeLine(listed[0].preview_line, 5))
				expect(fromHome(lat, lng)).toBeGreaterThan(RADIUS_M - 5);

			const gpx = await callApi(app, 'GET', `/api/v7.1/route/${routeId}/gpx/`, { token: member?.token });
			expect(gpx.status).toBe(200);
			const gpxPoints = [...gpx.text.matchAll(/lat="([-\d.]+)" lon="([-\d.]+)"/g)];
			expect(gpxPoints.length).toBeGreaterThan(30);
			for (const [, lat, lng] of gpxPoints)
				expect(fromHome(Number(lat), Number(lng))).toBeGreaterThan(RADIUS_M);
			expect(gpx.text).not.toContain('Leave home');
		}

		const own = await callApi(app, 'GET', `/api/v7.1/route/${routeId}/?field_set=detailed`, {
			token: owner.token,
		});
		expect(own.json.points).toHaveLength(51);
		expect(own.json.starting_location.coordinates).toEqual([HOME.lng, HOME.lat]);
		expect(JSON.stringify(own.json.notes)).toContain('Leave home');
	});

	test('a route wholly inside the zone is its owner’s alone', async () => {
		for (const member of [friend, stranger, null]) {
			const detail = await callApi(app, 'GET', `/api/v7.1/route/${insideId}/`, { token: member?.token });
			expect(detail.status).toBe(404);
			const gpx = await callApi(app, 'GET', `/api/v7.1/route/${insideId}/gpx/`, { token: member?.token });
			expect(gpx.status).toBe(404);
		}
		expect((await callApi(app, 'GET', `/api/v7.1/route/${insideId}/`, { token: owner.token })).status).toBe(
			200,
		);
		const mine = await callApi(app, 'GET', `/api/v7.1/route/?user=${owner.id}`, { token: owner.token });
		expect(mine.json.total_count).toBe(2);
	});

	test('a search near home finds neither route for others, and the owner finds both', async () => {
		const near = `/api/v7.1/route/?close_to_location=${HOME.lat},${HOME.lng}&search_radius=1000`;
		for (const member of [friend, stranger, null]) {
			const found = await callApi(app, 'GET', near, { token: member?.token });
			expect(found.json.total_count).toBe(0);
		}
		const own = await callApi(app, 'GET', near, { token: owner.token });
		expect(own.json.total_count).toBe(2);
	});

	test('a copy by another member, and the feed card, hold nothing inside the zone', async () => {
		const copied = await callApi(app, 'POST', `/api/v7.1/route/${routeId}/copy/`, { token: stranger.token });
		expect(copied.status).toBe(201);
		const copy = await callApi(app, 'GET', `/api/v7.1/route/${copied.json.id}/?field_set=detailed`, {
			token: stranger.token,
		});
		for (const point of copy.json.points as { lat: number; lng: number }[])
			expect(fromHome(point.lat, point.lng)).toBeGreaterThan(RADIUS_M);

		const card = async (token: string) =>
			(
				await callApi(app, 'GET', `/api/v7.1/activity_story/?object_type=route&object_id=${routeId}`, {
					token,
				})
			).json._embedded.activity_stories[0] as { thumbnail: [number, number][] };
		const friendCard = await card(friend.token);
		expect(friendCard.thumbnail.length).toBeGreaterThan(5);
		for (const [lat, lng] of friendCard.thumbnail) expect(fromHome(lat, lng)).toBeGreaterThan(RADIUS_M - 5);
		const ownCard = await card(owner.token);
		expect(Math.min(...ownCard.thumbnail.map(([lat, lng]) => fromHome(lat, lng)))).toBeLessThan(5);
	});
});
