/**
 * Builds the demo routes of the seed from the bundled regions with the routing engine, so their
 * lines follow real streets and their heights come from the SRTM tiles. Run once after the
 * regions change: `npx tsx src/lib/routes/server/demo/generate.ts` writes demo-routes.json beside it
 * (then `npx biome format --write` it, as the house formats every JSON file).
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { decodePolyline } from '../../../routing/polyline';
import { loadEngine } from '../../../routing/server/regions';
import type { DemoRoute } from './types';

type Plan = Omit<DemoRoute, 'path' | 'elevations' | 'cues'> & {
	via: [number, number][];
	costing: 'pedestrian' | 'bicycle' | 'auto';
};

const PLANS: Plan[] = [
	{
		name: 'Allison Hill and Reservoir Park loop',
		description: 'From Allison Hill up Herr Street to Reservoir Park and back through Penbrook.',
		activityType: 16,
		privacy: 3,
		city: 'Harrisburg',
		state: 'PA',
		country: 'US',
		costing: 'pedestrian',
		via: [
			[40.26, -76.84],
			[40.2793, -76.856],
			[40.285, -76.835],
			[40.26, -76.84],
		],
	},
	{
		name: 'Paxtang neighbourhood walk',
		description: 'A walk through the streets of Paxtang and Bellevue Park.',
		activityType: 9,
		privacy: 3,
		city: 'Harrisburg',
		state: 'PA',
		country: 'US',
		costing: 'pedestrian',
		via: [
			[40.255, -76.825],
			[40.25, -76.815],
			[40.26, -76.81],
			[40.255, -76.825],
		],
	},
	{
		name: 'Penbrook to Colonial Park ride',
		description: 'North-east from Penbrook to Colonial Park on residential streets.',
		activityType: 11,
		privacy: 3,
		city: 'Harrisburg',
		state: 'PA',
		country: 'US',
		costing: 'bicycle',
		via: [
			[40.28, -76.845],
			[40.29, -76.82],
			[40.3, -76.8],
		],
	},
	{
		name: 'Private tempo run',
		description: 'My own tempo route; only I see it.',
		activityType: 16,
		privacy: 0,
		city: 'Harrisburg',
		state: 'PA',
		country: 'US',
		costing: 'pedestrian',
		via: [
			[40.23, -76.84],
			[40.23, -76.82],
			[40.22, -76.83],
			[40.23, -76.84],
		],
	},
	{
		name: 'Andorra la Vella to Escaldes walk',
		description: 'Through the old town and along the Gran Valira to Escaldes-Engordany.',
		activityType: 9,
		privacy: 3,
		city: 'Andorra la Vella',
		state: '',
		country: 'AD',
		costing: 'pedestrian',
		via: [
			[42.5063, 1.5218],
			[42.5085, 1.531],
			[42.51, 1.538],
		],
	},
	{
		name: 'Sant Julià to Andorra la Vella climb',
		description: 'Up the valley on the CG-1 from Sant Julià de Lòria to the capital.',
		activityType: 11,
		privacy: 3,
		city: 'Sant Julià de Lòria',
		state: '',
		country: 'AD',
		costing: 'bicycle',
		via: [
			[42.4655, 1.4905],
			[42.5063, 1.5218],
		],
	},
	{
		name: 'La Massana hill run',
		description: 'From Andorra la Vella up to La Massana; friends only.',
		activityType: 16,
		privacy: 1,
		city: 'La Massana',
		state: '',
		country: 'AD',
		costing: 'pedestrian',
		via: [
			[42.5063, 1.5218],
			[42.53, 1.52],
			[42.545, 1.5148],
		],
	},
];

async function main() {
	const engine = await loadEngine({
		regionsDir: join(process.cwd(), 'data-regions'),
		only: ['harrisburg.osm.pbf', 'andorra.osm.pbf'],
		log: console.error,
	});
	const out: DemoRoute[] = [];
	for (const { via, costing, ...plan } of PLANS) {
		// A mode that cannot reach a point in the extract falls back to the next, so the line stays on real roads.
		const locations = via.map(([lat, lon]) => ({ lat, lon }));
		const modes = [
			costing,
			...(['bicycle', 'pedestrian', 'auto'] as const).filter((mode) => mode !== costing),
		];
		let answer: ReturnType<typeof engine.route> | undefined;
		for (const mode of modes) {
			try {
				answer = engine.route({ locations, costing: mode });
				break;
			} catch (error) {
				console.error(`${plan.name}: ${mode}: ${(error as Error).message}`);
			}
		}
		if (!answer) throw new Error(`No route for ${plan.name}`);
		const path: [number, number][] = [];
		const cues: DemoRoute['cues'] = [];
		let before = 0;
		for (const leg of answer.trip.legs) {
			const shape = decodePolyline(leg.shape, 6);
			const offset = path.length === 0 ? 0 : path.length - 1;
			path.push(...(path.length === 0 ? shape : shape.slice(1)));
			for (const maneuver of leg.maneuvers) {
				const [lat, lng] = shape[maneuver.begin_shape_index];
				cues.push({
					instructions: maneuver.instruction,
					lat,
					lng,
					shapeIndex: offset + maneuver.begin_shape_index,
				});
			}
			before += leg.summary.length;
		}
		const heights = engine.height({ shape: path.map(([lat, lon]) => ({ lat, lon })) }).height ?? [];
		out.push({
			...plan,
			path: path.map(([lat, lng]) => [Math.round(lat * 1e6) / 1e6, Math.round(lng * 1e6) / 1e6]),
			elevations: heights.map((h) => (h === null ? null : Math.round(h))),
			cues,
		});
		console.error(`${plan.name}: ${path.length} points, ${before.toFixed(2)} km`);
	}
	writeFileSync(join(import.meta.dirname, 'demo-routes.json'), `${JSON.stringify(out)}\n`);
}

await main();
