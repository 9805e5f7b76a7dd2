import { type ReactNode, useEffect, useId, useState } from 'react';
import { PASSWORD_MIN_LENGTH } from '../../lib/auth/contract';
import type { PasswordProblem } from '../../lib/auth/password-rules';

/** A labelled field whose error is tied to the input and announced. */
export function Field(props: {
	label: string;
	required?: boolean;
	error?: string;
	children: (ids: { id: string; describedBy?: string; invalid: boolean }) => ReactNode;
}) {
	const id = useId();
	const errorId = `${id}-error`;
	return (
		<div className="field">
			<label htmlFor={id}>
				{props.label}
				{props.required && (
					<span className="required" aria-hidden="true">
						*
					</span>
				)}
			</label>
			{props.children({ id, describedBy: props.error ? errorId : undefined, invalid: Boolean(props.error) })}
			{props.error && (
				<p className="field__error" id={errorId} role="alert">
					{props.error}
				</p>
			)}
		</div>
	);
}

/** Password input with a show/hide toggle; paste and password managers work as usual. */
export function PasswordInput(props: {
	id: string;
	value: string;
	onChange: (value: string) => void;
	autoComplete: 'current-password' | 'new-password';
	describedBy?: string;
	invalid?: boolean;
	name?: string;
}) {
	const [shown, setShown] = useState(false);
	return (
		<div className="password">
			<input
				id={props.id}
				name={props.name ?? 'password'}
				type={shown ? 'text' : 'password'}
				value={props.value}
				onChange={(event) => props.onChange(event.target.value)}
				autoComplete={props.autoComplete}
				aria-describedby={props.describedBy}
				aria-invalid={props.invalid || undefined}
				required
				maxLength={256}
			/>
			<button type="button" aria-pressed={shown} onClick={() => setShown(!shown)}>
				{shown ? 'Hide' : 'Show'}
				<span className="visually-hidden"> password</span>
			</button>
		</div>
	);
}

/** The email field every auth form starts with. */
export function EmailField(props: { value: string; onChange: (value: string) => void; error?: string }) {
	return (
		<Field label="Email" required error={props.error}>
			{({ id, describedBy, invalid }) => (
				<input
					id={id}
					name="email"
					type="email"
					autoComplete="email"
					value={props.value}
					onChange={(event) => props.onChange(event.target.value)}
					aria-describedby={describedBy}
					aria-invalid={invalid || undefined}
					required
				/>
			)}
		</Field>
	);
}

type CheckPassword = (password: string, related?: string[]) => PasswordProblem | null;

/**
 * The rules a new password must meet, shown before the member types and ticked as each is met.
 * They are the server's own rules: the guessability check loads with its dictionaries on demand.
 */
export function PasswordRules(props: { id: string; password: string; related?: string[] }) {
	const [check, setCheck] = useState<CheckPassword | null>(null);
	useEffect(() => {
		let live = true;
		import('../../lib/auth/password-rules').then((rules) => {
			if (live) setCheck(() => rules.checkPassword);
		});
		return () => {
			live = false;
		};
	}, []);
	const long = [...props.password].length >= PASSWORD_MIN_LENGTH;
	const problem = check && long ? check(props.password, props.related) : null;
	const hard = check !== null && long && problem === null;
	const rules = [
		{
			key: 'length',
			met: long,
			text: `At least ${PASSWORD_MIN_LENGTH} characters (long passphrases are welcome)`,
		},
		{ key: 'guess', met: hard, text: 'Not a common password, name or easy pattern' },
	];
	return (
		<div id={props.id}>
			<ul className="password-rules">
				{rules.map((rule) => (
					<li key={rule.key} className={rule.met ? 'password-rules__met' : undefined}>
						{rule.text}
						<span className="visually-hidden">{rule.met ? ' (met)' : ' (not met yet)'}</span>
					</li>
				))}
			</ul>
			{problem?.code === 'common' && <p className="password-rules__hint">{problem.message}</p>}
		</div>
	);
}

/**
 * A labelled password field with its show/hide toggle. With `rules`, a new password's rules sit
 * under it and describe it.
 */
export function PasswordField(props: {
	label: string;
	value: string;
	onChange: (value: string) => void;
	autoComplete: 'current-password' | 'new-password';
	error?: string;
	name?: string;
	rules?: { related: string[] };
}) {
	return (
		<Field label={props.label} required error={props.error}>
			{({ id, describedBy, invalid }) => (
				<>
					<PasswordInput
						id={id}
						name={props.name}
						value={props.value}
						onChange={props.onChange}
						autoComplete={props.autoComplete}
						describedBy={
							[props.rules ? `${id}-rules` : undefined, describedBy].filter(Boolean).join(' ') || undefined
						}
						invalid={invalid}
					/>
					{props.rules && (
						<PasswordRules id={`${id}-rules`} password={props.value} related={props.rules.related} />
					)}
				</>
			)}
		</Field>
	);
}

export type Choice = { value: string; label: string };

export const GENDER_CHOICES: readonly Choice[] = [
	{ value: '', label: '' },
	{ value: 'F', label: 'Female' },
	{ value: 'M', label: 'Male' },
];

/** Country choices with a leading blank, from the `{ code, name }` list pages pass to islands. */
export function countryChoices(countries: readonly { code: string; name: string }[]): Choice[] {
	return [
		{ value: '', label: '' },
		...countries.map((country) => ({ value: country.code, label: country.name })),
	];
}

/** A labelled select whose error is tied to it, like `Field`'s inputs. */
export function SelectField(props: {
	label: string;
	name: string;
	value: string;
	onChange: (event: { target: { value: string } }) => void;
	choices: readonly Choice[];
	required?: boolean;
	error?: string;
	autoComplete?: string;
}) {
	return (
		<Field label={props.label} required={props.required} error={props.error}>
			{({ id, describedBy, invalid }) => (
				<select
					id={id}
					name={props.name}
					autoComplete={props.autoComplete}
					value={props.value}
					onChange={props.onChange}
					aria-describedby={describedBy}
					aria-invalid={invalid || undefined}
					required={props.required}
				>
					{props.choices.map((choice) => (
						<option key={choice.value} value={choice.value}>
							{choice.label}
						</option>
					))}
				</select>
			)}
		</Field>
	);
}

/** A form-level message (an answer that belongs to no single field), announced when it appears. */
export function FormAlert({ children }: { children: ReactNode }) {
	if (!children) return null;
	return (
		<p className="form-alert" role="alert">
			{children}
		</p>
	);
}

/** Field errors from an auth API answer (`fields`), keyed by field name. */
export function fieldErrors(data: { fields?: { field: string; message: string }[] }): Record<string, string> {
	const errors: Record<string, string> = {};
	for (const failure of data.fields ?? []) {
		const key = failure.field.split('.').pop() ?? failure.field;
		errors[key] ??= failure.message;
	}
	return errors;
}

/** The code from an authenticator app (or a recovery code): one-time-code autofill, digits keypad first. */
export function SecondFactorCodeField(props: {
	value: string;
	onChange: (value: string) => void;
	error?: string;
	hint?: string;
}) {
	return (
		<Field label="Code from your authenticator app" required error={props.error}>
			{({ id, describedBy, invalid }) => (
				<>
					<input
						id={id}
						name="code"
						value={props.value}
						onChange={(event) => props.onChange(event.target.value)}
						autoComplete="one-time-code"
						inputMode="text"
						maxLength={11}
						spellCheck={false}
						aria-describedby={[`${id}-hint`, describedBy].filter(Boolean).join(' ')}
						aria-invalid={invalid || undefined}
						required
					/>
					<p className="field__hint" id={`${id}-hint`}>
						{props.hint ?? 'Six digits from your app. Lost your phone? Enter one of your recovery codes.'}
					</p>
				</>
			)}
		</Field>
	);
}
