// The pool's thread entry when the server runs from source (Vitest, tsx): the thread has no
// TypeScript loader of its own, so it registers tsx before loading the real worker.
// After `npm run build` the pool runs dist/server/parse-worker.mjs instead, bundled by scripts/build.mjs.
import { register } from 'tsx/esm/api';

register();
const worker = await import('./parse-worker.ts');

export default worker.default;
