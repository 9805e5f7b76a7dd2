import type { Table } from 'drizzle-orm';
import type { AppDeps, Db } from './deps';

/**
 * Each domain's share of what the house does with all of a member's data: their export and their
 * deletion. Domains declare their parts beside their own service; src/lib/api/member-data.ts
 * registers them in one place, and the privacy and account services run what is registered, so
 * neither reaches into another domain's data.
 */

/** The member whose data is exported, reading it as themself (a viewer of their own data). */
export type ExportedMember = {
	id: number;
	username: string;
	displayName: string;
	email: string;
	isPremium: boolean;
};

/** The archive a member's export is written into; every entry bears the time the export was built. */
export type ExportArchive = {
	/** A JSON file, laid out as every JSON file of the archive is. */
	addJson(name: string, value: unknown): void;
	/** A file whose bytes are at hand (text is written as UTF-8). */
	addBytes(name: string, bytes: Uint8Array | string): void;
	/** A file on the disk, read as the archive is written. */
	addFile(name: string, filePath: string): void;
};

/** One section of a member's data export, from the domain that owns its data. */
export type ExportPart = {
	/** What the section holds, as the test that every member table is exported names it. */
	name: string;
	/** The tables the section reads the member's data from. */
	tables: readonly Table[];
	/** Writes the member's data into the archive. */
	write: (deps: AppDeps, member: ExportedMember, archive: ExportArchive) => Promise<void>;
};

/** The member being deleted. */
export type DeletedMember = { id: number; email: string };

/**
 * One domain's clean-up when a member is deleted. The member's rows go in one transaction (foreign
 * keys cascade from users); a step does what the cascade cannot.
 */
export type DeletionStep = {
	name: string;
	/** While the member's rows still exist: what must end before they go, files the rows name. */
	beforeRows?: (deps: AppDeps, member: DeletedMember) => Promise<void>;
	/** Inside the transaction that deletes the member's row, after it: rows no foreign key ties to them. */
	withRows?: (db: Db, member: DeletedMember) => Promise<void>;
	/** The tables `withRows` empties of the member's rows. */
	clears?: readonly Table[];
	/** Once the member's rows are gone: what is kept by member id or address, outside the rows. */
	afterRows?: (deps: AppDeps, member: DeletedMember) => Promise<void>;
};

// In the order registered: the archive's sections follow it, and so do deletion's steps.
const exportParts = new Set<ExportPart>();
const deletionSteps = new Set<DeletionStep>();

/** Adds sections to every member's export; a section added twice is written once. */
export function registerExportParts(...parts: ExportPart[]): void {
	for (const part of parts) exportParts.add(part);
}

/** Adds steps to every member's deletion; a step added twice runs once. */
export function registerDeletionSteps(...steps: DeletionStep[]): void {
	for (const step of steps) deletionSteps.add(step);
}

/** Every export section, in order. None registered is an error: the archive would hold nothing. */
export function listExportParts(): readonly ExportPart[] {
	return registered(exportParts, 'export parts');
}

/** Every deletion step, in order. None registered is an error: sessions and billing would outlive the member. */
export function listDeletionSteps(): readonly DeletionStep[] {
	return registered(deletionSteps, 'deletion steps');
}

function registered<T>(entries: Set<T>, what: string): readonly T[] {
	if (entries.size === 0)
		throw new Error(`No ${what} are registered: import src/lib/api/member-data.ts, which registers them.`);
	return [...entries];
}
