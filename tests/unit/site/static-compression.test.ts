import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { compressOnFirstRequest } from '~/lib/site/server/static-compression';

/** Static files the build left uncompressed are compressed on first request and kept on disk. */
describe('compressing static files on first request', () => {
	let root: string;
	let app: Hono;
	const page = `<!doctype html><title>Harrisburg</title>${'<p>Routes near Harrisburg, PA</p>'.repeat(200)}`;

	beforeEach(() => {
		root = mkdtempSync(path.join(tmpdir(), 'mapstride-static-'));
		mkdirSync(path.join(root, 'us/pa/harrisburg'), { recursive: true });
		writeFileSync(path.join(root, 'us/pa/harrisburg/index.html'), page);
		writeFileSync(path.join(root, 'tiny.txt'), 'small');
		app = new Hono();
		app.use(compressOnFirstRequest(root));
		app.use(serveStatic({ root, precompressed: true }));
	});
	afterEach(() => rmSync(root, { recursive: true, force: true }));

	const get = (url: string, encoding?: string) =>
		app.request(url, { headers: encoding ? { 'accept-encoding': encoding } : {} });

	it('answers brotli, gzip and identity with the same page', async () => {
		const br = await get('/us/pa/harrisburg/', 'br');
		expect(br.headers.get('content-encoding')).toBe('br');
		expect(brotliDecompressSync(Buffer.from(await br.arrayBuffer())).toString()).toBe(page);

		const gz = await get('/us/pa/harrisburg/', 'gzip');
		expect(gz.headers.get('content-encoding')).toBe('gzip');
		expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).toString()).toBe(page);

		const plain = await get('/us/pa/harrisburg/');
		expect(plain.headers.get('content-encoding')).toBeNull();
		expect(await plain.text()).toBe(page);
	});

	it('keeps the copies beside the file and leaves tiny files alone', async () => {
		await get('/us/pa/harrisburg/index.html', 'gzip, br');
		expect(existsSync(path.join(root, 'us/pa/harrisburg/index.html.br'))).toBe(true);
		expect(existsSync(path.join(root, 'us/pa/harrisburg/index.html.gz'))).toBe(true);
		const tiny = await get('/tiny.txt', 'br');
		expect(tiny.headers.get('content-encoding')).toBeNull();
		expect(existsSync(path.join(root, 'tiny.txt.br'))).toBe(false);
	});

	it('compresses a page once when many ask at the same moment', async () => {
		const answers = await Promise.all(Array.from({ length: 8 }, () => get('/us/pa/harrisburg/', 'br')));
		for (const answer of answers) {
			expect(brotliDecompressSync(Buffer.from(await answer.arrayBuffer())).toString()).toBe(page);
		}
	});

	it('does not look outside the static folder', async () => {
		const answer = await get('/../../etc/passwd', 'br');
		expect(answer.status).toBe(404);
	});
});
