// The base map's colours are design tokens (`$color-map-*` in src/styles/_tokens.scss), defined in one place,
// and the vector map sets its names in the body type (`$font-body`).

const NAMES = [
	'land',
	'no_data',
	'water',
	'water_label',
	'park',
	'wood',
	'grass',
	'pitch',
	'rock',
	'ice',
	'building',
	'building_edge',
	'casing',
	'casing_major',
	'motorway',
	'primary',
	'secondary',
	'road',
	'path',
	'track',
	'rail',
	'boundary',
	'label',
	'label_soft',
	'halo',
] as const;
export type MapColour = (typeof NAMES)[number];

/** Reads every map colour from the tokens' text; a missing one stops the server at start. */
export function readMapPalette(source: string): Record<MapColour, string> {
	const palette = {} as Record<MapColour, string>;
	for (const name of NAMES) {
		const match = new RegExp(`^\\$color-map-${name.replace('_', '-')}:\\s*(#[0-9a-fA-F]{6});`, 'm').exec(
			source,
		);
		if (!match) throw new Error(`src/styles/_tokens.scss lacks $color-map-${name}`);
		palette[name] = match[1].toLowerCase();
	}
	return palette;
}

/** The body type's font families, best first, from the tokens' text; a missing `$font-body` stops the map. */
export function readMapFonts(source: string): string[] {
	const match = /^\$font-body:([^;]+);/m.exec(source);
	if (!match) throw new Error('src/styles/_tokens.scss lacks $font-body');
	return match[1]
		.split(',')
		.map((family) => family.trim().replace(/^"(.*)"$/, '$1'))
		.filter(Boolean);
}
