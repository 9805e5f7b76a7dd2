import { describe, expect, test } from 'vitest';
import {
	activityLabel,
	decodePreviewLine,
	PREVIEW_LINE_PRECISION,
	ROUTE_SEARCH_ACTIVITIES,
} from '../../../src/lib/routes/contract';
import { simplifyLine } from '../../../src/lib/routes/geo';
import { thumbnailPoints } from '../../../src/lib/routes/render';
import { encodePolyline } from '../../../src/lib/routing/polyline';

/** A lap of a square 1 km a side, with many points on each straight side. */
function squareLap(pointsPerSide: number): [number, number][] {
	const side = 0.009;
	const corners: [number, number][] = [
		[40, -76],
		[40 + side, -76],
		[40 + side, -76 + side * 1.3],
		[40, -76 + side * 1.3],
		[40, -76],
	];
	const path: [number, number][] = [];
	for (let c = 0; c < 4; c++) {
		const [aLat, aLng] = corners[c];
		const [bLat, bLng] = corners[c + 1];
		for (let i = 0; i < pointsPerSide; i++) {
			const t = i / pointsPerSide;
			path.push([aLat + (bLat - aLat) * t, aLng + (bLng - aLng) * t]);
		}
	}
	path.push(corners[4]);
	return path;
}

describe('simplifyLine', () => {
	test('keeps the corners of a shape and drops the points along its straight sides', () => {
		const lap = squareLap(500);
		const simple = simplifyLine(lap, 40);
		expect(simple).toEqual([
			[40, -76],
			[40.009, -76],
			[40.009, -76 + 0.009 * 1.3],
			[40, -76 + 0.009 * 1.3],
			[40, -76],
		]);
	});

	test('never returns more than the points asked for, and always the start and finish', () => {
		// A zigzag has no straight stretch to drop: only a coarser tolerance gets it under the cap.
		const zigzag = Array.from({ length: 2001 }, (_, i): [number, number] => [
			40 + i * 0.0001,
			-76 + (i % 2) * 0.0003 * (1 + (i % 7)),
		]);
		const simple = simplifyLine(zigzag, 40);
		expect(simple.length).toBeLessThanOrEqual(40);
		expect(simple.length).toBeGreaterThanOrEqual(2);
		expect(simple[0]).toEqual(zigzag[0]);
		expect(simple.at(-1)).toEqual(zigzag.at(-1));
	});

	test('drops the points of a straight line between its ends however few there are', () => {
		expect(
			simplifyLine(
				[
					[1, 2],
					[2, 2],
					[3, 2],
				],
				40,
			),
		).toEqual([
			[1, 2],
			[3, 2],
		]);
		expect(simplifyLine([[1, 2]], 40)).toEqual([[1, 2]]);
	});
});

describe('thumbnailPoints', () => {
	test('fits the line into the box, north up, keeping its aspect', () => {
		const points = thumbnailPoints(
			[
				[40, -76],
				[40.01, -76],
				[40.01, -75.99],
			],
			72,
			56,
			4,
		);
		const pairs = (points as string).split(' ').map((pair) => pair.split(',').map(Number));
		expect(pairs).toHaveLength(3);
		for (const [x, y] of pairs) {
			expect(x).toBeGreaterThanOrEqual(4);
			expect(x).toBeLessThanOrEqual(68);
			expect(y).toBeGreaterThanOrEqual(4);
			expect(y).toBeLessThanOrEqual(52);
		}
		const [start, north, east] = pairs;
		// North is up (smaller y), east is right (larger x).
		expect(north[1]).toBeLessThan(start[1]);
		expect(north[0]).toBeCloseTo(start[0], 1);
		expect(east[0]).toBeGreaterThan(north[0]);
		expect(east[1]).toBeCloseTo(north[1], 1);
		// The taller-than-wide part fills the height: from the bottom padding to the top one.
		expect(start[1]).toBeCloseTo(52, 0);
		expect(north[1]).toBeCloseTo(4, 0);
	});

	test('draws nothing for a line of fewer than two points', () => {
		expect(thumbnailPoints([], 72, 56)).toBeNull();
		expect(thumbnailPoints([[40, -76]], 72, 56)).toBeNull();
	});
});

describe('decodePreviewLine', () => {
	test('reads a preview line back to within a metre', () => {
		const line: [number, number][] = [
			[40.27321, -76.88672],
			[40.28111, -76.8799],
		];
		expect(decodePreviewLine(encodePolyline(line, PREVIEW_LINE_PRECISION))).toEqual(line);
	});

	test('is empty for a missing or unreadable line instead of failing the whole list', () => {
		expect(decodePreviewLine('')).toEqual([]);
		expect(decodePreviewLine(undefined)).toEqual([]);
		expect(decodePreviewLine('~~~~~')).toEqual([]);
	});
});

describe('activityLabel', () => {
	test('names the activities the search offers and calls any other one "Other activity"', () => {
		for (const [id, label] of ROUTE_SEARCH_ACTIVITIES) expect(activityLabel(id)).toBe(label);
		expect(activityLabel(15)).toBe('Other activity');
	});
});
