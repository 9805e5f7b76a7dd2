import { describe, expect, test } from 'vitest';
import { resolveSearchPlace } from '../../../src/lib/routes/server/place';

describe('resolveSearchPlace (the search form without script)', () => {
	test('a typed name is the best offline match', () => {
		expect(resolveSearchPlace('Andorra la Vella')).toEqual({
			label: 'Andorra la Vella',
			near: '42.50779,1.52109',
		});
	});

	test("a suggestion's label finds the place it names, state included", () => {
		expect(resolveSearchPlace('Harrisburg, PA, US')?.near).toBe('40.2737,-76.88442');
		expect(resolveSearchPlace('Harrisburg, IL, US')?.near).toBe('37.73838,-88.54061');
		expect(resolveSearchPlace('Harrisburg, IL, US')?.label).toBe('Harrisburg, IL, US');
	});

	test('too short or unknown names find nothing', () => {
		expect(resolveSearchPlace('Ha')).toBeNull();
		expect(resolveSearchPlace('zzqqxx')).toBeNull();
		expect(resolveSearchPlace('zzqqxx, PA')).toBeNull();
	});
});
