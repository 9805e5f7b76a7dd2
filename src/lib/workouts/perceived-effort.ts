/**
 * How hard a workout felt to its member, 1 to 10: the words for each step, for the forms, the
 * workout page and the training load drawn from it. No schema here, so islands stay light.
 */
export const MIN_PERCEIVED_EFFORT = 1;
export const MAX_PERCEIVED_EFFORT = 10;

/** The efforts a member may give, easiest first. */
export const PERCEIVED_EFFORTS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] as const;

/** The words each perceived effort goes by, after Borg's category-ratio scale. */
export const PERCEIVED_EFFORT_LABELS: Record<number, string> = {
	1: 'Very easy',
	2: 'Easy',
	3: 'Moderate',
	4: 'Somewhat hard',
	5: 'Hard',
	6: 'Harder',
	7: 'Very hard',
	8: 'Very, very hard',
	9: 'Nearly all out',
	10: 'All out',
};
