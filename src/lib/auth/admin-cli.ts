import { getConfig } from '../core/config';
import { openDb } from '../db/client';
import { setAdmin } from './server/service';

const USAGE = `Usage (make a member an operator who may open /admin; stop the server first on the embedded database):
  npm run admin -- grant <email>
  npm run admin -- revoke <email>`;

const [command, email] = process.argv.slice(2);
if ((command !== 'grant' && command !== 'revoke') || !email) {
	console.log(USAGE);
	process.exit(command ? 1 : 0);
}
const config = getConfig();
const handle = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
	const found = await setAdmin({ db: handle.db }, email, command === 'grant');
	if (!found) {
		console.error(`No member has the email ${email}.`);
		process.exitCode = 1;
	} else
		console.log(
			command === 'grant' ? `${email} may now open /admin.` : `${email} may no longer open /admin.`,
		);
} finally {
	await handle.close();
}
