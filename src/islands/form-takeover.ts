import { type RefObject, useLayoutEffect, useState } from 'react';

/**
 * Takes a form over from its plain HTML: what a person typed, chose or ticked before the script
 * arrived is handed to each field's state on the first render (controlled fields would otherwise be
 * reset at the next render, losing the keys typed early and unticking a box the person ticked).
 * Fields are found by name or id, as the form's `elements` finds them. Answers whether the script is in charge: until it is, the submit button stays disabled, because
 * the browser would send the form itself as a GET, with the password in the address and the history.
 */
export function useFormTakeover(
	form: RefObject<HTMLFormElement | null>,
	fields: Record<string, (value: string) => void>,
	checkboxes: Record<string, (checked: boolean) => void> = {},
): boolean {
	const [awake, setAwake] = useState(false);
	// biome-ignore lint/correctness/useExhaustiveDependencies: once, on the first render only
	useLayoutEffect(() => {
		const element = form.current;
		if (element) {
			for (const [name, set] of Object.entries(fields)) {
				const field = element.elements.namedItem(name);
				if (
					(field instanceof HTMLInputElement ||
						field instanceof HTMLSelectElement ||
						field instanceof HTMLTextAreaElement) &&
					field.value !== ''
				)
					set(field.value);
			}
			for (const [name, set] of Object.entries(checkboxes)) {
				const box = element.elements.namedItem(name);
				if (box instanceof HTMLInputElement) set(box.checked);
			}
		}
		setAwake(true);
	}, []);
	return awake;
}
