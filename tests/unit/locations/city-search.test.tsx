// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import CitySearch from '../../../src/islands/locations/CitySearch';
import type { LocationSuggestion } from '../../../src/lib/locations/contract';

const place = (label: string): LocationSuggestion => ({
	value: label,
	label,
	locality: label.split(',')[0],
	isCity: true,
	isCountry: false,
	isRegion: false,
	isState: false,
});

/** A place search whose answers arrive only when the test says so, as on a slow connection. */
function slowSearch() {
	const pending: { term: string; answer: (items: LocationSuggestion[]) => void }[] = [];
	const search = vi.fn(
		(term: string) => new Promise<LocationSuggestion[]>((answer) => pending.push({ term, answer })),
	);
	return { search, pending };
}

afterEach(cleanup);

describe('Enter in the city search', () => {
	test('pressed while the newest search is still under way, it takes that search’s best match when it answers', async () => {
		const { search, pending } = slowSearch();
		const onChoose = vi.fn();
		render(<CitySearch id="near" label="Near (city)" onChoose={onChoose} search={search} />);
		const input = screen.getByRole('combobox', { name: 'Near (city)' });

		fireEvent.change(input, { target: { value: 'Harris' } });
		await vi.waitFor(() => expect(pending.map((call) => call.term)).toEqual(['Harris']));
		await act(async () => pending[0].answer([place('Harrison, NJ, US'), place('Harrisburg, PA, US')]));
		expect(screen.getByRole('option', { name: 'Harrison, NJ, US' })).toBeTruthy();

		// The member types on and presses Enter before the answer for what they typed has come.
		fireEvent.change(input, { target: { value: 'Harrisburg' } });
		fireEvent.keyDown(input, { key: 'Enter' });
		expect(onChoose).not.toHaveBeenCalled();
		await vi.waitFor(() => expect(pending.map((call) => call.term)).toEqual(['Harris', 'Harrisburg']));
		await act(async () => pending[1].answer([place('Harrisburg, PA, US'), place('Harrisburg, IL, US')]));

		expect(onChoose).toHaveBeenCalledTimes(1);
		expect(onChoose).toHaveBeenCalledWith(place('Harrisburg, PA, US'));
		expect((input as HTMLInputElement).value).toBe('Harrisburg, PA, US');
	});

	test('Escape after that Enter takes it back: the answer only fills the list', async () => {
		const { search, pending } = slowSearch();
		const onChoose = vi.fn();
		render(<CitySearch id="near" label="Near (city)" onChoose={onChoose} search={search} />);
		const input = screen.getByRole('combobox', { name: 'Near (city)' });

		fireEvent.change(input, { target: { value: 'Harris' } });
		await vi.waitFor(() => expect(pending).toHaveLength(1));
		await act(async () => pending[0].answer([place('Harrison, NJ, US')]));
		fireEvent.change(input, { target: { value: 'Harrisburg' } });
		fireEvent.keyDown(input, { key: 'Enter' });
		fireEvent.keyDown(input, { key: 'Escape' });
		await vi.waitFor(() => expect(pending).toHaveLength(2));
		await act(async () => pending[1].answer([place('Harrisburg, PA, US')]));

		expect(onChoose).not.toHaveBeenCalled();
		expect((input as HTMLInputElement).value).toBe('Harrisburg');
		expect(screen.getByRole('option', { name: 'Harrisburg, PA, US', hidden: true })).toBeTruthy();
	});
});
