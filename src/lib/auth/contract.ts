import * as v from 'valibot';
import { isAcceptableText, singleLineText } from '../core/text';

/** Who is making a request, as pages and endpoints see them. */
export { type Viewer, ViewerSchema } from './viewer';

/** Emailed one-time links (email verification, password reset) carry 32 random bytes in base64url. */
export const LinkTokenSchema = v.pipe(v.string(), v.regex(/^[\w-]{43}$/));

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
	ineligible: 'You are ineligible to participate based on your birthdate.',
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

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only bounds hashing work. argon2 never truncates. */
export const PASSWORD_MAX_LENGTH = 256;

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

/** Text fields of the auth forms: lengths as stored; wrong characters answer `{field}_invalid_format`. */
const AUTH_TEXT_MAX = 200;
const authText = (label: string, maxLength = AUTH_TEXT_MAX) => v.optional(singleLineText(label, maxLength));

/** What the member agreed to at signup: up to 50 consent names, each with yes or no. */
const ConsentsSchema = v.pipe(
	v.record(v.string(), v.boolean('A consent is true or false.')),
	v.check((consents) => {
		const names = Object.keys(consents);
		return (
			names.length <= 50 && names.every((name) => name.length <= 64 && isAcceptableText(name, 'single-line'))
		);
	}, 'Consents are at most 50 names of up to 64 plain characters.'),
);

/**
 * Request bodies are accepted loosely and checked field by field in the service, because each
 * field answers with its own code (blank_email, email_invalid_format, …). Text is refused
 * here only when it holds characters no form can type. Passwords are only ever hashed, so any
 * character is theirs to choose.
 */
export const LoginBodySchema = v.object({
	email: authText('Email', EMAIL_MAX_LENGTH),
	username: authText('Username'),
	password: v.optional(v.string()),
});
export type LoginBody = v.InferOutput<typeof LoginBodySchema>;

export const SignupBodySchema = v.object({
	first_name: authText('First name'),
	last_name: authText('Last name'),
	email: authText('Email', EMAIL_MAX_LENGTH),
	password: v.optional(v.string()),
	birthdate: authText('Birthdate'),
	gender: authText('Gender'),
	location: v.optional(
		v.object({
			country: authText('Country'),
			region: authText('Region', 80),
			locality: authText('Locality', 80),
		}),
	),
	consent_matrix_version: authText('Consent matrix version', 40),
	consents: v.optional(ConsentsSchema),
	gdpr_iso_code: authText('GDPR country code', 8),
	appName: authText('App name', 40),
	uacf_id: authText('uacf_id'),
	promotionalPreference: v.optional(v.boolean()),
	/** Whether to log in at once with the new account (sign-up may log the member in at once). */
	login: v.optional(v.boolean()),
});
export type SignupBody = v.InferOutput<typeof SignupBodySchema>;

export const PasswordResetRequestSchema = v.object({
	email: authText('Email', EMAIL_MAX_LENGTH),
	redirect_uri: authText('redirect_uri', 2000),
});

/** A new email-confirmation link, asked for by address from a link that no longer works. */
export const VerificationRequestSchema = v.object({
	email: authText('Email', EMAIL_MAX_LENGTH),
});

export const PasswordResetSchema = v.object({
	password: v.optional(v.string()),
	recaptchaToken: authText('recaptchaToken', 4000),
});

/** Changing the password while signed in; the form's confirmation field stays in the browser. */
export const ChangePasswordSchema = v.object({
	current_password: v.optional(v.pipe(v.string(), v.maxLength(1024))),
	new_password: v.optional(v.pipe(v.string(), v.maxLength(1024))),
});
export type ChangePasswordBody = v.InferOutput<typeof ChangePasswordSchema>;

export const DeletionRequestSchema = v.object({ password: v.optional(v.string()) });

/** A six-digit code from the authenticator app, or a recovery code (ten letters, dash optional). */
const SecondFactorCode = v.pipe(
	v.string('Enter the code from your authenticator app.'),
	v.trim(),
	v.regex(
		/^(\d{6}|[A-Za-z0-9]{5}[- ]?[A-Za-z0-9]{5})$/,
		'Enter the six digits from your app, or a recovery code.',
	),
);

/** The code step of a sign-in: the challenge the password step answered, and the code. */
export const SecondFactorSignInSchema = v.object({
	challenge: v.pipe(v.string(), v.maxLength(200)),
	code: SecondFactorCode,
	remember_device: v.optional(v.boolean(), false),
});

export const TwoFactorSetupSchema = v.object({ password: v.optional(v.pipe(v.string(), v.maxLength(1024))) });
export const TwoFactorConfirmSchema = v.object({ code: SecondFactorCode });
export const TwoFactorDisableSchema = v.object({
	password: v.optional(v.pipe(v.string(), v.maxLength(1024))),
	code: SecondFactorCode,
});

/** Only same-origin relative paths may be followed after login: never `//evil` or `https://…`. */
export function safeNextPath(next: string | null | undefined, fallback = '/dashboard'): string {
	if (!next) return fallback;
	if (!next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\')) return fallback;
	if (!isAcceptableText(next, 'single-line') || next.includes('\\')) return fallback;
	return next;
}
