// Builds src/lib/workouts/activity-types.json: the activity type tree the API serves.
//
// Roots are the types the product names with their MapMyFitness ids (Run 16, Walk 9, Bike Ride 11,
// Swim 15, Hike 24, Yoga 78) and the major headings of the Compendium of Physical Activities. Under
// them sit the Compendium's activities, each with its own code and MET value, from two editions:
//
// - 2011: the first list the product served. Such an activity's id is 100000 + its code
//   (01015 → 101015) and a heading's is 100000 + its number. These ids are stored in members'
//   workouts, so they keep their name, parent and MET value.
// - 2024: its activities that the 2011 list does not already hold, with id 200000 + code. The 2024
//   edition revised the wording of most activities it kept under the same code, so a code present
//   in both editions is the same activity, except where 2024 gave the code to another activity
//   (REASSIGNED_2024). An activity the 2024 edition moved to a new code is recognised by its name.
//
// Both id ranges lie far above the MapMyFitness id space (1 to a few thousand).
//
// Inputs:
// - compendiumofphysicalactivities.csv of github.com/andyreagan/compendium-of-physical-activity
//   (commit b9d1674a20b55ad063dc476ae5603b2151b1e815), the 2011 Compendium's tables; give its path.
// - data-activity-types/compendium-2024.tsv, the 2024 Adult Compendium's table (see the README
//   beside it for where it comes from and its terms).
//
//   node scripts/build-activity-types.mjs path/to/compendiumofphysicalactivities.csv
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const csvPath = process.argv[2];
if (!csvPath) throw new Error('Give the path of compendiumofphysicalactivities.csv');
const root = path.resolve(import.meta.dirname, '..');

/**
 * The Compendium's headings kept, by the 2011 table's category name: activities people record as
 * workouts or active time.
 */
const HEADINGS = {
	bicycling: [1, 'Bicycling'],
	conditioning_exercise: [2, 'Conditioning Exercise'],
	dancing: [3, 'Dancing'],
	fishing_hunting: [4, 'Fishing and Hunting'],
	home_activity: [5, 'Home Activities'],
	home_repair: [6, 'Home Repair'],
	lawn_garden: [8, 'Lawn and Garden'],
	miscellaneous: [9, 'Miscellaneous'],
	music_playing: [10, 'Music Playing'],
	running: [12, 'Running'],
	sports: [15, 'Sports'],
	walking: [17, 'Walking'],
	water_activities: [18, 'Water Activities'],
	winter_activities: [19, 'Winter Activities'],
};

/**
 * Headings taken from the 2024 edition only (the 2011 list left them out): physical work, getting
 * about, the active time of worship and volunteering, and video games. Inactivity, self care and
 * sexual activity stay out: nobody logs them as activities.
 */
const HEADINGS_2024_ONLY = {
	11: 'Occupation',
	16: 'Transportation',
	20: 'Religious Activities',
	21: 'Volunteer Activities',
	22: 'Video Games',
};

/** The heading key of a 2024 row, by the first two digits of its code (the Compendium's numbering). */
const HEADING_KEY_BY_NUMBER = Object.fromEntries(
	Object.entries(HEADINGS).map(([key, [number]]) => [number, key]),
);

/** Codes the 2024 edition gives to a different activity than the 2011 edition did. */
const REASSIGNED_2024 = new Set([
	'01015', // bicycling, general → self-selected easy pace
	'02001', // active video game, light → step aerobics, 4-inch step
	'02003', // active video game, moderate → step aerobics, 10–12 inch step
	'02005', // active video/arcade game, vigorous → low-impact aerobic dance
	'02117', // Airdyne arms only, 40 rpm → hand bike, 25–30 W
	'03031', // general dancing → nightclub or folk dancing, vigorous
	'12029', // running, 4 mph → 4.3 to 4.8 mph
	'17033', // climbing hills, no load → with a 15–50 lb load
	'17035', // climbing hills, 0–9 lb load → no load, 6–10 % grade
	'17040', // climbing hills, 10–20 lb load → no load, steep grade
	'17060', // climbing hills, 42+ lb load → 20+ lb load, 5–20 % grade
	'18225', // paddle boarding, standing → at 10–19 strokes a minute
]);

/** The product's named types, with their MapMyFitness ids. */
const NAMED_ROOTS = [
	{ id: 16, name: 'Run' },
	{ id: 9, name: 'Walk' },
	{ id: 11, name: 'Bike Ride' },
	{ id: 15, name: 'Swim' },
	{ id: 24, name: 'Hike' },
	{ id: 78, name: 'Yoga' },
];

/** Which named type a Compendium activity belongs under, if any; otherwise its heading. */
function namedParent(heading, description) {
	const text = description.toLowerCase();
	if (heading === 'running') return 16;
	if (heading === 'bicycling') return 11;
	if (/^hiking\b/.test(text)) return 24;
	if (heading === 'walking') return 9;
	if (heading === 'water_activities' && /^swimming\b/.test(text)) return 15;
	if (/^yoga\b/.test(text)) return 78;
	return null;
}

const tidy = (text) => text.replace(/&amp;/g, '&').replace(/\s+/g, ' ').trim();
/** The Taylor codes cross-reference an older questionnaire and mean nothing to a member. */
const clean = (text) => tidy(text.replace(/\s*\(Taylor Codes? [^)]*\)/gi, ''));

const capitalised = (text) => text.charAt(0).toUpperCase() + text.slice(1);

/** A name as compared for sameness: case, spacing and punctuation aside. */
const nameKey = (name) =>
	name
		.toLowerCase()
		.replace(/[^a-z0-9%<>]+/g, ' ')
		.trim();

const types = NAMED_ROOTS.map((named) => ({ id: named.id, name: named.name, parent: null }));
for (const [, [number, name]] of Object.entries(HEADINGS))
	types.push({ id: 100000 + number, name, parent: null });

// The 2011 edition: ids, names and MET values as first served.
const codes2011 = new Set();
for (const line of readFileSync(csvPath, 'utf8').split('\n').slice(2)) {
	const [, , , , code, met, description, heading] = line.split('|');
	if (!code || !/^\d{5}$/.test(code) || !HEADINGS[heading]) continue;
	const name = capitalised(clean(description));
	codes2011.add(code);
	types.push({
		id: 100000 + Number(code),
		name,
		sourceName: capitalised(tidy(description)),
		parent: namedParent(heading, name) ?? 100000 + HEADINGS[heading][0],
		met: Number(met),
		compendium_code: code,
		compendium_edition: 2011,
	});
}
const count2011 = types.length;

// The 2024 edition: the activities not yet listed.
const headingIdOf = (number) => 100000 + number;
const namesByHeading = new Map();
for (const type of types) {
	if (!type.compendium_code) continue;
	const heading = Number(type.compendium_code.slice(0, 2));
	if (!namesByHeading.has(heading)) namesByHeading.set(heading, new Set());
	namesByHeading.get(heading).add(nameKey(type.name));
}
const tsv = readFileSync(path.join(root, 'data-activity-types/compendium-2024.tsv'), 'utf8');
const [header, ...rows] = tsv.trimEnd().split('\n');
if (header !== 'code\tmajor_heading\tmet\tdescription') throw new Error('Unexpected 2024 table header');
const addedHeadings = new Set();
for (const row of rows) {
	const [code, , met, description] = row.split('\t');
	const number = Number(code.slice(0, 2));
	const key = HEADING_KEY_BY_NUMBER[number];
	if (!key && !HEADINGS_2024_ONLY[number]) continue;
	if (codes2011.has(code) && !REASSIGNED_2024.has(code)) continue;
	const name = capitalised(clean(description).replace(/\s*[,;]$/, ''));
	if (namesByHeading.get(number)?.has(nameKey(name))) continue;
	if (!key) addedHeadings.add(number);
	types.push({
		id: 200000 + Number(code),
		name,
		sourceName: capitalised(tidy(description)),
		parent: (key && namedParent(key, name)) ?? headingIdOf(number),
		met: Number(met),
		compendium_code: code,
		compendium_edition: 2024,
	});
}
for (const number of addedHeadings)
	types.push({ id: headingIdOf(number), name: HEADINGS_2024_ONLY[number], parent: null });
types.sort((a, b) => a.id - b.id);

// Where the Compendium tells two activities apart only by their Taylor code, the code stays.
const byName = Map.groupBy(types, (type) => `${type.parent}:${nameKey(type.name)}`);
for (const same of byName.values()) if (same.length > 1) for (const type of same) type.name = type.sourceName;
for (const type of types) delete type.sourceName;

// The tree must hold: unique ids, every parent listed, no two names alike under one parent.
const ids = new Set(types.map((type) => type.id));
if (ids.size !== types.length) throw new Error('Two activity types share an id');
const siblings = new Map();
const clashes = [];
for (const type of types) {
	if (type.parent !== null && !ids.has(type.parent))
		throw new Error(`${type.id}: parent ${type.parent} missing`);
	const key = `${type.parent}:${nameKey(type.name)}`;
	if (siblings.has(key)) clashes.push(`${type.id} and ${siblings.get(key)} share the name "${type.name}"`);
	siblings.set(key, type.id);
}
if (clashes.length > 0) throw new Error(clashes.join('\n'));

const out = {
	attribution:
		'Activities, codes and MET values: Herrmann SD, Willis EA, Ainsworth BE, Barreira TV, Hastert M, Kracht CL, Schuna JM Jr, Cai Z, Quan M, Tudor-Locke C, Whitt-Glover MC, Jacobs DR Jr. 2024 Adult Compendium of Physical Activities: a third update of the energy costs of human activities. J Sport Health Sci. 2024;13(1):6-12 (https://pacompendium.com/), as tabulated by github.com/Jacobhubner/calculeat (MIT); and Ainsworth BE, Haskell WL, Herrmann SD, Meckes N, Bassett DR Jr, Tudor-Locke C, Greer JL, Vezina J, Whitt-Glover MC, Leon AS. 2011 Compendium of Physical Activities: a second update of codes and MET values. Med Sci Sports Exerc. 2011;43(8):1575-1581, as tabulated by github.com/andyreagan/compendium-of-physical-activity (commit b9d1674a20b55ad063dc476ae5603b2151b1e815). Each activity names its edition. Root types Run, Walk, Bike Ride, Swim, Hike and Yoga carry their MapMyFitness ids. Built by scripts/build-activity-types.mjs.',
	types,
};
const target = path.join(root, 'src/lib/workouts/activity-types.json');
writeFileSync(target, `${JSON.stringify(out, null, '\t')}\n`);
console.log(
	`${types.length} activity types written to ${target} (${count2011} from the 2011 list, ${types.length - count2011} added from the 2024 edition)`,
);
