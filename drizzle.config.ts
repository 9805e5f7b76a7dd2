import { defineConfig } from 'drizzle-kit';

export default defineConfig({
	dialect: 'postgresql',
	schema: './src/lib/db/tables.ts',
	out: './src/lib/db/migrations',
});
