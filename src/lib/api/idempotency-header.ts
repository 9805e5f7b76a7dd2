import * as v from 'valibot';
import { AppError, type ValidationFailure } from '../core/errors';

/**
 * The Idempotency-Key header of writes a client may retry (payments, workout saves and uploads):
 * the same key with the same request answers with what the first one made instead of making it again.
 */
const IdempotencyKeySchema = v.pipe(
	v.string(),
	v.regex(/^[A-Za-z0-9_-]{8,100}$/, 'Idempotency-Key is 8 to 100 letters, digits, - or _.'),
);

export const IdempotencyHeaderSchema = v.object({ 'idempotency-key': v.optional(IdempotencyKeySchema) });

/** Writes that charge money need the key: without one, a retried request would be a second charge. */
export const RequiredIdempotencyHeaderSchema = v.object({ 'idempotency-key': IdempotencyKeySchema });

/** A 400 that says what is wrong with the key, in the words clients show the member. */
export function idempotencyKeyRefusal(failures: ValidationFailure[]): AppError {
	const malformed = failures[0]?.code === 'invalid_format';
	return new AppError(
		'bad_request',
		malformed
			? (failures[0]?.message as string)
			: 'Send an Idempotency-Key header (8 to 100 letters, digits, - or _) with every payment, so a retry is never a second charge.',
		{ detail: malformed ? 'idempotency_key_invalid' : 'idempotency_key_required', failures },
	);
}
