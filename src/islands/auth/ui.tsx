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

/** Field errors from an auth API answer (`fields`), keyed by field name. */
export function fieldErrors(data: { fields?: { field: string; message: string }[] }): Record<string, string> {
	const errors: Record<string, string> = {};
	for (const failure of data.fields ?? []) {
		const key = failure.field.split('.').pop() ?? failure.field;
		errors[key] ??= failure.message;
	}
	return errors;
}
