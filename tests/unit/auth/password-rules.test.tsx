// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, test } from 'vitest';
import { PasswordField } from '../../../src/islands/auth/ui';

function NewPassword() {
	const [value, setValue] = useState('');
	return (
		<PasswordField
			label="New password"
			value={value}
			onChange={setValue}
			autoComplete="new-password"
			rules={{ related: ['ada@example.test', 'Ada', 'Lovelace'] }}
		/>
	);
}

afterEach(cleanup);

const rule = (text: RegExp) => screen.getByText(text).closest('li') as HTMLElement;

describe('new-password rules', () => {
	test('are shown under the field before typing and describe it', () => {
		render(<NewPassword />);
		const input = screen.getByLabelText(/^New password/);
		const describedBy = input.getAttribute('aria-describedby') ?? '';
		const rules = document.getElementById(describedBy.split(' ')[0] as string);
		expect(rules?.textContent).toMatch(/At least 8 characters/);
		expect(rules?.textContent).toMatch(/Not a common password/);
		expect(rule(/At least 8 characters/).textContent).toMatch(/not met yet/);
	});

	test('tick as each is met while the member types', async () => {
		render(<NewPassword />);
		const input = screen.getByLabelText(/^New password/);
		fireEvent.change(input, { target: { value: 'short' } });
		expect(rule(/At least 8 characters/).className).not.toMatch(/met/);
		fireEvent.change(input, { target: { value: 'password123' } });
		expect(rule(/At least 8 characters/).className).toMatch(/password-rules__met/);
		expect(rule(/Not a common password/).className).not.toMatch(/met/);
		expect(await screen.findByText(/Choose a less common password/)).toBeTruthy();
		fireEvent.change(input, { target: { value: 'Copper-Meadow-Lantern-58' } });
		await expect
			.poll(() => rule(/Not a common password/).className, { timeout: 10_000 })
			.toMatch(/password-rules__met/);
		expect(rule(/Not a common password/).textContent).toMatch(/\(met\)/);
	});
});
