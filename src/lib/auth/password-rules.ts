import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './contract';

/**
 * The password rules of signup, reset and change, in one place for the server that enforces them
 * and the forms that tick them off as the member types. The common-password dictionaries are
 * large, so browser code loads this module on demand.
 */

let zxcvbn: ZxcvbnFactory | undefined;

function checker(): ZxcvbnFactory {
	zxcvbn ??= new ZxcvbnFactory({
		dictionary: { ...common.dictionary },
		graphs: common.adjacencyGraphs,
	});
	return zxcvbn;
}

const WARNINGS: Record<string, string> = {
	topTen: 'This is one of the most used passwords.',
	topHundred: 'This is a very commonly used password.',
	common: 'This is a commonly used password.',
	similarToCommon: 'This is too similar to a commonly used password.',
	wordByItself: 'A single word is easy to guess.',
	namesByThemselves: 'A name on its own is easy to guess.',
	commonNames: 'Common names are easy to guess.',
	simpleRepeat: 'Repeated characters like "aaa" are easy to guess.',
	extendedRepeat: 'Repeated patterns like "abcabcabc" are easy to guess.',
	sequences: 'Sequences like "abc" or "6543" are easy to guess.',
	straightRow: 'Keys in a row on the keyboard are easy to guess.',
	keyPattern: 'Short keyboard patterns are easy to guess.',
	recentYears: 'Recent years are easy to guess.',
	dates: 'Dates are easy to guess.',
};

export type PasswordProblem = { code: 'blank' | 'too_short' | 'too_long' | 'common'; message: string };

/**
 * Length and guessability only — never composition rules (ASVS 6.2.5). A password is refused as
 * common when the common-password dictionaries make it guessable within about a million tries.
 */
export function checkPassword(password: string, related: string[] = []): PasswordProblem | null {
	if (password.length === 0) return { code: 'blank', message: 'Password is required.' };
	const length = [...password].length;
	if (length < PASSWORD_MIN_LENGTH)
		return { code: 'too_short', message: `Use at least ${PASSWORD_MIN_LENGTH} characters.` };
	if (length > PASSWORD_MAX_LENGTH)
		return { code: 'too_long', message: `Use at most ${PASSWORD_MAX_LENGTH} characters.` };
	const result = checker().check(
		password,
		related.filter((word) => word.length >= 3),
	);
	if (result.score < 2) {
		const warning = result.feedback.warning ? WARNINGS[result.feedback.warning] : undefined;
		return {
			code: 'common',
			message: `${warning ?? 'This password is too easy to guess.'} Choose a less common password.`,
		};
	}
	return null;
}
