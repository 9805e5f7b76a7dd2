// Every domain's tables and the shared request budgets' table, for Drizzle's schema and drizzle-kit. Domains import their own
// tables from their own folder; only lib/db reads this barrel.
export * from '../account/server/tables';
export * from '../analytics/server/tables';
export * from '../auth/server/tables';
export * from '../billing/server/tables';
export * from '../challenges/server/tables';
export * from '../connected-apps/server/tables';
export * from '../gear/server/tables';
export * from '../goals/server/tables';
export * from '../jobs/server/tables';
export * from '../mail/server/tables';
export * from '../privacy/server/tables';
export * from '../routes/server/tables';
export * from '../social/server/tables';
export * from '../stats/server/tables';
export * from '../support/server/tables';
export * from '../surveys/server/tables';
export * from '../weather/server/tables';
export * from '../workouts/server/tables';
export * from './rate-limit-table';
