// vt-pbf ships no types; this is the part of its API the tile service uses.
declare module 'vt-pbf' {
	import type { LegacyTile } from 'geojson-vt';

	const vtpbf: {
		fromGeojsonVt(
			layers: Record<string, LegacyTile>,
			options?: { version?: number; extent?: number },
		): Uint8Array;
	};
	export default vtpbf;
}
