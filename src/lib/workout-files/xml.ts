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

function localName(qname: string): string {
	const colon = qname.indexOf(':');
	return colon < 0 ? qname : qname.slice(colon + 1);
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

/**
 * A small non-validating XML scanner for workout files. It refuses any DOCTYPE (so no entity can be
 * declared, expanded or fetched), checks that tags nest and close, and reports a document that stops
 * early as truncated. It is a scanner rather than a tree builder because a 12-hour file has ~500,000
 * elements and we keep a handful of values from each point.
 */
export function scanXml(doc: string, handler: XmlHandler): void {
	const n = doc.length;
	const stack: string[] = [];
	let i = 0;
	let sawRoot = false;
	while (i < n) {
		const lt = doc.indexOf('<', i);
		const textEnd = lt < 0 ? n : lt;
		if (textEnd > i) {
			if (stack.length > 0) handler.text(doc, i, textEnd);
			else if (!isBlank(doc, i, textEnd)) {
				if (lt < 0 && sawRoot) failMalformed(i, 'text after the end');
				failMalformed(i, 'text outside the root element');
			}
		}
		if (lt < 0) break;
		const c = doc.charCodeAt(lt + 1);
		if (c === 47) {
			// end tag
			const gt = doc.indexOf('>', lt + 2);
			if (gt < 0) failTruncated();
			let nameEnd = gt;
			while (nameEnd > lt + 2 && isNameEnd(doc.charCodeAt(nameEnd - 1))) nameEnd--;
			const qname = doc.slice(lt + 2, nameEnd);
			const open = stack.pop();
			if (open === undefined) failMalformed(lt, `unexpected </${qname}>`);
			if (open !== qname) failMalformed(lt, `<${open}> closed by </${qname}>`);
			handler.close(localName(qname));
			i = gt + 1;
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
				if (stack.length === 0) failMalformed(lt, 'CDATA outside the root element');
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
			while (j < n && !isNameEnd(doc.charCodeAt(j))) j++;
			if (j >= n) failTruncated();
			if (j === lt + 1) failMalformed(lt, 'a tag without a name');
			const qname = doc.slice(lt + 1, j);
			const attrStart = j;
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
			const selfClosing = doc.charCodeAt(j - 1) === 47;
			const attrEnd = selfClosing ? j - 1 : j;
			if (stack.length === 0) {
				if (sawRoot) failMalformed(lt, 'a second root element');
				sawRoot = true;
			}
			const name = localName(qname);
			handler.open(name, doc, attrStart, attrEnd);
			if (selfClosing) handler.close(name);
			else stack.push(qname);
			i = j + 1;
		}
	}
	if (stack.length > 0) failTruncated();
	if (!sawRoot) failMalformed(0, 'no root element');
}

/** Finds an attribute's value by qualified or local name inside a start tag's attribute range. */
export function readAttribute(doc: string, start: number, end: number, name: string): string | undefined {
	let i = start;
	while (i < end) {
		const c = doc.charCodeAt(i);
		if (c === 32 || c === 9 || c === 10 || c === 13) {
			i++;
			continue;
		}
		const eq = doc.indexOf('=', i);
		if (eq < 0 || eq >= end) return undefined;
		const attrName = doc.slice(i, eq).trim();
		let q = eq + 1;
		while (q < end && doc.charCodeAt(q) !== 34 && doc.charCodeAt(q) !== 39) q++;
		if (q >= end) return undefined;
		const close = doc.indexOf(doc[q], q + 1);
		if (close < 0 || close >= end) return undefined;
		if (attrName === name || localName(attrName) === name) {
			return decodeEntities(doc.slice(q + 1, close));
		}
		i = close + 1;
	}
	return undefined;
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
