// Builds src/lib/workouts/activity-types.json: the activity type tree the API serves.
//
// Roots are the types the product names with their MapMyFitness ids (Run 16, Walk 9, Bike Ride 11,
// Swim 15, Hike 24, Yoga 78) and the major headings of the 2011 Compendium of Physical Activities.
// Under them sit the Compendium's activities, each with its own code and MET value. A Compendium
// activity's id is 100000 + its code (01015 → 101015) and a heading's is 100000 + its number, so
// they never take an id of the MapMyFitness id space (1 to a few thousand).
//
// Input: compendiumofphysicalactivities.csv of github.com/andyreagan/compendium-of-physical-activity
// (commit b9d1674a20b55ad063dc476ae5603b2151b1e815), the 2011 Compendium's tables.
//
//   npx node scripts/build-activity-types.mjs path/to/compendiumofphysicalactivities.csv
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const csvPath = process.argv[2];
if (!csvPath) throw new Error('Give the path of compendiumofphysicalactivities.csv');

/** The Compendium's headings kept: activities people record as workouts or active time. */
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
	if (heading === 'running') return 16;
	if (heading === 'bicycling') return 11;
	if (/^hiking\b/.test(description)) return 24;
	if (heading === 'walking') return 9;
	if (heading === 'water_activities' && /^swimming\b/.test(description)) return 15;
	if (/^yoga\b/.test(description)) return 78;
	return null;
}

const clean = (text) =>
	text
		.replace(/&amp;/g, '&')
		.replace(/\s*\(Taylor Codes? [^)]*\)/gi, '')
		.replace(/\s+/g, ' ')
		.trim();

const types = NAMED_ROOTS.map((root) => ({ id: root.id, name: root.name, parent: null }));
for (const [, [number, name]] of Object.entries(HEADINGS))
	types.push({ id: 100000 + number, name, parent: null });

const lines = readFileSync(csvPath, 'utf8').split('\n').slice(2);
for (const line of lines) {
	const [, , , , code, met, description, heading] = line.split('|');
	if (!code || !/^\d{5}$/.test(code) || !HEADINGS[heading]) continue;
	const text = clean(description);
	const name = text.charAt(0).toUpperCase() + text.slice(1);
	types.push({
		id: 100000 + Number(code),
		name,
		parent: namedParent(heading, text) ?? 100000 + HEADINGS[heading][0],
		met: Number(met),
		compendium_code: code,
	});
}
types.sort((a, b) => a.id - b.id);

const out = {
	attribution:
		'Activities, codes and MET values: Ainsworth BE, Haskell WL, Herrmann SD, Meckes N, Bassett DR Jr, Tudor-Locke C, Greer JL, Vezina J, Whitt-Glover MC, Leon AS. 2011 Compendium of Physical Activities: a second update of codes and MET values. Med Sci Sports Exerc. 2011;43(8):1575-1581. Tabulated by github.com/andyreagan/compendium-of-physical-activity (commit b9d1674a20b55ad063dc476ae5603b2151b1e815). Root types Run, Walk, Bike Ride, Swim, Hike and Yoga carry their MapMyFitness ids. Built by scripts/build-activity-types.mjs.',
	types,
};
const target = path.resolve(import.meta.dirname, '../src/lib/workouts/activity-types.json');
writeFileSync(target, `${JSON.stringify(out, null, '\t')}\n`);
console.log(`${types.length} activity types written to ${target}`);
