import { readFileSync } from 'node:fs';
import pino from 'pino';
import * as v from 'valibot';
import { getConfig } from '../core/config';
import { openDb } from '../db/client';
import { ChallengeInputSchema } from './contract';
import { listAllChallenges } from './server/admin';
import { createChallenge, endChallenge, updateChallenge } from './server/organise';

const USAGE = `Usage (the operator's tool for challenges; stop the server first on the embedded database):
  npm run challenges -- list
  npm run challenges -- create <challenge.json>
  npm run challenges -- edit <id or name> <challenge.json>
  npm run challenges -- end <id or name>

challenge.json: {"name": "June Run", "metric": "distance", "activity_groups": ["run"],
  "starts_on": "2026-06-01", "ends_on": "2026-06-30", "target": 100000, "prizes": ["Badge"]}
A team challenge adds "mode": "team" and its teams: "teams": ["Harriers", "Striders"].
Targets are in metres (distance, climb), seconds (duration), workouts (count) or kcal (calories).`;

function readInput(file: string | undefined) {
	if (!file) throw new Error(USAGE);
	const parsed = v.safeParse(ChallengeInputSchema, JSON.parse(readFileSync(file, 'utf8')));
	if (!parsed.success)
		throw new Error(
			parsed.issues.map((issue) => `${v.getDotPath(issue) ?? 'challenge'}: ${issue.message}`).join('\n'),
		);
	return parsed.output;
}

const [command, ...rest] = process.argv.slice(2);
const config = getConfig();
const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
const deps = { db: handle.db, config, logger: pino({ level: 'warn' }), clock: () => new Date() };
try {
	if (command === 'list') {
		for (const row of await listAllChallenges(deps))
			console.log(
				`${row.id}\t${row.slug ?? ''}\t${row.name}\t${row.metric} ${row.target}\t${row.startsOn}…${row.endsOn}${row.endedAt ? '\tended' : ''}`,
			);
	} else if (command === 'create') {
		const row = await createChallenge(deps, readInput(rest[0]));
		console.log(`Created challenge ${row.id}: /challenges/${row.slug ?? row.id}`);
	} else if (command === 'edit' && rest[0]) {
		const row = await updateChallenge(deps, rest[0], readInput(rest[1]));
		console.log(`Updated challenge ${row.id} and recounted its participants.`);
	} else if (command === 'end' && rest[0]) {
		const row = await endChallenge(deps, rest[0]);
		console.log(`Ended challenge ${row.id}; its standings are final.`);
	} else {
		console.log(USAGE);
		process.exitCode = command ? 1 : 0;
	}
} catch (error) {
	console.error(error instanceof Error ? error.message : error);
	process.exitCode = 1;
} finally {
	await handle.close();
}
