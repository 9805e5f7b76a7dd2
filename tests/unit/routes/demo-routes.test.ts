import { describe, expect, it } from 'vitest';
import demoRoutes from '../../../src/lib/routes/server/demo/demo-routes.json' with { type: 'json' };

describe('the seeded demo routes', () => {
	it('have cue sheets that arrive only at the end of the route', () => {
		for (const route of demoRoutes) {
			const arrivals = route.cues.filter((cue) => cue.instructions.startsWith('You have arrived'));
			expect(
				arrivals.map((cue) => cue.instructions),
				route.name,
			).toEqual(['You have arrived at your destination.']);
			expect(route.cues.at(-1)?.instructions, route.name).toBe('You have arrived at your destination.');
		}
	});
});
