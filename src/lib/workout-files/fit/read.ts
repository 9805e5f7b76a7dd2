import { Profile } from '@garmin/fitsdk';
import { type Container, WorkoutBuilder } from '../builder';
import {
	defaultLimits,
	type Lap,
	type NormalisedWorkout,
	type ReadLimits,
	type TrackPoint,
	type Waypoint,
} from '../contract';
import { WorkoutFileError } from '../errors';
import { FIT_EPOCH_S, formatUtc } from '../time';
import { readString, readValue, SEMICIRCLE_TO_DEG } from './fields';
import { checkFitIntegrity, type FitFileRange, failCorrupt } from './integrity';
import {
	compileRecordDecoder,
	type DecoderState,
	type Definition,
	decodeRecordInterpreted,
	MAX_COMPILED_PER_FILE,
} from './records';
import { clockOffsetS, finishFit, type SessionTotals, setScaled } from './workout';

/** A cut-off recording's last record can carry a crashing app's garbage clock (decades ahead). */
const CUT_OFF_TIME_JUMP_MS = 24 * 3600 * 1000;

/**
 * Decodes the messages a workout needs (file id, sport, session, lap, record, activity) straight
 * from the bytes, skipping all others by their defined size. Scale and offset follow the FIT profile
 * (altitude /5 − 500 m, speed /1000 m/s, distance /100 m, positions in semicircles). Enhanced speed
 * and altitude win over the 16-bit fields; compressed speed/distance and compressed timestamps are
 * expanded as the FIT protocol defines.
 */
export function readFit(
	bytes: Uint8Array,
	container: Container,
	limits: ReadLimits = {},
	options: { interpret?: boolean } = {},
): NormalisedWorkout {
	const trailing = { bytes: 0 };
	const files = checkFitIntegrity(bytes, trailing, { keepCutOff: true });
	const b = new WorkoutBuilder('fit', container, limits);
	if (trailing.bytes > 0)
		b.warnOnce(`${trailing.bytes} bytes after the end of the FIT data were not readable and were ignored.`);
	let compiled = 0;
	const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const lapEnds: number[] = [];
	const sessions: SessionTotals[] = [];
	let sportFromSportMesg: number | undefined;
	let totals = { distance: 0, elapsed: 0, timer: 0, ascent: 0, descent: 0, calories: 0 };
	const has = {
		distance: false,
		elapsed: false,
		timer: false,
		ascent: false,
		descent: false,
		calories: false,
	};
	let maxHr: number | undefined;
	let avgHr: number | undefined;
	const maxWaypoints = limits.maxPoints ?? defaultLimits.maxPoints;

	let cutOff: { kept: number; last: number | undefined } | undefined;
	for (const file of files) {
		if (!file.cutOff) {
			decodeFile(file);
			continue;
		}
		const pointsBefore = b.points.length;
		try {
			decodeFile(file);
		} catch (error) {
			// Where a cut-off file stops making sense is where the recording ended.
			if (!(error instanceof WorkoutFileError) || error.code !== 'fit_corrupt') throw error;
		}
		if (b.points.length === 0) {
			throw new WorkoutFileError(
				'truncated',
				'This FIT file is incomplete: it ends before its first record. Copy it from the device again.',
			);
		}
		cutOff = { kept: b.points.length - pointsBefore, last: b.points[b.points.length - 1]?.time };
	}

	function decodeFile(file: FitFileRange): void {
		const defs: Array<Definition | undefined> = new Array(16);
		const state: DecoderState = { last: -1, acc: -1 };
		let pos = file.start;
		const end = file.end;
		while (pos < end) {
			const header = bytes[pos++];
			if ((header & 0x80) === 0 && (header & 0x40) !== 0) {
				// definition message
				if (pos + 5 > end) failCorrupt('a definition runs past the end');
				const le = bytes[pos + 1] === 0;
				const global = le ? bytes[pos + 2] | (bytes[pos + 3] << 8) : (bytes[pos + 2] << 8) | bytes[pos + 3];
				const count = bytes[pos + 4];
				pos += 5;
				if (pos + count * 3 > end) failCorrupt('a definition runs past the end');
				const nums = new Uint8Array(count);
				const offsets = new Uint16Array(count);
				const types = new Uint8Array(count);
				const sizes = new Uint8Array(count);
				let size = 0;
				for (let k = 0; k < count; k++) {
					nums[k] = bytes[pos];
					sizes[k] = bytes[pos + 1];
					types[k] = bytes[pos + 2];
					offsets[k] = size;
					size += bytes[pos + 1];
					pos += 3;
				}
				if ((header & 0x20) !== 0) {
					if (pos + 1 > end) failCorrupt('a definition runs past the end');
					const devCount = bytes[pos++];
					if (pos + devCount * 3 > end) failCorrupt('a definition runs past the end');
					for (let k = 0; k < devCount; k++) {
						size += bytes[pos + 1];
						pos += 3;
					}
				}
				defs[header & 0x0f] = { global, le, size, nums, offsets, types, sizes };
				continue;
			}
			let local: number;
			let compressedTime = -1;
			if ((header & 0x80) !== 0) {
				local = (header >> 5) & 0x03;
				if (state.last < 0) failCorrupt('a compressed timestamp before any full one');
				const offset5 = header & 0x1f;
				compressedTime = (state.last & ~0x1f) + offset5;
				if (offset5 < (state.last & 0x1f)) compressedTime += 0x20;
				state.last = compressedTime;
			} else {
				local = header & 0x0f;
			}
			const def = defs[local];
			if (def === undefined) failCorrupt('a message without a definition', { at: pos - 1 });
			if (pos + def.size > end) failCorrupt('a message runs past the end');
			const g = def.global;
			if (g === 21) {
				// A timer stop (auto-pause, manual pause) ends a segment: no distance is counted across it.
				let event = Number.NaN;
				let eventType = Number.NaN;
				for (let k = 0; k < def.nums.length; k++) {
					const num = def.nums[k];
					if (num === 0 || num === 1 || num === 253) {
						const value = readValue(dv, pos + def.offsets[k], def.types[k], def.sizes[k], def.le);
						if (num === 0) event = value;
						else if (num === 1) eventType = value;
						else if (!Number.isNaN(value)) state.last = value;
					}
				}
				if (event === 0 && (eventType === 1 || eventType === 4)) b.breakSegment();
				pos += def.size;
				continue;
			}
			if (g !== 20 && g !== 18 && g !== 19 && g !== 0 && g !== 12 && g !== 34 && g !== 31 && g !== 32) {
				// Still track timestamps so later compressed timestamps resolve correctly.
				for (let k = 0; k < def.nums.length; k++) {
					if (def.nums[k] === 253) {
						const t = readValue(dv, pos + def.offsets[k], def.types[k], def.sizes[k], def.le);
						if (!Number.isNaN(t)) state.last = t;
					}
				}
				pos += def.size;
				continue;
			}
			if (g === 20) {
				if (def.decodeRecord === undefined && compiled < MAX_COMPILED_PER_FILE && !options.interpret) {
					def.decodeRecord = compileRecordDecoder(def);
					compiled++;
				}
				const point = def.decodeRecord
					? def.decodeRecord(dv, bytes, pos, compressedTime, state)
					: decodeRecordInterpreted(def, dv, bytes, pos, compressedTime, state);
				if (file.cutOff && isCrashClock(point)) return;
				b.addPoint(point);
			} else {
				readOtherMessage(g, pos, def);
			}
			pos += def.size;
		}
	}

	function isCrashClock(point: TrackPoint): boolean {
		const previous = b.points[b.points.length - 1]?.time;
		return point.time !== undefined && previous !== undefined && point.time - previous > CUT_OFF_TIME_JUMP_MS;
	}

	function readOtherMessage(g: number, pos: number, def: Definition): void {
		const { nums, offsets, types, sizes, le } = def;
		const field = (num: number): number => {
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === num) return readValue(dv, pos + offsets[k], types[k], sizes[k], le);
			}
			return Number.NaN;
		};
		const timeOf = (num: number): number | undefined => {
			const t = field(num);
			return Number.isNaN(t) ? undefined : (t + FIT_EPOCH_S) * 1000;
		};
		if (g === 0) {
			const manufacturer = field(1);
			const product = field(2);
			let productName: string | undefined;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 8 && types[k] === 0x07) productName = readString(bytes, pos + offsets[k], sizes[k]);
			}
			const maker = Number.isNaN(manufacturer)
				? undefined
				: ((Profile.types.manufacturer as Record<number, string>)[manufacturer] ??
					`manufacturer ${manufacturer}`);
			if (maker !== undefined && b.creator === undefined) {
				b.creator = productName || (Number.isNaN(product) ? maker : `${maker} ${product}`);
			}
		} else if (g === 12) {
			const sport = field(0);
			if (!Number.isNaN(sport)) sportFromSportMesg ??= sport;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 3 && types[k] === 0x07)
					b.name ??= readString(bytes, pos + offsets[k], sizes[k]) || undefined;
			}
		} else if (g === 31) {
			// A course file names itself and its sport in the course message.
			const sport = field(4);
			if (!Number.isNaN(sport)) sportFromSportMesg ??= sport;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 5 && types[k] === 0x07)
					b.name ??= readString(bytes, pos + offsets[k], sizes[k]) || undefined;
			}
		} else if (g === 32) {
			// Course points (turns, water, summits) are the course's waypoints, as in GPX.
			const lat = field(2) * SEMICIRCLE_TO_DEG;
			const lng = field(3) * SEMICIRCLE_TO_DEG;
			if (!(Math.abs(lat) <= 90 && Math.abs(lng) <= 180) || b.waypoints.length >= maxWaypoints) return;
			const waypoint: Waypoint = { lat, lng };
			const time = timeOf(1);
			if (time !== undefined) waypoint.time = time;
			for (let k = 0; k < nums.length; k++) {
				if (nums[k] === 6 && types[k] === 0x07) {
					const name = readString(bytes, pos + offsets[k], sizes[k]);
					if (name) waypoint.name = name;
				}
			}
			b.waypoints.push(waypoint);
		} else if (g === 34) {
			b.recordedUtcOffsetS ??= clockOffsetS(field(253), field(5));
		} else if (g === 19) {
			const lap: Lap = { firstPoint: 0, endPoint: 0 };
			const start = timeOf(2);
			if (start !== undefined) lap.startTime = start;
			setScaled(lap, 'elapsedS', field(7), 1000);
			setScaled(lap, 'timerS', field(8), 1000);
			setScaled(lap, 'distanceM', field(9), 100);
			setScaled(lap, 'calories', field(11), 1);
			setScaled(lap, 'avgHeartRate', field(15), 1);
			setScaled(lap, 'maxHeartRate', field(16), 1);
			const endTime = timeOf(253);
			lapEnds.push(
				endTime ??
					(start !== undefined && lap.elapsedS !== undefined ? start + lap.elapsedS * 1000 : Number.NaN),
			);
			b.laps.push(lap);
		} else if (g === 18) {
			const session: SessionTotals = {};
			const sport = field(5);
			if (!Number.isNaN(sport)) session.sport = sport;
			const start = timeOf(2);
			if (start !== undefined) session.start = start;
			const add = (key: keyof typeof totals, raw: number, scale: number) => {
				if (Number.isNaN(raw)) return;
				totals[key] += raw / scale;
				has[key] = true;
			};
			add('distance', field(9), 100);
			add('elapsed', field(7), 1000);
			add('timer', field(8), 1000);
			add('ascent', field(22), 1);
			add('descent', field(23), 1);
			add('calories', field(11), 1);
			const timer = field(8);
			if (!Number.isNaN(timer)) session.timer = timer / 1000;
			const hrMax = field(17);
			if (!Number.isNaN(hrMax)) maxHr = Math.max(maxHr ?? 0, hrMax);
			const hrAvg = field(16);
			if (!Number.isNaN(hrAvg)) avgHr = sessions.length === 0 ? hrAvg : undefined;
			sessions.push(session);
		}
	}

	finishFit(b, { sessions, sportFromSportMesg, lapEnds });
	totals = { ...totals };
	for (const key of Object.keys(totals) as Array<keyof typeof totals>) {
		if (!has[key]) continue;
		const value = totals[key];
		if (key === 'distance') b.deviceTotals.distanceM = value;
		else if (key === 'elapsed') b.deviceTotals.elapsedS = value;
		else if (key === 'timer') b.deviceTotals.timerS = value;
		else if (key === 'ascent') b.deviceTotals.ascentM = value;
		else if (key === 'descent') b.deviceTotals.descentM = value;
		else b.deviceTotals.calories = value;
	}
	// A session heart rate of 0 means no strap was worn.
	if (maxHr) b.deviceTotals.maxHeartRate = maxHr;
	if (avgHr && sessions.length === 1) b.deviceTotals.avgHeartRate = avgHr;
	if (cutOff) b.warnOnce(describeCutOff(cutOff.kept, cutOff.last, b.deviceTotals));
	return b.finish();
}

/** Tells the member what of a cut-off recording was kept, beside what the file's own summary claims. */
function describeCutOff(
	kept: number,
	last: number | undefined,
	totals: NormalisedWorkout['deviceTotals'],
): string {
	const upTo = last === undefined ? '' : ` up to ${formatUtc(last).slice(11, 19)} UTC`;
	const claimed: string[] = [];
	if (totals.elapsedS !== undefined) claimed.push(`${Math.round(totals.elapsedS / 60)} min`);
	if (totals.distanceM !== undefined) claimed.push(`${(totals.distanceM / 1000).toFixed(2)} km`);
	const summary = claimed.length > 0 ? ` Its own summary speaks of ${claimed.join(' and ')}.` : '';
	return `This FIT file is incomplete: the app that recorded it stopped before finishing it. The ${kept.toLocaleString('en-US')} points that could be read${upTo} were kept.${summary} Copy the file from the device again if it holds more.`;
}
