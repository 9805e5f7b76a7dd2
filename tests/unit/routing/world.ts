import { RoutingEngine } from '../../../src/lib/routing/engine.ts';
import { readOsmXmlText } from '../../../src/lib/routing/osm/read.ts';
import { buildRegion } from '../../../src/lib/routing/region.ts';

// A tiny hand-written world: a direct way A–B carrying the tags under test, a residential detour A–C–B that
// every mode may use, and an island E–F that nothing connects to.
export const A = { lat: 45.0, lon: 7.0 };
export const B = { lat: 45.0, lon: 7.003 };
export const C = { lat: 45.003, lon: 7.0015 };
export const E = { lat: 45.006, lon: 7.0 };
export const F = { lat: 45.006, lon: 7.001 };

export function writeWorldXml(directTags: Record<string, string>): string {
	const tag = (k: string, v: string) => `<tag k="${k}" v="${v}"/>`;
	const node = (id: number, p: { lat: number; lon: number }) =>
		`<node id="${id}" lat="${p.lat}" lon="${p.lon}"/>`;
	return `<?xml version="1.0" encoding="UTF-8"?>
<osm version="0.6">
${node(1, A)}${node(2, B)}${node(3, C)}${node(5, E)}${node(6, F)}
<way id="10"><nd ref="1"/><nd ref="2"/>${Object.entries(directTags)
		.map(([k, v]) => tag(k, v))
		.join('')}${tag('name', 'Direct Way')}</way>
<way id="11"><nd ref="1"/><nd ref="3"/><nd ref="2"/>${tag('highway', 'residential')}${tag('name', 'Detour Street')}</way>
<way id="12"><nd ref="5"/><nd ref="6"/>${tag('highway', 'residential')}${tag('name', 'Island Road')}</way>
</osm>`;
}

export async function buildWorldEngine(directTags: Record<string, string>): Promise<RoutingEngine> {
	const osm = await readOsmXmlText(writeWorldXml(directTags));
	return new RoutingEngine({ regions: [buildRegion('test-world', osm)], maxSnapDistance: 50 });
}
