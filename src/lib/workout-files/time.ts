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
	const last = raw.charCodeAt(raw.length - 1);
	const s = raw.charCodeAt(0) <= 32 || last <= 32 ? raw.trim() : raw;
	if (s.length < 19) return Number.NaN;
	const year = readDigits(s, 0, 4);
	const month = readDigits(s, 5, 2);
	const day = readDigits(s, 8, 2);
	const hour = readDigits(s, 11, 2);
	const minute = readDigits(s, 14, 2);
	const second = readDigits(s, 17, 2);
	const sep = s.charCodeAt(10);
	if (s.charCodeAt(4) !== 45 || s.charCodeAt(7) !== 45 || (sep !== 84 && sep !== 32 && sep !== 116)) {
		return Number.NaN;
	}
	if (s.charCodeAt(13) !== 58 || s.charCodeAt(16) !== 58) return Number.NaN;
	if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 || minute > 59 || second > 60) {
		return Number.NaN;
	}
	let i = 19;
	let millis = 0;
	if (s.charCodeAt(i) === 46 || s.charCodeAt(i) === 44) {
		i++;
		let scale = 100;
		const start = i;
		while (i < s.length) {
			const d = s.charCodeAt(i) - 48;
			if (d < 0 || d > 9) break;
			millis += d * scale;
			scale /= 10;
			i++;
		}
		if (i === start) return Number.NaN;
	}
	let offsetMin = 0;
	if (i < s.length) {
		const c = s.charCodeAt(i);
		if ((c === 90 || c === 122) && i + 1 === s.length) {
			// Z
		} else if (c === 43 || c === 45) {
			const oh = readDigits(s, i + 1, 2);
			const om = s.charCodeAt(i + 3) === 58 ? readDigits(s, i + 4, 2) : readDigits(s, i + 3, 2);
			const end = s.charCodeAt(i + 3) === 58 ? i + 6 : i + 5;
			if (end !== s.length || Number.isNaN(oh) || Number.isNaN(om) || oh > 23 || om > 59) return Number.NaN;
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
