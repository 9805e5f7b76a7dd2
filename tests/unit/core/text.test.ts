import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { cleanText, multiLineText, singleLineText, truncateText } from '../../../src/lib/core/text';

describe('the free-text schemas', () => {
	const name = singleLineText('Name', 10);
	const notes = multiLineText('Notes', 40);

	test('accept any well-formed text without control characters, emoji and other scripts included', () => {
		for (const text of ['', 'Hill', 'Ça va 🏃', 'ルート', 'a\u00a0b'])
			expect(v.safeParse(name, text).success, text).toBe(true);
	});

	test('refuse NUL, other C0 controls and lone surrogates with a message naming the field', () => {
		for (const text of ['a\u0000b', '\u0001', 'a\u001fb', '\ud800', 'x\udc00', '\ud83d']) {
			const result = v.safeParse(name, text);
			expect(result.success, JSON.stringify(text)).toBe(false);
			expect(result.issues?.[0].message).toMatch(/^Name /);
		}
	});

	test('allow tab and line breaks only in multi-line text', () => {
		for (const text of ['a\tb', 'a\nb', 'a\r\nb']) {
			expect(v.safeParse(notes, text).success).toBe(true);
			expect(v.safeParse(name, text).success).toBe(false);
		}
		expect(v.safeParse(notes, 'a\u0000\nb').success).toBe(false);
	});

	test('refuse text over the length and anything that is not text', () => {
		expect(v.safeParse(name, 'x'.repeat(11)).issues?.[0].message).toBe(
			'Name may have at most 10 characters.',
		);
		for (const value of [1, null, {}, []]) expect(v.safeParse(name, value).success).toBe(false);
	});
});

describe('text from files', () => {
	test('drops controls, mends lone surrogates and keeps line breaks only in multi-line text', () => {
		expect(cleanText('a\u0000b\u0007c\ud800', 'single-line')).toBe('abc\ufffd');
		expect(cleanText('one\ntwo\tthree', 'single-line')).toBe('one two three');
		expect(cleanText('one\ntwo\tthree', 'multi-line')).toBe('one\ntwo\tthree');
		expect(cleanText('🏃 run', 'single-line')).toBe('🏃 run');
	});

	test('are cut to length without leaving half a character', () => {
		expect(truncateText('abc', 5)).toBe('abc');
		expect(truncateText('ab🏃', 3)).toBe('ab');
		expect(truncateText('ab🏃', 4)).toBe('ab🏃');
		expect(truncateText('abcdef', 3)).toBe('abc');
	});
});
