import { getTableName, is, type Table } from 'drizzle-orm';
import { getTableConfig, PgTable } from 'drizzle-orm/pg-core';
import { describe, expect, test } from 'vitest';
import '../../../src/lib/api/member-data';
import { listDeletionSteps, listExportParts } from '../../../src/lib/core/server/member-data';
import * as tables from '../../../src/lib/db/tables';

const allTables: PgTable[] = Object.values(tables as Record<string, unknown>).filter(
	(value): value is PgTable => is(value, PgTable),
);
const names = (list: readonly Table[]) => list.map((table) => getTableName(table));

/**
 * The tables that hold a member's data: those a foreign key ties to the member and that go with
 * them (ON DELETE CASCADE), directly or through another such table (a workout's photos).
 */
function memberTables(): string[] {
	const found = new Set(['users']);
	for (let grew = true; grew; ) {
		grew = false;
		for (const table of allTables) {
			const config = getTableConfig(table);
			if (found.has(config.name)) continue;
			const owned = config.foreignKeys.some(
				(key) => key.onDelete === 'cascade' && found.has(getTableName(key.reference().foreignTable)),
			);
			if (owned) {
				found.add(config.name);
				grew = true;
			}
		}
	}
	return [...found].sort();
}

/**
 * Member tables the archive does not carry, each with what it holds. A new member table goes into a
 * section of the export or here, by decision.
 */
const NOT_EXPORTED: Record<string, string> = {
	refresh_tokens: 'sign-in secrets',
	one_time_tokens: 'sign-in secrets',
	member_authenticators: 'sign-in secrets',
	recovery_codes: 'sign-in secrets',
	device_authorizations: 'a device cloud’s sign-in while it is being connected',
	oauth_codes: 'a connected app’s secrets',
	oauth_tokens: 'a connected app’s secrets',
	oauth_clients: 'the apps the member registered as a developer',
	oauth_grants: 'the apps the member connected',
	app_data_access_log: 'what connected apps read',
	outbox_messages: 'mail to the member',
	email_opt_outs: 'the kinds of optional mail the member turned off',
	data_exports: 'the exports themselves',
	support_requests: 'the member’s messages to support',
	notification_reads: 'up to when the member has seen their notifications',
	challenge_pace_confirmations: 'workouts confirmed after a pace faster than the world record',
	best_efforts: 'best efforts, found again from the workouts',
	best_effort_queue: 'workouts waiting for their best efforts to be found',
	workout_series: 'the workouts’ recorded time series',
	workout_held_data: 'what the member has not consented to have processed; nothing reads it but consent',
	workout_weather: 'the weather at a workout, from a weather service',
	workout_bulk_imports: 'imports under way',
	workout_uploads: 'uploads under way',
};

describe('each domain’s part of a member’s export', () => {
	const parts = listExportParts();

	test('every table holding a member’s data is in a section of the export, or named as left out', () => {
		const exported = new Set(parts.flatMap((part) => names(part.tables)));
		const missing = memberTables().filter((name) => !exported.has(name) && !(name in NOT_EXPORTED));
		expect(missing).toEqual([]);
	});

	test('what is named as left out is member data that no section exports', () => {
		const member = new Set(memberTables());
		const exported = new Set(parts.flatMap((part) => names(part.tables)));
		for (const name of Object.keys(NOT_EXPORTED)) {
			expect(member.has(name), name).toBe(true);
			expect(exported.has(name), name).toBe(false);
		}
	});

	test('sections have distinct names and name the tables they read', () => {
		expect(new Set(parts.map((part) => part.name)).size).toBe(parts.length);
		for (const part of parts) expect(part.tables.length, part.name).toBeGreaterThan(0);
	});
});

describe('each domain’s part of a member’s deletion', () => {
	test('every foreign key to a member lets the member go: their rows are removed, or no longer name them', () => {
		const blocking = allTables.flatMap((table) =>
			getTableConfig(table)
				.foreignKeys.filter(
					(key) =>
						getTableName(key.reference().foreignTable) === 'users' &&
						key.onDelete !== 'cascade' &&
						key.onDelete !== 'set null',
				)
				.map(() => getTableName(table)),
		);
		expect(blocking).toEqual([]);
	});

	test('a row naming a member without a foreign key to them goes with a row that has one, or a deletion step clears it', () => {
		const cleared = new Set(listDeletionSteps().flatMap((step) => names(step.clears ?? [])));
		const removedWithMember = new Set(memberTables());
		const memberColumn = /^(user|owner|author|actor|member)_id$/;
		const unattended = allTables.flatMap((table) => {
			const config = getTableConfig(table);
			const tied = new Set(
				config.foreignKeys
					.filter((key) => getTableName(key.reference().foreignTable) === 'users')
					.flatMap((key) => key.reference().columns.map((column) => column.name)),
			);
			return config.columns
				.filter((column) => memberColumn.test(column.name) && !tied.has(column.name))
				.filter(() => !removedWithMember.has(config.name) && !cleared.has(config.name))
				.map((column) => `${config.name}.${column.name}`);
		});
		expect(unattended).toEqual([]);
	});

	test('a step that clears tables does so inside the deletion’s transaction', () => {
		for (const step of listDeletionSteps())
			if (step.clears?.length) expect(step.withRows, step.name).toBeTypeOf('function');
	});
});
