// @ts-check
import node from '@astrojs/node';
import react from '@astrojs/react';
import { defineConfig } from 'astro/config';

export default defineConfig({
	output: 'static',
	// Middleware mode: scripts/start.mjs owns the HTTP server and sends every request, static files
	// included, through src/fetch.ts so all responses get the same headers and compression.
	adapter: node({ mode: 'middleware' }),
	// Members sign in with our own cookies (lib/auth); Astro's sessions would only add a store.
	session: false,
	// No page is written in Markdown, and Shiki's inline styles would not pass the CSP anyway.
	markdown: { syntaxHighlight: false },
	// Hashes of every script and style Astro emits go into a CSP <meta>; frame-ancestors and the
	// other header-only directives come from lib/api/security-headers.ts.
	security: { csp: true },
	integrations: [react()],
});
