import * as v from 'valibot';

/**
 * The Idempotency-Key header of writes a client may retry (payments, workout saves and uploads):
 * the same key with the same request answers with what the first one made instead of making it again.
 */
export const IdempotencyHeaderSchema = v.object({
	'idempotency-key': v.optional(
		v.pipe(
			v.string(),
			v.regex(/^[A-Za-z0-9_-]{8,100}$/, 'Idempotency-Key is 8 to 100 letters, digits, - or _.'),
		),
	),
});
