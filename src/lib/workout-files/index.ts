import type { Container } from './builder';
import { gunzipCapped, isGzip, isZip, unzipFirstCapped } from './containers';
import { defaultLimits, type NormalisedWorkout, type ReadLimits } from './contract';
import { WorkoutFileError } from './errors';
import { looksLikeFit, readFit, readFitWithSdk } from './fit';
import { readGpx } from './gpx';
import { readTcx } from './tcx';

export { UNSET_CLOCK_WARNING } from './builder';
export * from './contract';
export { isWorkoutFileError, WorkoutFileError, type WorkoutFileErrorCode } from './errors';
export { coursePointType, type FitCourseInput, writeFitCourse } from './fit-course';
export { writeFit } from './fit-writer';
export {
	computeMetrics,
	computeWorkoutElevationChange,
	type MetricsOptions,
	matchRecordDistances,
	movingSpeedThreshold,
	RECORD_DISTANCES,
	summariseWorkout,
	type WorkoutMetrics,
} from './metrics';
export { mileMarkerSpacing, offroadTolerance, simplifyOffroadSegment } from './route-tools';
export { formatUtc, parseIsoTime } from './time';
export { writeGpx, writeTcx } from './writers';
export { readFitWithSdk };

export interface ReadOptions {
	/** For messages and logs only: the format is always detected from the content. */
	fileName?: string;
	limits?: ReadLimits;
}

export type DetectedFormat = 'gpx' | 'tcx' | 'fit' | 'gzip' | 'zip' | 'unknown';

const utf8 = new TextDecoder('utf-8');

/** Decodes XML bytes honouring a UTF-16 BOM or a Latin-1 declaration; a UTF-8 BOM is dropped. */
export function decodeXmlText(bytes: Uint8Array): string {
	if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe)
		return new TextDecoder('utf-16le').decode(bytes);
	if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff)
		return new TextDecoder('utf-16be').decode(bytes);
	const head = String.fromCharCode(...bytes.subarray(0, Math.min(bytes.length, 120)));
	if (/^(\ufeff|\xef\xbb\xbf)?<\?xml[^>]*encoding=["'](iso-8859-1|latin1|windows-1252)["']/i.test(head)) {
		return new TextDecoder('windows-1252').decode(bytes);
	}
	const text = utf8.decode(bytes);
	return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function startsLikeXml(bytes: Uint8Array): boolean {
	let i = 0;
	if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) i = 3;
	if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) return true;
	while (
		i < bytes.length &&
		(bytes[i] === 0x20 || bytes[i] === 0x09 || bytes[i] === 0x0a || bytes[i] === 0x0d)
	)
		i++;
	return bytes[i] === 0x3c;
}

/**
 * Names the root element by skipping the XML declaration, comments and processing instructions.
 * Returns '!' for a DOCTYPE or other declaration (the reader then refuses it) and undefined when no
 * tag is found.
 */
function peekRootName(doc: string): string | undefined {
	let i = 0;
	for (;;) {
		const lt = doc.indexOf('<', i);
		if (lt < 0) return undefined;
		if (doc.startsWith('<?', lt)) {
			const end = doc.indexOf('?>', lt);
			if (end < 0) return undefined;
			i = end + 2;
		} else if (doc.startsWith('<!--', lt)) {
			const end = doc.indexOf('-->', lt);
			if (end < 0) return undefined;
			i = end + 3;
		} else if (doc.startsWith('<!', lt)) {
			return '!';
		} else {
			const match = /^<([^\s/>]+)/.exec(doc.slice(lt, lt + 200));
			if (!match) return undefined;
			const colon = match[1].indexOf(':');
			return colon < 0 ? match[1] : match[1].slice(colon + 1);
		}
	}
}

/** Names the format from the first bytes alone; file names are never consulted. */
export function detectFormat(bytes: Uint8Array): DetectedFormat {
	if (looksLikeFit(bytes)) return 'fit';
	if (isGzip(bytes)) return 'gzip';
	if (isZip(bytes)) return 'zip';
	if (startsLikeXml(bytes)) {
		const root = peekRootName(decodeXmlText(bytes.subarray(0, Math.min(bytes.length, 64 * 1024))));
		if (root === 'gpx') return 'gpx';
		if (root === 'TrainingCenterDatabase') return 'tcx';
	}
	return 'unknown';
}

function readUnpacked(bytes: Uint8Array, container: Container, limits: ReadLimits): NormalisedWorkout {
	if (looksLikeFit(bytes)) {
		try {
			return readFit(bytes, container, limits);
		} catch (error) {
			if (error instanceof WorkoutFileError) throw error;
			// The fast decoder met something unexpected: let Garmin's decoder have the final word.
			return readFitWithSdk(bytes, container, limits);
		}
	}
	if (startsLikeXml(bytes)) {
		const doc = decodeXmlText(bytes);
		const root = peekRootName(doc);
		if (root === 'TrainingCenterDatabase') return readTcx(doc, container, limits);
		// GPX, and anything the scanner itself must refuse (a DOCTYPE, broken XML), goes through the GPX reader.
		if (root === 'gpx' || root === '!' || root === undefined) return readGpx(doc, container, limits);
		throw new WorkoutFileError(
			'wrong_root',
			`This XML file is neither GPX nor TCX (its root is <${root}>).`,
			{ root },
		);
	}
	throw new WorkoutFileError(
		'unsupported_format',
		'We can read GPX, TCX and FIT files (also inside .gz or .zip). This file is none of them.',
	);
}

/**
 * Reads an uploaded workout file (GPX 1.0/1.1, TCX or FIT, bare or inside .gz or .zip) into one
 * normalised workout. Every refusal is a WorkoutFileError whose message a member can act on.
 */
export async function readWorkoutFile(
	bytes: Uint8Array,
	options: ReadOptions = {},
): Promise<NormalisedWorkout> {
	return readWorkoutFileSync(bytes, options);
}

export function readWorkoutFileSync(bytes: Uint8Array, options: ReadOptions = {}): NormalisedWorkout {
	const limits = { ...defaultLimits, ...options.limits };
	if (bytes.length > limits.maxBytes) {
		throw new WorkoutFileError(
			'too_large',
			`This file is larger than ${Math.round(limits.maxBytes / 1024 / 1024)} MB, more than we accept.`,
			{ maxBytes: limits.maxBytes },
		);
	}
	if (bytes.length === 0) throw new WorkoutFileError('unsupported_format', 'This file is empty.');
	if (isGzip(bytes)) return readUnpacked(gunzipCapped(bytes, limits), 'gzip', limits);
	if (isZip(bytes)) return readUnpacked(unzipFirstCapped(bytes, limits), 'zip', limits);
	return readUnpacked(bytes, 'none', limits);
}
