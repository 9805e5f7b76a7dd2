import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { createLocationPrivacyApi } from '../../../src/lib/account/server/location-privacy';
import { haversineM } from '../../../src/lib/workout-files/geo';
import { createWorkoutsApi } from '../../../src/lib/workouts/server/api';
import { createWorkoutDetailApi } from '../../../src/lib/workouts/server/detail-api';
import { loadWorkoutPageView } from '../../../src/lib/workouts/server/page-view';
import { callApi, createTestApi, createTestDeps } from '../../helpers/app';
import { openTestDb, type TestDatabase } from '../../helpers/db';
import { addMember, befriend, type Member } from './helpers';

let database: TestDatabase;
let deps: ReturnType<typeof createTestDeps>;
let app: ReturnType<typeof createTestApi>;
let owner: Member;
let friend: Member;
let stranger: Member;

beforeAll(async () => {
	database = await openTestDb();
	deps = createTestDeps(database.db);
	app = createTestApi(deps, {
		routes: [createWorkoutsApi(), createWorkoutDetailApi(), createLocationPrivacyApi()],
	});
});
beforeEach(async () => {
	await database.reset();
	owner = await addMember(deps, 'owner');
	friend = await addMember(deps, 'friend');
	stranger = await addMember(deps, 'stranger');
	await befriend(deps, owner, friend);
});
afterAll(() => database.close());

const HOME = { lat: 46.0569, lng: 14.5058 };

/** A seeded generator, so every run draws the same tracks. */
function seeded(seed: number): () => number {
	let state = seed >>> 0;
	return () => {
		state = (state + 0x6d2b79f5) >>> 0;
		let t = state;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

const M_PER_DEG_LAT = 111_195;
const toLatLng = (x: number, y: number) => ({
	lat: HOME.lat + y / M_PER_DEG_LAT,
	lng: HOME.lng + x / (M_PER_DEG_LAT * Math.cos((HOME.lat * Math.PI) / 180)),
});
const toXY = (point: { lat: number; lng: number }) => ({
	x: (point.lng - HOME.lng) * M_PER_DEG_LAT * Math.cos((HOME.lat * Math.PI) / 180),
	y: (point.lat - HOME.lat) * M_PER_DEG_LAT,
});

/**
 * A run from the home door and back: out along a wandering heading for 1.5–4 km, then home by
 * another way, one sample every 2.5 s with a few metres of GPS noise, heart rate and distance.
 */
function homeRun(random: () => number) {
	const points: { x: number; y: number }[] = [{ x: 0, y: 0 }];
	const baseHeading = random() * 2 * Math.PI;
	let heading = baseHeading;
	const out = 1500 + random() * 2500;
	let x = 0;
	let y = 0;
	for (let walked = 0; walked < out; walked += 8) {
		heading += (random() - 0.5) * 0.3 + (baseHeading - heading) * 0.05;
		x += 8 * Math.sin(heading);
		y += 8 * Math.cos(heading);
		points.push({ x, y });
	}
	// Home by a bend: first sideways for a while, then straight at the door.
	heading = baseHeading + (random() < 0.5 ? 1 : -1) * (Math.PI / 2);
	for (let i = 0; i < 60; i++) {
		x += 8 * Math.sin(heading);
		y += 8 * Math.cos(heading);
		points.push({ x, y });
	}
	while (Math.hypot(x, y) > 8) {
		const toHome = Math.atan2(-x, -y) + (random() - 0.5) * 0.4;
		x += 8 * Math.sin(toHome);
		y += 8 * Math.cos(toHome);
		points.push({ x, y });
	}
	points.push({ x: 0, y: 0 });
	let distance = 0;
	const position: [number, { lat: number; lng: number }][] = [];
	const heartrate: [number, number][] = [];
	const distanceSeries: [number, number][] = [];
	points.forEach((point, i) => {
		if (i > 0) distance += Math.hypot(point.x - points[i - 1].x, point.y - points[i - 1].y);
		const seconds = i * 2.5;
		const noisy = toLatLng(point.x + (random() - 0.5) * 6, point.y + (random() - 0.5) * 6);
		position.push([seconds, { lat: Number(noisy.lat.toFixed(6)), lng: Number(noisy.lng.toFixed(6)) }]);
		heartrate.push([seconds, 120 + Math.round(random() * 40)]);
		distanceSeries.push([seconds, Math.round(distance * 10) / 10]);
	});
	return { position, heartrate, distance: distanceSeries };
}

async function saveRun(member: Member, index: number, privacy: 1 | 3, random: () => number) {
	const day = String(1 + (index % 28)).padStart(2, '0');
	const month = String(1 + Math.floor(index / 28)).padStart(2, '0');
	const answer = await callApi(app, 'POST', '/api/v7.1/workout/', {
		token: member.token,
		body: {
			name: `Run ${index}`,
			start_datetime: `2026-${month}-${day}T06:30:00+00:00`,
			activity_type: 16,
			privacy,
			aggregates: {},
			time_series: homeRun(random),
		},
	});
	expect(answer.status).toBe(201);
	return answer.json.id as number;
}

type Position = [number, { lat: number; lng: number }];

async function seriesAs(id: number, token?: string) {
	const answer = await callApi(app, 'GET', `/api/v7.1/workout/${id}/?field_set=time_series`, { token });
	return answer;
}

/** Least-squares circle through points (Kåsa's fit): returns its centre and radius. */
function fitCircle(points: { x: number; y: number }[]) {
	// Minimise Σ (x² + y² + D x + E y + F)²: three normal equations in D, E, F.
	const sums = { xx: 0, xy: 0, yy: 0, x: 0, y: 0, n: points.length, xz: 0, yz: 0, z: 0 };
	for (const { x, y } of points) {
		const z = x * x + y * y;
		sums.xx += x * x;
		sums.xy += x * y;
		sums.yy += y * y;
		sums.x += x;
		sums.y += y;
		sums.xz += x * z;
		sums.yz += y * z;
		sums.z += z;
	}
	const a = [
		[sums.xx, sums.xy, sums.x],
		[sums.xy, sums.yy, sums.y],
		[sums.x, sums.y, sums.n],
	];
	const b = [-sums.xz, -sums.yz, -sums.z];
	const det = (m: number[][]) =>
		m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) -
		m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
		m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
	const whole = det(a);
	const solve = (column: number) =>
		det(a.map((row, i) => row.map((value, j) => (j === column ? b[i] : value)))) / whole;
	const [d, e, f] = [solve(0), solve(1), solve(2)];
	const centre = { x: -d / 2, y: -e / 2 };
	return { centre, radius: Math.sqrt(centre.x ** 2 + centre.y ** 2 - f) };
}

describe('privacy zones and hidden ends: the member settings', () => {
	test('a zone is stored as a displaced, larger circle that still covers the chosen radius around the point', async () => {
		const saved = await callApi(app, 'POST', '/api/v7.1/privacy_zone/', {
			token: owner.token,
			body: { name: 'Home', lat: HOME.lat, lng: HOME.lng, radius: 400 },
		});
		expect(saved.status).toBe(201);
		expect(saved.json).toMatchObject({ name: 'Home', radius: 400 });
		const area = saved.json.hidden_area;
		const offset = haversineM(HOME.lat, HOME.lng, area.lat, area.lng);
		// The point given is not the stored centre, and cannot be read back from it.
		expect(offset).toBeGreaterThanOrEqual(0.8 * 400 - 1);
		expect(offset).toBeLessThanOrEqual(400 + 1);
		expect(area.radius).toBeGreaterThanOrEqual(offset + 400 - 1);

		const listed = await callApi(app, 'GET', '/api/v7.1/privacy_zone/', { token: owner.token });
		expect(listed.json.total_count).toBe(1);
		// The listing shows the displaced circle only, never the point given. (Its centre may share the point's
		// latitude or longitude when it moved due east or due north: the distance above is what hides the point.)
		const [zone] = listed.json._embedded.privacy_zones;
		expect(Object.keys(zone).sort()).toEqual([
			'_links',
			'created_datetime',
			'hidden_area',
			'id',
			'name',
			'radius',
		]);
		expect(zone.hidden_area).toEqual(area);

		// Nobody else sees or removes it.
		const theirs = await callApi(app, 'GET', '/api/v7.1/privacy_zone/', { token: stranger.token });
		expect(theirs.json.total_count).toBe(0);
		expect((await callApi(app, 'GET', '/api/v7.1/privacy_zone/')).status).toBe(401);
		const path = `/api/v7.1/privacy_zone/${saved.json.id}/`;
		expect((await callApi(app, 'DELETE', path, { token: stranger.token })).status).toBe(404);
		expect((await callApi(app, 'DELETE', path, { token: owner.token })).status).toBe(204);
		expect((await callApi(app, 'DELETE', path, { token: owner.token })).status).toBe(404);
	});

	test('the settings operations are in the OpenAPI document, so the fuzz test calls them', async () => {
		const spec = (await callApi(app, 'GET', '/api/openapi.json')).json;
		const operations = Object.entries(spec.paths as Record<string, Record<string, unknown>>).flatMap(
			([path, methods]) => Object.keys(methods).map((method) => `${method} ${path}`),
		);
		for (const operation of [
			'get /api/v7.1/privacy_zone/',
			'post /api/v7.1/privacy_zone/',
			'delete /api/v7.1/privacy_zone/{id}/',
			'get /api/v7.1/location_privacy/',
			'put /api/v7.1/location_privacy/',
		])
			expect(operations).toContain(operation);
	});

	test('radius, name and hidden-ends values outside the rules get 400 naming the field', async () => {
		for (const body of [
			{ lat: HOME.lat, lng: HOME.lng, radius: 150 },
			{ lat: HOME.lat, lng: HOME.lng, radius: 1700 },
			{ lat: 91, lng: HOME.lng, radius: 400 },
			{ lat: HOME.lat, lng: HOME.lng, radius: 400, name: 'Ho\u0000me' },
		]) {
			const answer = await callApi(app, 'POST', '/api/v7.1/privacy_zone/', { token: owner.token, body });
			expect(answer.status).toBe(400);
		}
		for (const hide_ends of [100, 1200, 250.5]) {
			const answer = await callApi(app, 'PUT', '/api/v7.1/location_privacy/', {
				token: owner.token,
				body: { hide_ends },
			});
			expect(answer.status).toBe(400);
			expect(Object.keys(answer.json._diagnostics.validation_failures[0])).toEqual(['hide_ends']);
		}
	});

	test('hidden ends are on by default at 200 m, and a member may change or turn them off', async () => {
		const read = () => callApi(app, 'GET', '/api/v7.1/location_privacy/', { token: owner.token });
		expect((await read()).json).toEqual({ hide_ends: 200 });
		const put = (hide_ends: number) =>
			callApi(app, 'PUT', '/api/v7.1/location_privacy/', { token: owner.token, body: { hide_ends } });
		expect((await put(600)).status).toBe(200);
		expect((await read()).json).toEqual({ hide_ends: 600 });
		expect((await put(0)).json).toEqual({ hide_ends: 0 });
		expect((await read()).json).toEqual({ hide_ends: 0 });
		expect(
			(await callApi(app, 'GET', '/api/v7.1/location_privacy/', { token: stranger.token })).json,
		).toEqual({
			hide_ends: 200,
		});
	});
});

describe('what other people see of a workout from home', () => {
	test('a new member hides 200 m at each end; after turning it off the whole track shows', async () => {
		const id = await saveRun(owner, 0, 3, seeded(7));
		const full = (await seriesAs(id, owner.token)).json.time_series.position as Position[];
		const seen = (await seriesAs(id)).json.time_series.position as Position[];
		expect(seen.length).toBeLessThan(full.length);
		for (const [, point] of [seen[0], seen.at(-1) as Position]) {
			expect(haversineM(HOME.lat, HOME.lng, point.lat, point.lng)).toBeGreaterThan(150);
		}
		await callApi(app, 'PUT', '/api/v7.1/location_privacy/', { token: owner.token, body: { hide_ends: 0 } });
		expect((await seriesAs(id)).json.time_series.position).toEqual(full);
	});

	test('a friend and a visitor get the trimmed track, the owner the full one; time and heart rate stay', async () => {
		await callApi(app, 'POST', '/api/v7.1/privacy_zone/', {
			token: owner.token,
			body: { lat: HOME.lat, lng: HOME.lng, radius: 400 },
		});
		await callApi(app, 'PUT', '/api/v7.1/location_privacy/', {
			token: owner.token,
			body: { hide_ends: 300 },
		});
		const random = seeded(11);
		const friendsOnly = await saveRun(owner, 1, 1, random);
		const everyone = await saveRun(owner, 2, 3, random);

		const ownView = (await seriesAs(friendsOnly, owner.token)).json;
		const [, ownFirst] = ownView.time_series.position[0] as Position;
		expect(haversineM(HOME.lat, HOME.lng, ownFirst.lat, ownFirst.lng)).toBeLessThan(10);
		expect(ownView.time_series.distance[0][1]).toBe(0);

		expect((await seriesAs(friendsOnly, stranger.token)).status).toBe(404);
		for (const [id, token] of [
			[friendsOnly, friend.token],
			[everyone, undefined],
			[everyone, stranger.token],
		] as const) {
			const full = (await seriesAs(id, owner.token)).json.time_series;
			const seen = (await seriesAs(id, token)).json.time_series;
			const positions = seen.position as Position[];
			expect(positions.length).toBeGreaterThan(100);
			expect(positions.length).toBeLessThan(full.position.length);
			// Nothing within the chosen 400 m of home, in any visible sample.
			for (const [, point] of positions)
				expect(haversineM(HOME.lat, HOME.lng, point.lat, point.lng)).toBeGreaterThan(400);
			// Heart rate keeps every sample; distance and speed leave with the hidden positions and
			// count from the first visible sample, so they do not give the hidden length away.
			expect(seen.heartrate).toEqual(full.heartrate);
			expect(seen.distance[0]).toEqual([positions[0][0], 0]);
			expect(seen.distance).toHaveLength(positions.length);
		}
	});

	test('a download by anyone but the owner holds only the part of the track they may see', async () => {
		await callApi(app, 'POST', '/api/v7.1/privacy_zone/', {
			token: owner.token,
			body: { lat: HOME.lat, lng: HOME.lng, radius: 400 },
		});
		const run = await saveRun(owner, 1, 3, seeded(5));
		const pointsIn = async (token?: string) => {
			const response = await app.request(`/api/v7.1/workout/${run}/export/?format=gpx`, {
				headers: token ? { authorization: `Bearer ${token}` } : {},
			});
			expect(response.status).toBe(200);
			return [...(await response.text()).matchAll(/lat="([-\d.]+)" lon="([-\d.]+)"/g)].map((m) => ({
				lat: Number(m[1]),
				lng: Number(m[2]),
			}));
		};
		const own = await pointsIn(owner.token);
		expect(Math.min(...own.map((p) => haversineM(HOME.lat, HOME.lng, p.lat, p.lng)))).toBeLessThan(10);
		for (const token of [stranger.token, undefined]) {
			const seen = await pointsIn(token);
			expect(seen.length).toBeGreaterThan(100);
			expect(seen.length).toBeLessThan(own.length);
			for (const point of seen)
				expect(haversineM(HOME.lat, HOME.lng, point.lat, point.lng)).toBeGreaterThan(400);
		}
	});

	test('circle fitting on the visible ends of 50 runs from one home lands well away from the home', async () => {
		const zone = await callApi(app, 'POST', '/api/v7.1/privacy_zone/', {
			token: owner.token,
			body: { name: 'Home', lat: HOME.lat, lng: HOME.lng, radius: 400 },
		});
		expect(zone.status).toBe(201);
		await callApi(app, 'PUT', '/api/v7.1/location_privacy/', {
			token: owner.token,
			body: { hide_ends: 300 },
		});
		const random = seeded(2026);
		const ids: number[] = [];
		for (let i = 0; i < 50; i++) ids.push(await saveRun(owner, i, 3, random));

		// The attacker: a stranger reading every public run, keeping each one's visible ends.
		const ends: { x: number; y: number }[] = [];
		for (const id of ids) {
			const answer = await seriesAs(id, stranger.token);
			expect(answer.status).toBe(200);
			const positions = answer.json.time_series.position as Position[];
			expect(positions.length).toBeGreaterThan(0);
			ends.push(toXY(positions[0][1]), toXY((positions.at(-1) as Position)[1]));
		}
		const fitted = fitCircle(ends);
		const fittedOff = Math.hypot(fitted.centre.x, fitted.centre.y);
		const centroid = {
			x: ends.reduce((sum, p) => sum + p.x, 0) / ends.length,
			y: ends.reduce((sum, p) => sum + p.y, 0) / ends.length,
		};
		const centroidOff = Math.hypot(centroid.x, centroid.y);
		console.log(
			`circle fit ${fittedOff.toFixed(0)} m from home (radius ${fitted.radius.toFixed(0)} m), centroid ${centroidOff.toFixed(0)} m, ` +
				`2 × centroid − fit ${Math.hypot(2 * centroid.x - fitted.centre.x, 2 * centroid.y - fitted.centre.y).toFixed(0)} m`,
		);
		expect(fittedOff).toBeGreaterThan(150);
		// The centroid sits about halfway between home and the stored centre (at least 160 m here),
		// give or take the spread of 100 ends.
		expect(centroidOff).toBeGreaterThan(100);

		// The owner's own copies end at the door: the same centroid finds it, so the test can fail.
		const ownEnds = (
			await Promise.all(ids.map(async (id) => (await seriesAs(id, owner.token)).json.time_series.position))
		).flatMap((positions: Position[]) => [toXY(positions[0][1]), toXY((positions.at(-1) as Position)[1])]);
		const ownCentroid = {
			x: ownEnds.reduce((sum, p) => sum + p.x, 0) / ownEnds.length,
			y: ownEnds.reduce((sum, p) => sum + p.y, 0) / ownEnds.length,
		};
		expect(Math.hypot(ownCentroid.x, ownCentroid.y)).toBeLessThan(20);
		// Fifty uploads with tracks: a few seconds on a quiet machine, several times that on a busy one.
	}, 120_000);
});

describe('the workout page', () => {
	const viewerOf = (member: Member) => ({
		id: member.id,
		username: member.username,
		displayName: member.username,
		isPremium: false,
	});
	const nearestToHomeM = (path: [number, number][]) =>
		Math.min(...path.map(([lat, lng]) => haversineM(lat, lng, HOME.lat, HOME.lng)));

	test('draws the whole track for its owner, and for others follows the owner’s privacy as it changes', async () => {
		const id = await saveRun(owner, 0, 3, seeded(7));
		const pageFor = async (member: Member) => {
			const page = await loadWorkoutPageView(deps, viewerOf(member), id, 'km');
			if (!page) throw new Error('The workout page was not found');
			return page.view;
		};
		expect(nearestToHomeM((await pageFor(owner)).path)).toBeLessThan(30);
		// Default: 200 m hidden at each end.
		const before = await pageFor(stranger);
		expect(nearestToHomeM(before.path)).toBeGreaterThan(150);
		expect(await pageFor(stranger)).toBe(before);

		const put = await callApi(app, 'PUT', '/api/v7.1/location_privacy/', {
			token: owner.token,
			body: { hide_ends: 1000 },
		});
		expect(put.status).toBe(200);
		const after = await pageFor(stranger);
		expect(nearestToHomeM(after.path)).toBeGreaterThan(800);
		expect(after.path.length).toBeLessThan(before.path.length);
		expect(nearestToHomeM((await pageFor(owner)).path)).toBeLessThan(30);

		// Made private, it is nobody else's to see, however recently it was drawn for them.
		const hidden = await callApi(app, 'PUT', `/api/v7.1/workout/${id}/`, {
			token: owner.token,
			body: { privacy: 0 },
		});
		expect(hidden.status).toBe(200);
		expect(await loadWorkoutPageView(deps, viewerOf(stranger), id, 'km')).toBeNull();
	});
});
