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
