import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
	encodeSessionHint,
	isViewer,
	readSessionHint,
	SESSION_HINT_COOKIE,
} from '../../../src/lib/auth/hint';
import { ViewerSchema } from '../../../src/lib/auth/viewer';

describe('the session hint', () => {
	it('accepts exactly what the viewer schema accepts', () => {
		const field = fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.constant(null), fc.double());
		fc.assert(
			fc.property(
				fc.record(
					{ id: field, username: field, displayName: field, isPremium: field, extra: field },
					{ requiredKeys: [] },
				),
				(value) => {
					expect(isViewer(value)).toBe(v.safeParse(ViewerSchema, value).success);
				},
			),
			{ seed: 42, numRuns: 2000 },
		);
	});

	it('reads back what the server wrote, keeping only the viewer fields', () => {
		const viewer = { id: 7, username: 'dana', displayName: 'Dana Demo', isPremium: false };
		const cookie = `a=1; ${SESSION_HINT_COOKIE}=${encodeSessionHint({ ...viewer, secret: 'x' } as never)}`;
		expect(readSessionHint(cookie)).toEqual(viewer);
		expect(readSessionHint(`${SESSION_HINT_COOKIE}=not-base64-json`)).toBeNull();
		expect(readSessionHint(undefined)).toBeNull();
	});
});
