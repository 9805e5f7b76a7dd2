/**
 * Many members at once: each member is a loop that asks for the next thing in the mix as soon as
 * the last answer is in (no pause, so this is the most the server can take, not a day's traffic),
 * starting at a different point in the mix so the kinds overlap. Meanwhile `/api/health` is asked
 * every 100 ms, as a load balancer would. Latency is to the whole answer, per kind.
 */
import { lonLatToTile } from '../../../src/lib/tiles/tile-math.ts';
import { loadAverage as load, percentile } from '../figures.ts';

export type Member = { token: string; cookie: string; userId: number; routeId: number };
export type KindFigures = { count: number; p50: number; p99: number; failed: number };
export type MixedFigures = {
	members: number;
	seconds: number;
	rps: number;
	failed: number;
	byKind: Map<string, KindFigures>;
	health: { p50: number; p95: number; count: number };
	loadBefore: string;
	loadAfter: string;
};

type Ask = { kind: string; path: string; init: (member: Member) => RequestInit };

const ANDORRA = { lat: 42.5063, lon: 1.5218 };
const TILE = lonLatToTile(ANDORRA.lon, ANDORRA.lat, 14);

/** The mix: the pages members live on, the APIs their apps call, map tiles and uploads. */
function mixFor(gpx: () => string): ((member: Member, step: number) => Ask)[] {
	const page = (kind: string, path: string) => () => ({
		kind,
		path,
		init: (member: Member) => ({ headers: { cookie: member.cookie } }),
	});
	const api = (kind: string, path: (member: Member) => string) => (member: Member) => ({
		kind,
		path: path(member),
		init: (m: Member) => ({ headers: { authorization: `Bearer ${m.token}` } }),
	});
	return [
		page('feed page', '/activity_feed/'),
		page('dashboard page', '/dashboard/'),
		page('stats page', '/workout/stats/'),
		api(
			'route search API',
			() => `/api/v7.1/route/?close_to_location=${ANDORRA.lat},${ANDORRA.lon}&search_radius=20000&limit=20`,
		),
		api('workout list API', (member) => `/api/v7.1/workout/?user=${member.userId}&limit=20`),
		(member) => ({
			kind: 'route page',
			path: `/routes/view/${member.routeId}/`,
			init: (m) => ({ headers: { cookie: m.cookie } }),
		}),
		(_member, step) => ({
			kind: 'map tile',
			path: `/tiles/14/${Math.floor(TILE.x) - 4 + (step % 8)}/${Math.floor(TILE.y) - 4 + (Math.floor(step / 8) % 8)}.png`,
			init: () => ({}),
		}),
		() => ({
			kind: 'GPX upload',
			path: '/api/v7.1/device/file_import/',
			init: (member) => ({
				method: 'POST',
				headers: { 'content-type': 'application/octet-stream', authorization: `Bearer ${member.token}` },
				body: gpx(),
			}),
		}),
	];
}

export async function runMixed(
	base: string,
	members: Member[],
	seconds: number,
	gpx: () => string,
): Promise<MixedFigures> {
	const mix = mixFor(gpx);
	const times = new Map<string, number[]>();
	const failures = new Map<string, number>();
	const loadBefore = load();
	const until = performance.now() + seconds * 1000;
	let step = 0;
	const memberLoop = async (member: Member, start: number) => {
		for (let turn = start; performance.now() < until; turn++) {
			const ask = mix[turn % mix.length](member, step++);
			const started = performance.now();
			let ok = false;
			try {
				const answer = await fetch(`${base}${ask.path}`, { ...ask.init(member), redirect: 'manual' });
				await answer.arrayBuffer();
				ok = answer.status >= 200 && answer.status < 300;
			} catch {
				ok = false;
			}
			const list = times.get(ask.kind) ?? [];
			list.push(performance.now() - started);
			times.set(ask.kind, list);
			if (!ok) failures.set(ask.kind, (failures.get(ask.kind) ?? 0) + 1);
		}
	};
	const health: number[] = [];
	const poll = (async () => {
		while (performance.now() < until) {
			const started = performance.now();
			try {
				await (await fetch(`${base}/api/health`)).arrayBuffer();
			} catch {
				// Counted by its time like any other.
			}
			health.push(performance.now() - started);
			await new Promise((resolve) => setTimeout(resolve, 100));
		}
	})();
	const began = performance.now();
	await Promise.all([...members.map((member, index) => memberLoop(member, index)), poll]);
	const elapsed = (performance.now() - began) / 1000;
	const byKind = new Map<string, KindFigures>();
	let total = 0;
	let failed = 0;
	for (const [kind, list] of times) {
		const kindFailed = failures.get(kind) ?? 0;
		byKind.set(kind, {
			count: list.length,
			p50: percentile(list, 0.5),
			p99: percentile(list, 0.99),
			failed: kindFailed,
		});
		total += list.length;
		failed += kindFailed;
	}
	return {
		members: members.length,
		seconds: elapsed,
		rps: total / elapsed,
		failed,
		byKind,
		health: { p50: percentile(health, 0.5), p95: percentile(health, 0.95), count: health.length },
		loadBefore,
		loadAfter: load(),
	};
}

export function describeMixed(label: string, figures: MixedFigures): string[] {
	const ms = (value: number) => value.toFixed(0).padStart(6);
	return [
		`${label}: ${figures.members} members for ${figures.seconds.toFixed(0)} s, ${figures.rps.toFixed(1)} req/s in all, ${figures.failed} failed; /api/health meanwhile p50 ${figures.health.p50.toFixed(1)} ms, p95 ${figures.health.p95.toFixed(1)} ms (n=${figures.health.count}); load average ${figures.loadBefore} before, ${figures.loadAfter} after`,
		`  ${'kind'.padEnd(18)} ${'req/s'.padStart(6)} ${'p50 ms'.padStart(6)} ${'p99 ms'.padStart(6)} failed`,
		...[...figures.byKind].map(
			([kind, f]) =>
				`  ${kind.padEnd(18)} ${(f.count / figures.seconds).toFixed(1).padStart(6)} ${ms(f.p50)} ${ms(f.p99)} ${f.failed}`,
		),
	];
}
