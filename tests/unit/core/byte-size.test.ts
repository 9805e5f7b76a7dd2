import { LRUCache } from 'lru-cache';
import { expect, test } from 'vitest';
import { approximateBytes } from '../../../src/lib/core/server/byte-size';

const recording = (points: number) =>
	Array.from({ length: points }, (_, i) => ({ t: i, lat: 46 + i / 1e5, lng: 14 + i / 1e5, hr: 140 }));

test('a value weighs what it holds: numbers, text, typed arrays and nesting all count', () => {
	expect(approximateBytes(new Float64Array(10_000))).toBeGreaterThanOrEqual(80_000);
	expect(approximateBytes(Array.from({ length: 10_000 }, (_, i) => i))).toBeGreaterThanOrEqual(80_000);
	expect(approximateBytes('x'.repeat(5_000))).toBeGreaterThanOrEqual(10_000);
	expect(approximateBytes({ days: [{ label: 'Mon', km: 5 }] })).toBeLessThan(400);
	// A 12-hour recording against a short run: a cache counting entries would take them as equals.
	const long = approximateBytes(recording(43_200));
	const short = approximateBytes(recording(300));
	expect(long).toBeGreaterThan(100 * short);
	expect(long).toBeGreaterThan(43_200 * 4 * 8);
});

test('a cache bounded this way keeps many small answers and few large ones', () => {
	const cache = new LRUCache<string, object>({
		maxSize: 4 * 1024 * 1024,
		sizeCalculation: (value) => approximateBytes(value),
	});
	for (let i = 0; i < 1_000; i++) cache.set(`week ${i}`, { km: i, runs: 3 });
	expect(cache.size).toBe(1_000);
	for (let i = 0; i < 50; i++) cache.set(`ride ${i}`, recording(20_000));
	expect(cache.calculatedSize).toBeLessThanOrEqual(4 * 1024 * 1024);
	expect(cache.size).toBeLessThan(1_000);
});
