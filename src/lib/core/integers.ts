import * as v from 'valibot';

/** The largest value a PostgreSQL `integer` column holds: a larger number must fail validation (400), not the query (500). */
export const MAX_DB_INTEGER = 2_147_483_647;

/** A whole number that fits an `integer` column (a version, a row id), from `min` up. */
export const dbInteger = (name: string, min = 0) =>
	v.pipe(
		v.number(`${name} must be a number.`),
		v.integer(`${name} must be a whole number.`),
		v.minValue(min, `${name} must be at least ${min}.`),
		v.maxValue(MAX_DB_INTEGER, `${name} must be at most ${MAX_DB_INTEGER}.`),
	);

// Path and query parameters arrive as text; every domain reads them through these, so an id that
// no table could hold is refused here rather than overflowing in a query.
const DIGITS = /^\d{1,10}$/;

/** An id kept as text, refused with `message` unless an `integer` column could hold it. */
export const idText = (message: string) =>
	v.pipe(
		v.string(),
		// One check, so a bad id is one failure, not one for its digits and one for its size.
		v.check((text) => DIGITS.test(text) && Number(text) <= MAX_DB_INTEGER, message),
	);

/** An id read as a number, refused with `message` unless an `integer` column could hold it. */
export const idNumber = (message: string) => v.pipe(idText(message), v.transform(Number));

/** A whole number from `min` to `max` (at most MAX_DB_INTEGER) written as text: a limit, an offset, an id filter. */
export const wholeNumberText = (min: number, max: number, name: string) =>
	v.pipe(
		v.string(),
		v.regex(DIGITS, `${name} must be a whole number.`),
		v.transform(Number),
		v.minValue(min, `${name} must be at least ${min}.`),
		v.maxValue(Math.min(max, MAX_DB_INTEGER), `${name} must be at most ${Math.min(max, MAX_DB_INTEGER)}.`),
	);
