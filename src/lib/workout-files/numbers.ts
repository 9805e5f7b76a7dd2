/** Exact powers of ten: every one up to 1e22 is a double without rounding. */
const POW10 = Array.from({ length: 23 }, (_, i) => 10 ** i);

function isSpace(c: number): boolean {
	return c === 32 || c === 9 || c === 10 || c === 13;
}

/**
 * Reads a decimal number from doc[start, end) without copying it out, giving exactly the double
 * Number() gives: a mantissa below 2^53 divided by an exact power of ten up to 1e22 is correctly
 * rounded (Clinger's fast path). Anything else — exponents, long mantissas, text — goes through
 * Number() itself. Returns NaN for blank or unreadable text, and 0 (never -0) for zero.
 */
export function parseDecimalRange(doc: string, start: number, end: number): number {
	let b = start;
	let e = end;
	while (b < e && isSpace(doc.charCodeAt(b))) b++;
	while (e > b && isSpace(doc.charCodeAt(e - 1))) e--;
	if (b === e) return Number.NaN;
	let i = b;
	let negative = false;
	const first = doc.charCodeAt(i);
	if (first === 45) {
		negative = true;
		i++;
	} else if (first === 43) i++;
	let mantissa = 0;
	let digits = 0;
	let fraction = 0;
	for (; i < e; i++) {
		const d = doc.charCodeAt(i) - 48;
		if (d < 0 || d > 9) break;
		mantissa = mantissa * 10 + d;
		digits++;
	}
	if (i < e && doc.charCodeAt(i) === 46) {
		for (i++; i < e; i++) {
			const d = doc.charCodeAt(i) - 48;
			if (d < 0 || d > 9) break;
			mantissa = mantissa * 10 + d;
			digits++;
			fraction++;
		}
	}
	if (i !== e || digits === 0 || mantissa > Number.MAX_SAFE_INTEGER || fraction > 22) {
		const value = Number(doc.slice(b, e)) + 0;
		return Number.isFinite(value) ? value : Number.NaN;
	}
	const value = fraction === 0 ? mantissa : mantissa / POW10[fraction];
	return negative ? 0 - value : value;
}
