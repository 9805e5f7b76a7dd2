// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test } from 'vitest';
import ZoneWeeksTable from '../../../src/islands/stats/ZoneWeeksTable';
import type { ZoneWeeks } from '../../../src/lib/stats/contract';

afterEach(cleanup);

const zones = [
	{ name: 'zone1', start: 0, end: 108 },
	{ name: 'zone2', start: 109, end: 126 },
	{ name: 'zone3', start: 127, end: 144 },
	{ name: 'zone4', start: 145, end: 162 },
	{ name: 'zone5', start: 163, end: 180 },
];
const weeks = (seconds: number[][]): ZoneWeeks => ({
	zones,
	weeks: seconds.map((values, i) => ({
		first: `2026-11-${String(9 + 7 * i).padStart(2, '0')}`,
		last: `2026-11-${String(15 + 7 * i).padStart(2, '0')}`,
		seconds: values,
		workouts: values.some((value) => value > 0) ? 1 : 0,
	})),
});

describe('time in heart-rate zones per week', () => {
	test('a week per row with each zone’s time, and a sentence naming the chosen activities and the top zone', () => {
		render(
			<ZoneWeeksTable
				data={weeks([
					[0, 0, 0, 0, 0],
					[1200, 0, 0, 2400, 0],
				])}
				locked={false}
				error={null}
				groupsLabel="Run"
			/>,
		);
		expect(screen.getByTestId('zone-weeks-summary').textContent).toBe(
			'Run from Nov 09, 2026 to Nov 22, 2026: 1 h 00 min with heart rate, most in Zone 4 (67 %).',
		);
		const rows = screen.getByTestId('zone-weeks').querySelectorAll('tbody tr');
		expect([...rows].map((row) => row.getAttribute('data-week'))).toEqual(['2026-11-09', '2026-11-16']);
		expect([...rows[1].querySelectorAll('td')].map((cell) => cell.textContent)).toEqual([
			'20 min',
			'—',
			'—',
			'40 min',
			'—',
			'1 h 00 min',
		]);
		expect(screen.getByRole('columnheader', { name: 'Zone 4 145–162 bpm' })).toBeTruthy();
	});

	test('without MVP, the offer and a link to it, never figures', () => {
		render(<ZoneWeeksTable data={null} locked error={null} groupsLabel="All activities" />);
		expect(screen.getByTestId('zone-weeks-locked').textContent).toContain(
			'Heart-rate zone analysis is part of MVP.',
		);
		expect(screen.getByRole('link', { name: 'Get MVP' }).getAttribute('href')).toBe('/premium/checkout');
		expect(screen.queryByRole('table')).toBeNull();
	});

	test('says when the chosen activities have no heart rate, and when the zones could not be loaded', () => {
		const { rerender } = render(
			<ZoneWeeksTable data={weeks([[0, 0, 0, 0, 0]])} locked={false} error={null} groupsLabel="Ride, Swim" />,
		);
		expect(screen.getByTestId('zone-weeks-empty').textContent).toContain(
			'No heart rate recorded in ride, swim from Nov 09, 2026 to Nov 15, 2026.',
		);
		rerender(
			<ZoneWeeksTable
				data={weeks([[60, 0, 0, 0, 0]])}
				locked={false}
				error="The heart-rate zones for these filters could not be loaded. Try again."
				groupsLabel="Run"
			/>,
		);
		expect(screen.getByRole('alert').textContent).toContain('could not be loaded');
		expect(screen.queryByRole('table')).toBeNull();
	});
});
