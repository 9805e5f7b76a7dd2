import {
	AGE_GRADE_DISTANCES_KM,
	type AgeGradeTable,
	FEMALE_TABLE,
	FIRST_AGE,
	LAST_AGE,
	MALE_TABLE,
} from './age-grade-tables';

/** The sexes the published tables grade; other profiles stay ungraded. */
export type GradedSex = 'F' | 'M';

/** Runs shorter than the 1500 m track standard are not graded: too short to be a distance effort. */
export const AGE_GRADE_MIN_METRES = 1500;

export type AgeGrade = {
	/** Performance as a fraction of the age standard: 0.713 reads 71.3 %. */
	grade: number;
	/** The time scaled to an open-class athlete: time × age factor. */
	gradedSeconds: number;
	factor: number;
	openSeconds: number;
};

function tableFor(sex: GradedSex): AgeGradeTable {
	return sex === 'M' ? MALE_TABLE : FEMALE_TABLE;
}

/**
 * Where a distance falls between the tabulated ones: the index of the next one up and how far
 * towards it (1 means exactly on it). Outside the range it sticks to the nearest end.
 */
function bracket(km: number): { upper: number; weight: number } {
	const distances = AGE_GRADE_DISTANCES_KM;
	if (km <= distances[0]) return { upper: 0, weight: 1 };
	const last = distances.length - 1;
	if (km >= distances[last]) return { upper: last, weight: 1 };
	let upper = 1;
	while (distances[upper] < km) upper += 1;
	const lower = distances[upper - 1];
	return { upper, weight: (km - lower) / (distances[upper] - lower) };
}

function between(values: readonly number[], upper: number, weight: number): number {
	if (weight === 1 || upper === 0) return values[upper];
	return values[upper - 1] * (1 - weight) + values[upper] * weight;
}

/** The age factor for a sex, age (clamped to the tables' 5–100) and distance, linear between listed distances. */
export function ageFactor(sex: GradedSex, age: number, metres: number): number {
	const row = Math.min(LAST_AGE, Math.max(FIRST_AGE, Math.floor(age))) - FIRST_AGE;
	const { upper, weight } = bracket(metres / 1000);
	return between(tableFor(sex).factors[row], upper, weight);
}

/** The open standard (seconds) at a distance, linear between listed distances. */
export function openStandard(sex: GradedSex, metres: number): number {
	const { upper, weight } = bracket(metres / 1000);
	return between(tableFor(sex).openSeconds, upper, weight);
}

/**
 * Grades a run: the age-graded time is the time × the age factor, and the grade is the open
 * standard ÷ the age-graded time.
 */
export function ageGrade(sex: GradedSex, age: number, metres: number, seconds: number): AgeGrade {
	const factor = ageFactor(sex, age, metres);
	const openSeconds = openStandard(sex, metres);
	const gradedSeconds = seconds * factor;
	return { grade: openSeconds / gradedSeconds, gradedSeconds, factor, openSeconds };
}

/** "71.3 %". */
export function formatGrade(grade: number): string {
	return `${(grade * 100).toFixed(1)} %`;
}
