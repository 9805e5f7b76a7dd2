import * as v from 'valibot';

/**
 * Free text people type. PostgreSQL refuses NUL in text and lone surrogates in any encoding, so
 * text holding them would fail deep inside a write; other C0 control characters never come from a
 * keyboard and only hide things in what is shown. Tab and line breaks belong to multi-line text.
 */
export type TextKind = 'single-line' | 'multi-line';

const LINE_BREAKS_AND_TABS = new Set([0x09, 0x0a, 0x0d]);

/** True when the text is well-formed UTF-16 and holds no control character its kind forbids. */
export function isAcceptableText(text: string, kind: TextKind): boolean {
	if (!text.isWellFormed()) return false;
	for (let index = 0; index < text.length; index++) {
		const code = text.charCodeAt(index);
		if (code < 0x20 && !(kind === 'multi-line' && LINE_BREAKS_AND_TABS.has(code))) return false;
	}
	return true;
}

function textSchema(kind: TextKind, label: string, maxLength: number) {
	return v.pipe(
		v.string(`${label} must be text.`),
		v.check(
			(text) => isAcceptableText(text, kind),
			`${label} holds a character that is not allowed (a control character or a broken one).`,
		),
		v.maxLength(maxLength, `${label} may have at most ${maxLength} characters.`),
	);
}

/** One line of text (a name, a search term, a code) of at most `maxLength` UTF-16 units. */
export function singleLineText(label: string, maxLength: number) {
	return textSchema('single-line', label, maxLength);
}

/** Text that may span lines (a description, an introduction) of at most `maxLength` UTF-16 units. */
export function multiLineText(label: string, maxLength: number) {
	return textSchema('multi-line', label, maxLength);
}

/**
 * Makes text read from a file safe to keep: lone surrogates become U+FFFD, control characters are
 * dropped, and in single-line text line breaks and tabs become spaces. A file is not a form, so
 * its text is cleaned rather than refused.
 */
export function cleanText(text: string, kind: TextKind): string {
	let cleaned = '';
	for (const char of text.toWellFormed()) {
		const code = char.charCodeAt(0);
		if (code >= 0x20) cleaned += char;
		else if (LINE_BREAKS_AND_TABS.has(code)) cleaned += kind === 'multi-line' ? char : ' ';
	}
	return cleaned;
}

/** The first `maxLength` UTF-16 units, never cutting a surrogate pair in half. */
export function truncateText(text: string, maxLength: number): string {
	if (text.length <= maxLength) return text;
	const cut = text.slice(0, maxLength);
	const last = cut.charCodeAt(cut.length - 1);
	return last >= 0xd800 && last <= 0xdbff ? cut.slice(0, -1) : cut;
}
