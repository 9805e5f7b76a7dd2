import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The real server (scripts/start.mjs) on loopback, with its own data folder. */
export function startServer(port: number, dataDir: string): ChildProcess {
	return spawn(process.execPath, [path.join(root, 'scripts/start.mjs')], {
		cwd: root,
		env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
		stdio: ['ignore', 'pipe', 'inherit'],
	});
}

/** Waits until a URL answers 2xx; a first start may build and import for a few minutes. */
export async function waitUntilUp(url: string, child: ChildProcess): Promise<void> {
	const deadline = Date.now() + 240_000;
	while (Date.now() < deadline) {
		if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
		try {
			if ((await fetch(url)).ok) return;
		} catch {
			// not listening yet
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`${url} did not come up`);
}
