/*
 * How every download names itself (RFC 6266): the member's own words in `filename*` (UTF-8), an
 * ASCII copy in `filename` for clients that read only that, and always the extension of what the
 * file is. A name that brought its own extension along ("notes.html") never decides how the
 * browser or the operating system opens the file.
 */

const MAX_NAME = 80;

/** The member's words as a file name: no control or replacement characters, separators, quotes or leading dots. */
function cleanName(words: string): string {
	return Array.from(
		words
			.normalize('NFC')
			.replace(/[\p{Cc}\p{Cf}\p{Cs}\p{Co}\uFFFD/\\:*?"<>|]+/gu, ' ')
			.replace(/\s+/g, ' ')
			.trim()
			.replace(/^[.\s]+/, ''),
	)
		.slice(0, MAX_NAME)
		.join('')
		.trim();
}

/** The same name in ASCII: accents dropped (é → e), anything else a dash. */
function asciiName(name: string): string {
	return name
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/[^A-Za-z0-9._-]+/g, '-')
		.replace(/^[-.]+|[-.]+$/g, '')
		.slice(0, MAX_NAME);
}

/** RFC 8187's encoding of a value: UTF-8, percent-encoded, with the characters it reserves encoded too. */
function extValue(text: string): string {
	return encodeURIComponent(text).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * `Content-Disposition` for a file the member downloads, named `words` (a route's or workout's name,
 * an uploaded file's name without its extension), `fallback` when nothing of the words is usable.
 */
export function attachmentDisposition(words: string, extension: string, fallback: string): string {
	const name = cleanName(words) || fallback;
	const ascii = asciiName(name) || fallback;
	return `attachment; filename="${ascii}.${extension}"; filename*=UTF-8''${extValue(`${name}.${extension}`)}`;
}

/** An uploaded file's name without the extension it came with: "Evening run.gpx" → "Evening run". */
export function withoutExtension(fileName: string): string {
	return fileName.replace(/\.[A-Za-z0-9]{1,8}$/, '');
}
