import { type ActivityGroup, groupOfActivityType } from '../activity-groups';
import data from '../activity-types.json' with { type: 'json' };
import { COMPENDIUM_MET, type CompendiumEntry } from '../calories';

type ActivityTypeEntry = {
	id: number;
	name: string;
	parent: number | null;
	met?: number;
	compendium_code?: string;
	/** The Compendium edition the code and MET come from; the two editions reuse some codes. */
	compendium_edition?: 2011 | 2024;
};

export type ActivityType = ActivityTypeEntry & {
	/** Parent first, root last. */
	ancestors: number[];
	hasChildren: boolean;
	group: ActivityGroup;
};

/** Where the list comes from; the API and the data file say it. */
export const ACTIVITY_TYPES_ATTRIBUTION: string = data.attribution;

const entries = data.types as ActivityTypeEntry[];
const byId = new Map<number, ActivityTypeEntry>(entries.map((entry) => [entry.id, entry]));
const parents = new Set(entries.flatMap((entry) => (entry.parent === null ? [] : [entry.parent])));

function ancestorsOf(entry: ActivityTypeEntry): number[] {
	const chain: number[] = [];
	for (let parent = entry.parent; parent !== null && chain.length < 20; ) {
		chain.push(parent);
		parent = byId.get(parent)?.parent ?? null;
	}
	return chain;
}

const types: ActivityType[] = entries.map((entry) => {
	const ancestors = ancestorsOf(entry);
	return {
		...entry,
		ancestors,
		hasChildren: parents.has(entry.id),
		group: groupOfActivityType(entry.id, ancestors),
	};
});
const typeById = new Map(types.map((type) => [type.id, type]));

export function listActivityTypes(): readonly ActivityType[] {
	return types;
}

export function findActivityType(id: number): ActivityType | undefined {
	return typeById.get(id);
}

/** The group of any id: a listed type by its tree, another (a MapMyFitness id we do not list) by the id rules alone. */
export function activityTypeGroup(id: number): ActivityGroup {
	return typeById.get(id)?.group ?? groupOfActivityType(id, []);
}

/** The type's own Compendium MET when it is a Compendium activity, else its group's. */
export function compendiumEntryFor(id: number): CompendiumEntry {
	const type = typeById.get(id);
	if (type?.met !== undefined && type.compendium_code && type.compendium_edition)
		return {
			code: type.compendium_code,
			met: type.met,
			description: type.name,
			edition: type.compendium_edition,
		};
	return COMPENDIUM_MET[activityTypeGroup(id)];
}
