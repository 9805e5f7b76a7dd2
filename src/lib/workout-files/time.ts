/** Seconds between the Unix epoch and the FIT epoch (1989-12-31T00:00:00Z). */
export const FIT_EPOCH_S = 631065600;

function readDigits(s: string, at: number, count: number): number {
	let value = 0;
	for (let i = at; i < at + count; i++) {
		const d = s.charCodeAt(i) - 48;
		if (d < 0 || d > 9) return Number.NaN;
		value = value * 10 + d;
	}
	return value;
}

/**
 * Parses an ISO 8601 / XML Schema dateTime to milliseconds since the epoch. A time without a zone is
 * UTC, as GPX and TCX define it (Date.parse would read it as local time). Returns NaN when unreadable.
 */
export function parseIsoTime(raw: string): number {
	return parseIsoTimeRange(raw, 0, raw.length);
}

/** The same on doc[start, end), so a reader need not copy the text out first. */
export function parseIsoTimeRange(doc: string, start: number, end: number): number {
	let b = start;
	let e = end;
	while (b < e && doc.charCodeAt(b) <= 32) b++;
	while (e > b && doc.charCodeAt(e - 1) <= 32) e--;
	if (e - b < 19) return Number.NaN;
	const year = readDigits(doc, b, 4);
	const month = readDigits(doc, b + 5, 2);
	const day = readDigits(doc, b + 8, 2);
	const hour = readDigits(doc, b + 11, 2);
	const minute = readDigits(doc, b + 14, 2);
	const second = readDigits(doc, b + 17, 2);
	const sep = doc.charCodeAt(b + 10);
	if (
		doc.charCodeAt(b + 4) !== 45 ||
		doc.charCodeAt(b + 7) !== 45 ||
		(sep !== 84 && sep !== 32 && sep !== 116)
	) {
		return Number.NaN;
	}
	if (doc.charCodeAt(b + 13) !== 58 || doc.charCodeAt(b + 16) !== 58) return Number.NaN;
	if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
		return Number.NaN;
	}
	let i = b + 19;
	let millis = 0;
	if (doc.charCodeAt(i) === 46 || doc.charCodeAt(i) === 44) {
		i++;
		let scale = 100;
		const fractionStart = i;
		while (i < e) {
			const d = doc.charCodeAt(i) - 48;
			if (d < 0 || d > 9) break;
			millis += d * scale;
			scale /= 10;
			i++;
		}
		if (i === fractionStart) return Number.NaN;
	}
	let offsetMin = 0;
	if (i < e) {
		const c = doc.charCodeAt(i);
		if ((c === 90 || c === 122) && i + 1 === e) {
			// Z
		} else if (c === 43 || c === 45) {
			const colon = doc.charCodeAt(i + 3) === 58;
			const oh = readDigits(doc, i + 1, 2);
			const om = colon ? readDigits(doc, i + 4, 2) : readDigits(doc, i + 3, 2);
			const zoneEnd = colon ? i + 6 : i + 5;
			if (zoneEnd !== e || Number.isNaN(oh) || Number.isNaN(om) || oh > 23 || om > 59) return Number.NaN;
			offsetMin = (c === 43 ? 1 : -1) * (oh * 60 + om);
		} else {
			return Number.NaN;
		}
	}
	const ms = Date.UTC(year, month - 1, day, hour, minute, second) + Math.round(millis);
	return ms - offsetMin * 60_000;
}

/** ISO 8601 in UTC with an explicit `+00:00`; milliseconds only when the time has them. */
export function formatUtc(ms: number): string {
	const iso = new Date(ms).toISOString();
	const base = ms % 1000 === 0 ? iso.slice(0, 19) : iso.slice(0, 23);
	return `${base}+00:00`;
}
