// Astro 7 and Vitest 5 need Node 22.12 or newer. npm scripts run the Node 24 that package.json
// installs into node_modules/.bin; a bare `node` may be an older system Node.
const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 12)) {
	console.error(
		`Mapstride needs Node 22.12 or newer; this is Node ${process.versions.node}.\n` +
			'Run it through npm (npm start), which uses the Node 24 installed by npm install.',
	);
	process.exit(1);
}
