import * as v from 'valibot';

/** Who is making a request, as pages and endpoints see them. */
export const ViewerSchema = v.object({
	id: v.number(),
	username: v.string(),
	displayName: v.string(),
	/** MVP (premium) members see no promo banner. */
	isPremium: v.boolean(),
});
export type Viewer = v.InferOutput<typeof ViewerSchema>;

/** The sign-up and login messages, shared by the forms and the API so both say the same thing. */
export const FIELD_LABELS = {
	email: 'Email',
	password: 'Password',
	first_name: 'First name',
	last_name: 'Last name',
	birthdate: 'Birthdate',
	gender: 'Gender',
	country: 'Country',
} as const;
export type AuthField = keyof typeof FIELD_LABELS;

export const MESSAGES = {
	invalidEmail: 'Invalid email format',
	birthdateRequired: 'Birthdate is required.',
	invalidDate: 'Invalid date.',
	genderRequired: 'Gender is required.',
	accessDenied: 'Incorrect email or password.',
	emailUsed: 'An account with this email already exists.',
} as const;

export function requiredMessage(field: AuthField): string {
	if (field === 'birthdate') return MESSAGES.birthdateRequired;
	if (field === 'gender') return MESSAGES.genderRequired;
	return `${FIELD_LABELS[field]} is required.`;
}

export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
export const EMAIL_MAX_LENGTH = 254;

/** Members are between 11 and 120 years old at signup; the form offers these years. */
export const MIN_AGE_YEARS = 11;
export const MAX_AGE_YEARS = 120;

export function birthYears(today: Date): number[] {
	const current = today.getUTCFullYear();
	const years: number[] = [];
	for (let year = current - MIN_AGE_YEARS; year >= current - MAX_AGE_YEARS; year--) years.push(year);
	return years;
}

/** A real calendar date in the allowed years, as YYYY-MM-DD; null otherwise. */
export function checkBirthdate(value: string, today: Date): 'ok' | 'invalid' | 'out_of_range' {
	const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
	if (!match) return 'invalid';
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	if (date.getUTCFullYear() !== year || date.getUTCMonth() !== month - 1 || date.getUTCDate() !== day)
		return 'invalid';
	const current = today.getUTCFullYear();
	if (year > current - MIN_AGE_YEARS || year < current - MAX_AGE_YEARS) return 'out_of_range';
	return 'ok';
}

const loose = v.optional(v.unknown());

/**
 * Request bodies are accepted loosely and checked field by field in the service, because each
 * field answers with its own code (blank_email, email_invalid_format, …).
 */
export const LoginBodySchema = v.object({
	email: v.optional(v.string()),
	username: v.optional(v.string()),
	password: v.optional(v.string()),
});
export type LoginBody = v.InferOutput<typeof LoginBodySchema>;

export const SignupBodySchema = v.object({
	first_name: v.optional(v.string()),
	last_name: v.optional(v.string()),
	email: v.optional(v.string()),
	password: v.optional(v.string()),
	birthdate: v.optional(v.string()),
	gender: v.optional(v.string()),
	location: v.optional(
		v.object({
			country: v.optional(v.string()),
			region: v.optional(v.string()),
			locality: v.optional(v.string()),
		}),
	),
	consent_matrix_version: v.optional(v.string()),
	consents: loose,
	gdpr_iso_code: v.optional(v.string()),
	appName: v.optional(v.string()),
	uacf_id: v.optional(v.string()),
	promotionalPreference: v.optional(v.boolean()),
	/** Whether to log in at once with the new account (sign-up may log the member in at once). */
	login: v.optional(v.boolean()),
});
export type SignupBody = v.InferOutput<typeof SignupBodySchema>;

export const PasswordResetRequestSchema = v.object({
	email: v.optional(v.string()),
	redirect_uri: v.optional(v.string()),
});

export const PasswordResetSchema = v.object({
	password: v.optional(v.string()),
	recaptchaToken: v.optional(v.string()),
});

export const DeletionRequestSchema = v.object({ password: v.optional(v.string()) });

/** Only same-origin relative paths may be followed after login: never `//evil` or `https://…`. */
export function safeNextPath(next: string | null | undefined, fallback = '/dashboard'): string {
	if (!next) return fallback;
	if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
	if (hasControlCharacter(next) || next.includes('\\')) return fallback;
	return next;
}

/** True when the text holds a C0 control character (tab, newline, NUL, …). */
export function hasControlCharacter(text: string): boolean {
	for (const char of text) if ((char.codePointAt(0) ?? 0) < 0x20) return true;
	return false;
}
