import { WorkoutFileError } from './errors';

/**
 * Receives the events of `scanXml`. Names are local names (prefix dropped); attributes and text come
 * as index ranges into the document so a handler only copies what it keeps.
 */
export interface XmlHandler {
	open(name: string, doc: string, attrStart: number, attrEnd: number): void;
	close(name: string): void;
	text(doc: string, start: number, end: number): void;
}

/** The same events with the local name as a range too, so a hot reader compares names without copying them. */
export interface XmlRangeHandler {
	open(doc: string, nameStart: number, nameEnd: number, attrStart: number, attrEnd: number): void;
	close(doc: string, nameStart: number, nameEnd: number): void;
	text(doc: string, start: number, end: number): void;
}

/** True when doc[start, end) is exactly `name`. */
export function nameIs(doc: string, start: number, end: number, name: string): boolean {
	return end - start === name.length && doc.startsWith(name, start);
}

export function scanXml(doc: string, handler: XmlHandler): void {
	scanXmlRanges(doc, {
		open: (d, s, e, a0, a1) => handler.open(d.slice(s, e), d, a0, a1),
		close: (d, s, e) => handler.close(d.slice(s, e)),
		text: (d, s, e) => handler.text(d, s, e),
	});
}

function refuseDoctype(): never {
	throw new WorkoutFileError(
		'doctype_not_allowed',
		'This file contains a DOCTYPE or entity declaration, which we do not accept. Export it again from your device or app.',
	);
}

function failMalformed(at: number, why: string): never {
	throw new WorkoutFileError('malformed_xml', `This file is not valid XML (${why}).`, { at });
}

function failTruncated(): never {
	throw new WorkoutFileError('truncated', 'This file is incomplete: it ends in the middle. Upload it again.');
}

function isNameEnd(c: number): boolean {
	return c === 32 || c === 9 || c === 10 || c === 13 || c === 47 || c === 62;
}

function isBlank(doc: string, start: number, end: number): boolean {
	for (let i = start; i < end; i++) {
		const c = doc.charCodeAt(i);
		if (c !== 32 && c !== 9 && c !== 10 && c !== 13) return false;
	}
	return true;
}

function isSpace(c: number): boolean {
	return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * A small non-validating XML scanner for workout files. It refuses any DOCTYPE (so no entity can be
 * declared, expanded or fetched), checks that tags nest and close, and reports a document that stops
 * early as truncated. It is a scanner rather than a tree builder because a 12-hour file has ~500,000
 * elements and we keep a handful of values from each point. Open element names live on the stack as
 * positions in the document, so closing tags are checked without copying strings.
 */
export function scanXmlRanges(doc: string, handler: XmlRangeHandler): void {
	const n = doc.length;
	const nameStarts: number[] = [];
	const nameLengths: number[] = [];
	const localStarts: number[] = [];
	let depth = 0;
	let i = 0;
	let sawRoot = false;
	// Every entity reference in text is checked, kept or not: an undeclared one makes the file malformed.
	// One forward-moving search keeps this linear.
	let nextAmp = doc.indexOf('&');
	const references = { count: 0 };
	while (i < n) {
		const lt = doc.indexOf('<', i);
		const textEnd = lt < 0 ? n : lt;
		if (textEnd > i) {
			if (nextAmp >= 0 && nextAmp < i) nextAmp = doc.indexOf('&', i);
			if (nextAmp >= 0 && nextAmp < textEnd) nextAmp = checkEntities(doc, nextAmp, textEnd, references);
			if (depth > 0) handler.text(doc, i, textEnd);
			else if (!isBlank(doc, i, textEnd)) {
				if (lt < 0 && sawRoot) failMalformed(i, 'text after the end');
				failMalformed(i, 'text outside the root element');
			}
		}
		if (lt < 0) break;
		const c = doc.charCodeAt(lt + 1);
		if (c === 47) {
			// end tag: must repeat the open element's name exactly
			if (depth === 0) failMalformed(lt, 'a closing tag without an opening one');
			const start = nameStarts[depth - 1];
			const len = nameLengths[depth - 1];
			let j = lt + 2 + len;
			if (j > n) failTruncated();
			let same = true;
			for (let k = 0; k < len; k++) {
				if (doc.charCodeAt(lt + 2 + k) !== doc.charCodeAt(start + k)) {
					same = false;
					break;
				}
			}
			while (j < n && isSpace(doc.charCodeAt(j))) j++;
			if (j >= n) failTruncated();
			if (!same || doc.charCodeAt(j) !== 62) {
				const gt = doc.indexOf('>', lt);
				if (gt < 0) failTruncated();
				failMalformed(
					lt,
					`<${doc.slice(start, start + len)}> closed by ${doc.slice(lt, gt + 1).slice(0, 60)}`,
				);
			}
			depth--;
			handler.close(doc, localStarts[depth], start + len);
			i = j + 1;
		} else if (c === 63) {
			// processing instruction or XML declaration
			const end = doc.indexOf('?>', lt + 2);
			if (end < 0) failTruncated();
			i = end + 2;
		} else if (c === 33) {
			if (doc.startsWith('<!--', lt)) {
				const end = doc.indexOf('-->', lt + 4);
				if (end < 0) failTruncated();
				i = end + 3;
			} else if (doc.startsWith('<![CDATA[', lt)) {
				const end = doc.indexOf(']]>', lt + 9);
				if (end < 0) failTruncated();
				if (depth === 0) failMalformed(lt, 'CDATA outside the root element');
				handler.text(doc, lt + 9, end);
				i = end + 3;
			} else {
				const word = doc.slice(lt + 2, lt + 9).toUpperCase();
				if (word.startsWith('DOCTYPE') || word.startsWith('ENTITY') || word.startsWith('ELEMENT')) {
					refuseDoctype();
				}
				if (lt + 9 > n) failTruncated();
				failMalformed(lt, 'unknown <! declaration');
			}
		} else {
			// start tag: scan the name, then the attributes honouring quotes (a value may hold '>')
			let j = lt + 1;
			let colon = -1;
			while (j < n) {
				const d = doc.charCodeAt(j);
				if (d === 58) colon = j;
				else if (isNameEnd(d)) break;
				j++;
			}
			if (j >= n) failTruncated();
			if (j === lt + 1) failMalformed(lt, 'a tag without a name');
			const nameEnd = j;
			const attrStart = j;
			if (doc.charCodeAt(j) !== 62) {
				let quote = 0;
				while (j < n) {
					const d = doc.charCodeAt(j);
					if (quote !== 0) {
						if (d === quote) quote = 0;
						else if (d === 60) failMalformed(j, "'<' inside an attribute");
					} else if (d === 34 || d === 39) quote = d;
					else if (d === 62) break;
					else if (d === 60) failMalformed(j, 'a tag that does not close');
					j++;
				}
				if (j >= n) failTruncated();
			}
			const selfClosing = doc.charCodeAt(j - 1) === 47;
			const attrEnd = selfClosing ? j - 1 : j;
			if (depth === 0) {
				if (sawRoot) failMalformed(lt, 'a second root element');
				sawRoot = true;
			}
			const localStart = colon < 0 ? lt + 1 : colon + 1;
			handler.open(doc, localStart, nameEnd, attrStart, attrEnd);
			if (selfClosing) handler.close(doc, localStart, nameEnd);
			else {
				nameStarts[depth] = lt + 1;
				nameLengths[depth] = nameEnd - lt - 1;
				localStarts[depth] = localStart;
				depth++;
			}
			i = j + 1;
		}
	}
	if (depth > 0) failTruncated();
	if (!sawRoot) failMalformed(0, 'no root element');
}

/** Where an attribute's value sits; reused so finding one allocates nothing. */
export interface Range {
	start: number;
	end: number;
}

/** Finds an attribute (by qualified or local name) and puts its raw value's range in `out`. */
export function findAttribute(doc: string, start: number, end: number, name: string, out: Range): boolean {
	let i = start;
	while (i < end) {
		if (isSpace(doc.charCodeAt(i))) {
			i++;
			continue;
		}
		const eq = doc.indexOf('=', i);
		if (eq < 0 || eq >= end) return false;
		let nameEnd = eq;
		while (nameEnd > i && isSpace(doc.charCodeAt(nameEnd - 1))) nameEnd--;
		let q = eq + 1;
		while (q < end && doc.charCodeAt(q) !== 34 && doc.charCodeAt(q) !== 39) q++;
		if (q >= end) return false;
		const close = doc.indexOf(doc[q], q + 1);
		if (close < 0 || close >= end) return false;
		const len = name.length;
		if (
			(nameEnd - i === len && doc.startsWith(name, i)) ||
			(nameEnd - i > len && doc.charCodeAt(nameEnd - len - 1) === 58 && doc.startsWith(name, nameEnd - len))
		) {
			out.start = q + 1;
			out.end = close;
			return true;
		}
		i = close + 1;
	}
	return false;
}

const scratchRange: Range = { start: 0, end: 0 };

/** Finds an attribute's value by qualified or local name inside a start tag's attribute range. */
export function readAttribute(doc: string, start: number, end: number, name: string): string | undefined {
	if (!findAttribute(doc, start, end, name, scratchRange)) return undefined;
	return decodeEntities(doc.slice(scratchRange.start, scratchRange.end));
}

/**
 * Escaped characters a file may hold: names and notes in any script take a few thousand at most,
 * while a million (an attack on the decoder's time and memory) is refused before any is decoded.
 */
const MAX_REFERENCES = 100_000;

/**
 * Checks every reference in doc[amp, end) without building the decoded text; returns the position
 * of the next '&' after `end` (or -1).
 */
function checkEntities(doc: string, amp: number, end: number, references: { count: number }): number {
	let at = amp;
	while (at >= 0 && at < end) {
		if (++references.count > MAX_REFERENCES)
			throw new WorkoutFileError(
				'too_many_references',
				`This file holds more than ${MAX_REFERENCES.toLocaleString('en')} escaped characters (&…;); no workout file needs so many.`,
				{ maxReferences: MAX_REFERENCES },
			);
		const semi = doc.indexOf(';', at + 1);
		if (semi < 0 || semi - at > 12 || semi > end) failMalformed(at, 'a bare &');
		if (doc.charCodeAt(at + 1) === 35) {
			const hex = doc.charCodeAt(at + 2) === 120 || doc.charCodeAt(at + 2) === 88;
			let code = 0;
			let k = at + (hex ? 3 : 2);
			if (k === semi) failMalformed(at, 'an empty character reference');
			for (; k < semi; k++) {
				const c = doc.charCodeAt(k);
				const digit =
					c >= 48 && c <= 57
						? c - 48
						: hex && c >= 97 && c <= 102
							? c - 87
							: hex && c >= 65 && c <= 70
								? c - 55
								: -1;
				if (digit < 0) failMalformed(at, 'a bad character reference');
				code = code * (hex ? 16 : 10) + digit;
			}
			if (code <= 0 || code > 0x10ffff) failMalformed(at, 'a bad character reference');
		} else if (predefined[doc.slice(at + 1, semi)] === undefined) {
			refuseDoctype();
		}
		at = doc.indexOf('&', semi + 1);
	}
	return at;
}

const predefined: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

/** Decodes the five predefined entities and character references; any other entity is refused. */
export function decodeEntities(raw: string): string {
	let amp = raw.indexOf('&');
	if (amp < 0) return raw;
	const parts: string[] = [];
	let from = 0;
	while (amp >= 0) {
		const semi = raw.indexOf(';', amp + 1);
		if (semi < 0 || semi - amp > 12) failMalformed(amp, 'a bare &');
		parts.push(raw.slice(from, amp));
		const body = raw.slice(amp + 1, semi);
		if (body.charCodeAt(0) === 35) {
			const hex = body[1] === 'x' || body[1] === 'X';
			const digits = body.slice(hex ? 2 : 1);
			const code = hex ? Number.parseInt(digits, 16) : Number(digits);
			if (digits === '' || !Number.isInteger(code) || code <= 0 || code > 0x10ffff) {
				failMalformed(amp, `bad character reference &${body};`);
			}
			parts.push(String.fromCodePoint(code));
		} else {
			const value = predefined[body];
			if (value === undefined) refuseDoctype();
			parts.push(value);
		}
		from = semi + 1;
		amp = raw.indexOf('&', from);
	}
	parts.push(raw.slice(from));
	return parts.join('');
}
