import { type ReactNode, useId, useState } from 'react';

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

/** A labelled password field with its show/hide toggle. */
export function PasswordField(props: {
	label: string;
	value: string;
	onChange: (value: string) => void;
	autoComplete: 'current-password' | 'new-password';
	error?: string;
}) {
	return (
		<Field label={props.label} required error={props.error}>
			{({ id, describedBy, invalid }) => (
				<PasswordInput
					id={id}
					value={props.value}
					onChange={props.onChange}
					autoComplete={props.autoComplete}
					describedBy={describedBy}
					invalid={invalid}
				/>
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
