import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';

/**
 * Astro (since 7) and JSX drop a line break between text and an element, so copy written as
 * "on their⏎<a>connected apps</a>" renders "ontheir" + "connected apps" joined. Every template in
 * src is read here for text that meets an inline link, code or emphasis across a line break without
 * an explicit {' '}; tests/e2e/inline-spacing.spec.ts reads the rendered pages for the same fault.
 */
const SRC = path.resolve(import.meta.dirname, '../../../src');
const INLINE = 'a|code|strong|em|b|i|kbd|abbr';
// Text (ending in a word or punctuation), a line break, then an inline element.
const BEFORE = new RegExp(`[\\p{L}\\p{N},.;:!?)][ \\t]*\\n[ \\t]*<(?:${INLINE})[\\s>]`, 'gu');
// An inline element's end, a line break, then text.
const AFTER = new RegExp(`</(?:${INLINE})>[ \\t]*\\n[ \\t]*[\\p{L}\\p{N}(“‘]`, 'gu');

function templates(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return templates(full);
		return /\.(astro|tsx)$/.test(entry.name) ? [full] : [];
	});
}

/** The markup of a template: an .astro file's frontmatter, and scripts and styles, are blanked line for line. */
function markupOf(file: string, text: string): string {
	const blank = (part: string) => part.replace(/[^\n]/g, ' ');
	const withoutCode = file.endsWith('.astro') ? text.replace(/^---\n[\s\S]*?\n---\n/, blank) : text;
	return withoutCode.replace(/<(script|style)\b[^>]*>[\s\S]*?<\/\1>/g, blank);
}

/** Each place where text and an inline element are joined across a line break, as "file:line". */
function joinedAcrossLines(file: string, text: string): string[] {
	const markup = markupOf(file, text);
	return [...markup.matchAll(BEFORE), ...markup.matchAll(AFTER)]
		.map((match) => markup.slice(0, match.index).split('\n').length)
		.sort((a, b) => a - b)
		.map((line) => `${path.relative(SRC, file)}:${line}`);
}

describe('copy keeps its spaces around inline links and code', () => {
	test('the check finds a joined link and code, and passes an explicit space', () => {
		const joined =
			'<p>\n\tsyncs to on their\n\t<a href="/x">connected apps</a>\n\tpage, and\n\t<code>Auth</code>\n</p>';
		expect(joinedAcrossLines(`${SRC}/x.astro`, joined)).toEqual(['x.astro:2', 'x.astro:3', 'x.astro:4']);
		const spaced = "<p>\n\tsyncs to on their{' '}\n\t<a href=\"/x\">connected apps</a>{' '}\n\tpage\n</p>";
		expect(joinedAcrossLines(`${SRC}/x.astro`, spaced)).toEqual([]);
		// A frontmatter's code is not copy.
		expect(joinedAcrossLines(`${SRC}/x.astro`, '---\nconst a = b;\n<a>\n---\n<p>x</p>')).toEqual([]);
	});

	test('no template in src joins text and an inline element across a line break', () => {
		const found = templates(SRC).flatMap((file) => joinedAcrossLines(file, readFileSync(file, 'utf8')));
		expect(found).toEqual([]);
	});
});
