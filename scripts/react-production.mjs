/**
 * React picks its build from NODE_ENV the first time it is loaded, and the embedded default leaves
 * NODE_ENV unset, which would render every page with React's development build (a seventh of the
 * server's time). `npm start` serves members, so React is loaded here in its production build,
 * whatever mode the product itself runs in; React's development checks are `npm run dev`'s.
 */
const mode = process.env.NODE_ENV;
process.env.NODE_ENV = 'production';
try {
	await Promise.all([import('react'), import('react/jsx-runtime'), import('react-dom/server')]);
} finally {
	if (mode === undefined) delete process.env.NODE_ENV;
	else process.env.NODE_ENV = mode;
}
