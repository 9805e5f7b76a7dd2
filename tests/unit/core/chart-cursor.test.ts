import { describe, expect, it } from 'vitest';
import { keyedIndex, nearestIndex } from '../../../src/lib/core/chart-cursor';

describe('nearestIndex', () => {
	const lat = [42.5, 42.501, null, 42.503, 42.504];
	const lng = [1.5, 1.5, null, 1.5, 1.5];

	it('picks the sample nearest the point', () => {
		expect(nearestIndex(lat, lng, { lat: 42.5011, lng: 1.5001 })).toBe(1);
		expect(nearestIndex(lat, lng, { lat: 42.6, lng: 1.5 })).toBe(4);
	});

	it('never picks a sample without a position, as inside a privacy zone', () => {
		expect(nearestIndex(lat, lng, { lat: 42.502, lng: 1.5 })).not.toBe(2);
		expect(nearestIndex([null, null], [null, null], { lat: 42.5, lng: 1.5 })).toBeNull();
	});

	it('weighs longitude by the latitude, so east-west metres count as metres', () => {
		// At 60° a degree of longitude is half a degree of latitude: 0.0015° east is nearer than 0.001° north.
		const index = nearestIndex([60.001, 60], [10, 10.0015], { lat: 60, lng: 10 });
		expect(index).toBe(1);
	});
});

describe('keyedIndex', () => {
	it('moves by a hundredth with the arrows and a tenth with Page Up and Down, within the ends', () => {
		expect(keyedIndex('ArrowRight', 10, 1000)).toBe(20);
		expect(keyedIndex('ArrowLeft', 10, 1000)).toBe(0);
		expect(keyedIndex('PageUp', 10, 1000)).toBe(110);
		expect(keyedIndex('PageDown', 10, 1000)).toBe(0);
		expect(keyedIndex('ArrowRight', 995, 1000)).toBe(999);
		expect(keyedIndex('ArrowRight', 3, 20)).toBe(4);
	});

	it('goes to either end with Home and End, and starts at an end without a cursor', () => {
		expect(keyedIndex('Home', 500, 1000)).toBe(0);
		expect(keyedIndex('End', 5, 1000)).toBe(999);
		expect(keyedIndex('ArrowRight', null, 1000)).toBe(0);
		expect(keyedIndex('ArrowLeft', null, 1000)).toBe(999);
	});

	it('leaves other keys and empty charts alone', () => {
		expect(keyedIndex('Tab', 5, 1000)).toBeNull();
		expect(keyedIndex('ArrowRight', null, 0)).toBeNull();
	});
});
