import { addDays, dateKey, type LocalDate, parseDateKey, type WeekDay, weekDayOf } from './calendar';

export type HeatDay = { day: string; count: number; distance_m: number; duration_s: number };
export type HeatCell = { day: string; level: 0 | 1 | 2 | 3 | 4; entry: HeatDay | null; inYear: boolean };

/**
 * A year as columns of weeks (the member's week start day at the top, Monday unless they chose
 * another), each day shaded by how long the member moved: level 0 for none, then quartiles of the
 * year's active days, so a light year still shows shape.
 */
export function heatmapColumns(
	year: number,
	days: readonly HeatDay[],
	weekStartDay: WeekDay = 1,
): HeatCell[][] {
	const byDay = new Map(days.map((entry) => [entry.day, entry]));
	const active = days.map((entry) => entry.duration_s || entry.count).sort((a, b) => a - b);
	const quartile = (q: number) => active[Math.floor((active.length - 1) * q)] ?? 0;
	const limits = [quartile(0.25), quartile(0.5), quartile(0.75)];
	const levelOf = (entry: HeatDay | undefined): HeatCell['level'] => {
		if (!entry) return 0;
		const value = entry.duration_s || entry.count;
		if (value <= limits[0]) return 1;
		if (value <= limits[1]) return 2;
		if (value <= limits[2]) return 3;
		return 4;
	};
	const first: LocalDate = { year, month: 1, day: 1 };
	let cursor = addDays(first, -((weekDayOf(first) - weekStartDay + 7) % 7));
	const columns: HeatCell[][] = [];
	while (cursor.year < year || (cursor.year === year && dateKey(cursor) <= `${year}-12-31`)) {
		const column: HeatCell[] = [];
		for (let i = 0; i < 7; i++) {
			const key = dateKey(cursor);
			const entry = byDay.get(key);
			column.push({ day: key, level: levelOf(entry), entry: entry ?? null, inYear: cursor.year === year });
			cursor = addDays(cursor, 1);
		}
		columns.push(column);
	}
	return columns;
}

/** The month a column starts in, for the labels above the heatmap; null when it does not start one. */
export function monthStartingIn(column: HeatCell[]): number | null {
	for (const cell of column) {
		const day = parseDateKey(cell.day);
		if (day && cell.inYear && day.day === 1) return day.month;
	}
	return null;
}
