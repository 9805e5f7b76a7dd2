import { beforeAll, describe, expect, it } from 'vitest';
import {
	DEFLATE_MAX_RATIO,
	gunzipCapped,
	INFLATE_STEP_BYTES,
	unzipFirstCapped,
} from '../../../src/lib/workout-files/containers';
import { WorkoutFileError } from '../../../src/lib/workout-files/errors';
import { makeBombs } from '../../helpers/bombs';

const CAP = 16 * 1024 * 1024;
/** The most one inflate step can add past the cap before the count stops the read. */
const ONE_STEP = INFLATE_STEP_BYTES * DEFLATE_MAX_RATIO;

let bombs: ReturnType<typeof makeBombs>;
beforeAll(() => {
	bombs = makeBombs(200 * 1024 * 1024);
}, 60_000);

function refusal(read: () => unknown): WorkoutFileError {
	try {
		read();
	} catch (error) {
		if (error instanceof WorkoutFileError) return error;
		throw error;
	}
	throw new Error('the bomb was read');
}

describe('capped inflaters stop at the cap as they stream', () => {
	it('stops a 200 MB gzip bomb within one step of the cap, naming the limit', () => {
		expect(bombs.gzip.length).toBeLessThan(250_000);
		const error = refusal(() => gunzipCapped(bombs.gzip, { maxDecompressedBytes: CAP }));
		expect(error.code).toBe('too_large');
		expect(error.status).toBe(413);
		expect(error.message).toBe('This file unpacks to more than 16 MB, more than we accept.');
		const inflated = error.details.inflatedBytes as number;
		expect(inflated).toBeGreaterThan(CAP);
		expect(inflated).toBeLessThanOrEqual(CAP + ONE_STEP);
	});

	it('refuses a zip whose header declares more than the cap before inflating anything', () => {
		const error = refusal(() => unzipFirstCapped(bombs.zip, { maxDecompressedBytes: CAP }));
		expect(error.code).toBe('too_large');
		expect(error.details.inflatedBytes).toBe(0);
	});

	it('stops a zip that claims 100 bytes within one step of the cap', () => {
		const error = refusal(() => unzipFirstCapped(bombs.lyingZip, { maxDecompressedBytes: CAP }));
		expect(error.code).toBe('too_large');
		const inflated = error.details.inflatedBytes as number;
		expect(inflated).toBeGreaterThan(CAP);
		expect(inflated).toBeLessThanOrEqual(CAP + ONE_STEP);
	});

	it('still reads a file that fits under the cap', () => {
		const small = makeBombs(CAP - 1024);
		expect(gunzipCapped(small.gzip, { maxDecompressedBytes: CAP })).toHaveLength(CAP - 1024);
		expect(unzipFirstCapped(small.zip, { maxDecompressedBytes: CAP })).toHaveLength(CAP - 1024);
	});
});
