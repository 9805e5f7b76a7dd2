import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeText } from '../../../src/lib/routing/geocode.ts';
import { buildCityIndex, loadCityIndex, openCityIndex } from '../../../src/lib/routing/server/city-index.ts';

const city = (
	name: string,
	country: string,
	adminCode: string,
	population: number,
	lon: number,
	lat: number,
) => ({
	name,
	country,
	adminCode,
	population,
	loc: { coordinates: [lon, lat] as [number, number] },
});

const records = [
	city('Andorra la Vella', 'AD', '07', 20_430, 1.52109, 42.50779),
	city('Harrisburg', 'US', 'PA', 49_528, -76.88442, 40.2737),
	city('Harrogate', 'GB', 'ENG', 75_070, -1.5373, 53.99078),
	city('São Paulo', 'BR', '27', 10_021_295, -46.63611, -23.5475),
	city('Köln', 'DE', '07', 963_395, 6.95, 50.93333),
	city('Wuhan 𠀀', 'CN', '12', 9_785_388, 114.26667, 30.58333),
	city('Paris', 'FR', '11', 2_138_551, 2.3488, 48.85341),
	city('Paris', 'US', 'TX', 24_782, -95.55551, 33.66094),
];

const index = openCityIndex(buildCityIndex(records, normalizeText));
const namesOf = (found: Map<number, number>, within = index) =>
	[...found].map(([at, quality]) => `${within.name(at)} ${within.country(at)} ${quality}`).sort();

describe('the world city index', () => {
	it('keeps every city with its name, place, population and region', () => {
		expect(index.count).toBe(records.length);
		records.forEach((record, at) => {
			expect(index.name(at)).toBe(record.name);
			expect(index.country(at)).toBe(record.country);
			expect(index.admin(at)).toBe(record.adminCode);
			expect(index.population(at)).toBe(record.population);
			expect(index.lon(at)).toBe(record.loc.coordinates[0]);
			expect(index.lat(at)).toBe(record.loc.coordinates[1]);
		});
	});

	it('finds a city by the start of its name, of a later word, or the whole name', () => {
		expect(namesOf(index.matchWordStarts('harr'))).toEqual(['Harrisburg US 3', 'Harrogate GB 3']);
		expect(namesOf(index.matchWordStarts('vella'))).toEqual(['Andorra la Vella AD 2']);
		expect(namesOf(index.matchWordStarts('la v'))).toEqual(['Andorra la Vella AD 2']);
		expect(namesOf(index.matchWordStarts('andorra la vella'))).toEqual(['Andorra la Vella AD 4']);
		expect(namesOf(index.matchWordStarts('paris'))).toEqual(['Paris FR 4', 'Paris US 4']);
		expect(index.matchWordStarts('ella').size).toBe(0);
		expect(index.matchWordStarts('').size).toBe(0);
	});

	it('matches names with accents and letters beyond the basic plane the way they are typed', () => {
		expect(namesOf(index.matchWordStarts(normalizeText('Sao')))).toEqual(['São Paulo BR 3']);
		expect(namesOf(index.matchWordStarts(normalizeText('KÖLN')))).toEqual(['Köln DE 4']);
		expect(namesOf(index.matchWordStarts(normalizeText('𠀀')))).toEqual(['Wuhan 𠀀 CN 2']);
		expect(namesOf(index.matchWordStarts(normalizeText('wuhan')))).toEqual(['Wuhan 𠀀 CN 3']);
	});
});

describe('the stored city index', () => {
	let dataDir = '';
	const before = process.env.DATA_DIR;
	afterEach(() => {
		rmSync(dataDir, { recursive: true, force: true });
		if (before === undefined) delete process.env.DATA_DIR;
		else process.env.DATA_DIR = before;
	});

	it('is built into the data folder once, read back on the next start, and rebuilt when damaged', () => {
		dataDir = mkdtempSync(path.join(tmpdir(), 'mapstride-cities-'));
		process.env.DATA_DIR = dataDir;
		const built = loadCityIndex(normalizeText);
		const folder = path.join(dataDir, 'routing-cache');
		const [file] = readdirSync(folder);
		expect(file).toMatch(/^cities-.*\.bin$/);
		const stored = readFileSync(path.join(folder, file));
		expect(stored.length).toBe(built.bytes);
		// The whole world in a compact buffer: well under the 170 MB the parsed list held.
		expect(built.bytes).toBeLessThan(16_000_000);
		expect(built.count).toBeGreaterThan(100_000);

		const reread = loadCityIndex(normalizeText);
		expect(reread.count).toBe(built.count);
		const harrisburgs = namesOf(built.matchWordStarts('harrisburg'), built);
		expect(harrisburgs).toContain('Harrisburg US 4');
		expect(namesOf(reread.matchWordStarts('harrisburg'), reread)).toEqual(harrisburgs);

		writeFileSync(path.join(folder, file), stored.subarray(0, stored.length - 100));
		const rebuilt = loadCityIndex(normalizeText);
		expect(rebuilt.count).toBe(built.count);
		expect(readFileSync(path.join(folder, file)).length).toBe(built.bytes);
	});
});
