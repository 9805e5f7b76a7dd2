import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mileMarkerSpacing, offroadTolerance, simplifyOffroadSegment } from '~/lib/workout-files/index';
import { simplifyDouglasPeucker } from '~/lib/workout-files/route-tools';

type P = { lat: number; lng: number };

function distanceToSegment(p: P, a: P, b: P): number {
	const dx = b.lng - a.lng;
	const dy = b.lat - a.lat;
	const len2 = dx * dx + dy * dy;
	let t = len2 === 0 ? 0 : ((p.lng - a.lng) * dx + (p.lat - a.lat) * dy) / len2;
	t = Math.max(0, Math.min(1, t));
	return Math.hypot(p.lng - a.lng - t * dx, p.lat - a.lat - t * dy);
}

describe('off-road simplification', () => {
	it('picks the tolerance by point count', () => {
		expect(offroadTolerance(200)).toBeNull();
		expect(offroadTolerance(201)).toBe(5e-5);
		expect(offroadTolerance(999)).toBe(5e-5);
		expect(offroadTolerance(1000)).toBe(1e-4);
		expect(offroadTolerance(3999)).toBe(1e-4);
		expect(offroadTolerance(4000)).toBe(1.5e-4);
	});

	it('leaves 200 points alone and thins a straight line to its ends', () => {
		const line = (n: number) => Array.from({ length: n }, (_, i) => ({ lat: i * 1e-5, lng: i * 2e-5 }));
		expect(simplifyOffroadSegment(line(200))).toHaveLength(200);
		const thin = simplifyOffroadSegment(line(201));
		expect(thin).toEqual([line(201)[0], line(201)[200]]);
	});

	it('keeps a corner bigger than the tolerance and drops a wiggle smaller than it', () => {
		const pts: P[] = [];
		for (let i = 0; i < 300; i++) pts.push({ lat: 0, lng: i * 1e-5 });
		pts[150] = { lat: 6e-5, lng: 150e-5 }; // above 5e-5: kept
		pts[75] = { lat: 4e-5, lng: 75e-5 }; // below: dropped
		const out = simplifyOffroadSegment(pts);
		expect(out).toContain(pts[150]);
		expect(out).not.toContain(pts[75]);
		expect(out[0]).toBe(pts[0]);
		expect(out.at(-1)).toBe(pts[299]);
	});

	it('never strays further than the tolerance from any dropped point (property)', () => {
		fc.assert(
			fc.property(
				fc.array(
					fc.record({
						lat: fc.double({ min: -0.01, max: 0.01, noNaN: true }),
						lng: fc.double({ min: -0.01, max: 0.01, noNaN: true }),
					}),
					{
						minLength: 3,
						maxLength: 400,
					},
				),
				fc.constantFrom(5e-5, 1e-4, 1.5e-4, 1e-3),
				(pts, tol) => {
					const out = simplifyDouglasPeucker(pts, tol);
					expect(out[0]).toBe(pts[0]);
					expect(out.at(-1)).toBe(pts.at(-1));
					let k = 0;
					for (let i = 0; i < pts.length; i++) {
						if (out[k] === pts[i]) {
							if (k < out.length - 1) k++;
							continue;
						}
						expect(distanceToSegment(pts[i], out[k - 1], out[k])).toBeLessThanOrEqual(tol * (1 + 1e-9));
					}
				},
			),
			{ numRuns: 200, seed: 42 },
		);
	});

	it('simplifies a 400,000-point wandering track without recursion', () => {
		// A seeded random walk with slowly turning heading, like a long GPS track. (Douglas–Peucker is
		// quadratic in the worst case — a perfectly periodic zigzag splits one peak at a time — and
		// near n log n on real tracks.)
		let seed = 7;
		const random = () => {
			seed = (seed * 1103515245 + 12345) % 2147483648;
			return seed / 2147483648;
		};
		let heading = 0;
		let lat = 0;
		let lng = 0;
		const pts = Array.from({ length: 400_000 }, () => {
			heading += (random() - 0.5) * 0.3;
			lat += Math.sin(heading) * 3e-5;
			lng += Math.cos(heading) * 3e-5;
			return { lat, lng };
		});
		const started = performance.now();
		const out = simplifyOffroadSegment(pts);
		expect(performance.now() - started).toBeLessThan(60_000);
		expect(out.length).toBeGreaterThan(100);
		expect(out.length).toBeLessThan(pts.length / 10);
	});
});

describe('mile-marker spacing', () => {
	const mi = 1609.344;
	it.each([
		[1 * mi, 1],
		[13 * mi, 1],
		[13.01 * mi, 2],
		[19.99 * mi, 2],
		[20 * mi, 5],
		[99.9 * mi, 5],
		[100 * mi, 10],
		[199 * mi, 10],
		[200 * mi, 25],
	])('%f m in miles → every %i mi', (metres, spacing) => {
		expect(mileMarkerSpacing(metres, 'mi')).toBe(spacing);
	});

	it('works in km too', () => {
		expect(mileMarkerSpacing(13_000, 'km')).toBe(1);
		expect(mileMarkerSpacing(13_500, 'km')).toBe(2);
		expect(mileMarkerSpacing(200_000, 'km')).toBe(25);
	});
});
