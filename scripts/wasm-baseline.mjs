// The embedded database is PostgreSQL compiled to WebAssembly. V8 compiles it first with its baseline
// compiler, then recompiles the functions that run hot with its optimising one, and each of those
// recompilations of PostgreSQL's large functions holds several hundred MB for a moment (see the
// README's memory figures): enough to stop the small machine a club or a family runs us on. The
// price is slower SQL inside PGlite. PostgreSQL deployments are unaffected, and
// MAPSTRIDE_WASM_OPTIMISE=1 keeps the optimising compiler for an embedded server with memory to spare.
const BASELINE_ONLY = '--liftoff-only';

/** The V8 flags the server runs with, for the environment it is started in. */
export function wasmFlags(env = process.env) {
	return env.DATABASE_URL || env.MAPSTRIDE_WASM_OPTIMISE === '1' ? [] : [BASELINE_ONLY];
}

/**
 * The flag is read only from the command line, so a server started without it replaces itself,
 * same process id, with the same command and the flag, before the database loads.
 */
export function relaunchWithWasmFlags() {
	const missing = wasmFlags().filter((flag) => !process.execArgv.includes(flag));
	if (missing.length === 0 || typeof process.execve !== 'function') return;
	process.execve(process.execPath, [
		process.execPath,
		...missing,
		...process.execArgv,
		...process.argv.slice(1),
	]);
}
