import type { StandardSchemaV1 } from '@standard-schema/spec';
import type { ValidationTargets } from 'hono';
import { validator } from 'hono-openapi';
import { AppError, type ValidationFailure } from '../core/errors';

/**
 * Turns schema issues into `{ field, message, code }`; the field is the dotted path or `__all__`.
 * A value of the right type that breaks a rule (a pattern, a length, a character not allowed) is
 * `invalid_format`; a missing or wrong-typed value is `invalid_type`. Valibot says which in `kind`.
 */
export function toValidationFailures(issues: readonly StandardSchemaV1.Issue[]): ValidationFailure[] {
	return issues.map((issue) => ({
		field:
			issue.path
				?.map((segment) => (typeof segment === 'object' ? String(segment.key) : String(segment)))
				.join('.') || '__all__',
		message: issue.message,
		code: (issue as { kind?: string }).kind === 'validation' ? 'invalid_format' : 'invalid_type',
	}));
}

/**
 * Validates one part of the request with a valibot schema (the same schema feeds
 * /api/openapi.json). Invalid input becomes an AppError, so the error mapper shapes the body.
 */
export function validate<Schema extends StandardSchemaV1, Target extends keyof ValidationTargets>(
	target: Target,
	schema: Schema,
	toError: (failures: ValidationFailure[]) => AppError = (failures) =>
		new AppError('validation_failed', 'The request is not valid', { failures }),
) {
	return validator(target, schema, (result) => {
		if (!result.success) throw toError(toValidationFailures(result.error));
	});
}
