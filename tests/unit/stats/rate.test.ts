import { describe, expect, it } from 'vitest';
import { formatRate } from '../../../src/lib/stats/format';
import { showsSpeed, showsSpeedFor } from '../../../src/lib/workouts/activity-groups';

describe('pace or speed, by activity group', () => {
	it('reads rides and winter sports by speed, everything on foot by pace', () => {
		expect(showsSpeed('ride')).toBe(true);
		expect(showsSpeed('winter_sport')).toBe(true);
		expect(showsSpeed('run')).toBe(false);
		expect(showsSpeed('walk')).toBe(false);
		expect(showsSpeed('hike')).toBe(false);
	});

	it('reads totals by speed only when every chosen group is ridden', () => {
		expect(showsSpeedFor(['ride'])).toBe(true);
		expect(showsSpeedFor(['ride', 'winter_sport'])).toBe(true);
		expect(showsSpeedFor(['ride', 'run'])).toBe(false);
		expect(showsSpeedFor('all')).toBe(false);
		expect(showsSpeedFor([])).toBe(false);
	});

	it('words a ride at 2:30 per km as 24.0 km/h, or 14.9 mph; a run as its pace', () => {
		expect(formatRate(150, 'km', true)).toBe('24.0 km/h');
		expect(formatRate(150, 'mi', true)).toBe('14.9 mph');
		expect(formatRate(330, 'km', false)).toBe('5:30 /km');
		expect(formatRate(null, 'km', true)).toBe('—');
	});
});
