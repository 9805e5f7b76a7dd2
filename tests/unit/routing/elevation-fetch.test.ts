import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkTileBytes, tileUrl } from '../../../src/lib/routing/server/elevation-fetch.ts';
import { createElevationSource } from '../../../src/lib/routing/server/regions.ts';

/**
 * Heights from an elevation source in the skadi layout, served by a real HTTP server on this machine:
 * the bundled Andorra tile under its own name, and tiles that are broken in each way a source can be.
 */

const andorra = Object.values(
	unzipSync(readFileSync('data-regions/N42E001.hgt.zip'), { filter: (file) => file.name.endsWith('.hgt') }),
)[0];
const ANDORRA_LA_VELLA = { lat: 42.5063, lon: 1.5218 };

const served: Record<string, Uint8Array> = {
	'/skadi/N42/N42E001.hgt.gz': gzipSync(andorra),
	// A tile of the wrong size, and one that is all voids (0x8000 big-endian in every sample).
	'/skadi/N43/N43E001.hgt.gz': gzipSync(andorra.subarray(0, 1000)),
	'/skadi/N44/N44E001.hgt.gz': gzipSync(Buffer.alloc(1201 * 1201 * 2, Buffer.from([0x80, 0x00]))),
	// An HTML page where a tile should be.
	'/skadi/N45/N45E001.hgt.gz': Buffer.from('<!doctype html><title>Not here</title>'),
};
const asked: string[] = [];
let server: Server;
let template: string;
const folders: string[] = [];

function emptyFolder(): string {
	const folder = mkdtempSync(join(tmpdir(), 'mapstride-dem-'));
	folders.push(folder);
	return folder;
}

/** A source reading no bundled tile, fetching into a fresh folder. */
function fetchingSource() {
	const fetched = emptyFolder();
	const source = createElevationSource(
		[emptyFolder()],
		{ elevationUrl: template, fetchedDemDir: fetched },
		() => {},
	);
	return { source, fetched };
}

beforeAll(async () => {
	server = createServer((request, response) => {
		asked.push(request.url ?? '');
		const body = served[request.url ?? ''];
		if (!body) {
			response.writeHead(404).end('no such tile');
			return;
		}
		response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(body);
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	template = `http://127.0.0.1:${(server.address() as AddressInfo).port}/skadi/{tile_dir}/{tile}.hgt.gz`;
});

afterAll(async () => {
	await new Promise((resolve) => server.close(resolve));
	for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

describe('heights from an elevation source', () => {
	it('fills the skadi layout', () => {
		expect(tileUrl('https://h/skadi/{tile_dir}/{tile}.hgt.gz', 'S09W078')).toBe(
			'https://h/skadi/S09/S09W078.hgt.gz',
		);
	});

	it('has no height until the tile is fetched, then the height the tile holds, kept on disk', async () => {
		const { source, fetched } = fetchingSource();
		expect(source.getHeight(ANDORRA_LA_VELLA.lat, ANDORRA_LA_VELLA.lon)).toBeNull();
		await expect.poll(() => readdirSync(fetched)).toEqual(['N42E001.hgt']);
		const height = source.getHeight(ANDORRA_LA_VELLA.lat, ANDORRA_LA_VELLA.lon);
		// Andorra la Vella lies at about 1,020–1,080 m.
		expect(height).toBeGreaterThan(950);
		expect(height).toBeLessThan(1150);
		// Another server start reads the kept tile without asking the source.
		const before = asked.length;
		const again = createElevationSource([emptyFolder()], { demDirs: [fetched] }, () => {});
		expect(again.getHeight(ANDORRA_LA_VELLA.lat, ANDORRA_LA_VELLA.lon)).toBe(height);
		expect(asked.length).toBe(before);
	});

	it.each([
		['is missing at the source', 46, 'the source answered 404'],
		['has the wrong size', 43, 'Not an SRTM tile'],
		['is all voids', 44, 'every sample is a void'],
		['is an HTML page', 45, 'Not an SRTM tile'],
	])('keeps no tile that %s, says why, and asks again only later', async (_, lat, reason) => {
		const messages: string[] = [];
		const fetched = emptyFolder();
		const source = createElevationSource(
			[emptyFolder()],
			{ elevationUrl: template, fetchedDemDir: fetched },
			(m) => messages.push(m),
		);
		const path = `/skadi/N${lat}/N${lat}E001.hgt.gz`;
		expect(source.getHeight(lat + 0.5, 1.5)).toBeNull();
		await expect.poll(() => messages.join('\n')).toContain(reason);
		expect(readdirSync(fetched)).toEqual([]);
		const asks = asked.filter((url) => url === path).length;
		// Points in that tile still have no height, and the source is not asked again at once.
		expect(source.getHeight(lat + 0.5, 1.5)).toBeNull();
		expect(source.getHeight(lat + 0.6, 1.6)).toBeNull();
		await new Promise((resolve) => setTimeout(resolve, 100));
		expect(asked.filter((url) => url === path).length).toBe(asks);
	});

	it('checks bytes as a tile before keeping them', () => {
		expect(() => checkTileBytes(Buffer.from([0x1f, 0x8b, 1, 2, 3]))).toThrow('not a readable gzip file');
		expect(checkTileBytes(gzipSync(andorra)).length).toBe(andorra.length);
	});
});
