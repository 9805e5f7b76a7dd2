import { describe, expect, test } from 'vitest';
import { groupOfActivityType } from '../../../src/lib/workouts/activity-groups';
import { COMPENDIUM_MET } from '../../../src/lib/workouts/calories';
import {
	activityTypeGroup,
	compendiumEntryFor,
	listActivityTypes,
} from '../../../src/lib/workouts/server/activity-types';

describe('activity groups by id', () => {
	test("a type takes its root's group", () => {
		expect(groupOfActivityType(16, [])).toBe('run');
		expect(groupOfActivityType(5000, [25, 16])).toBe('run');
		expect(groupOfActivityType(5001, [13, 10])).toBe('winter_sport');
		expect(groupOfActivityType(5002, [59])).toBe('gym');
		expect(groupOfActivityType(5003, [])).toBe('other');
	});

	test('golf, basketball, baseball and yoga are their own group wherever they sit', () => {
		expect(groupOfActivityType(145, [21])).toBe('golf');
		expect(groupOfActivityType(259, [21])).toBe('basketball');
		expect(groupOfActivityType(134, [21])).toBe('baseball');
		expect(groupOfActivityType(78, [8])).toBe('yoga');
		// Below them the root decides again.
		expect(groupOfActivityType(5004, [145, 21])).toBe('other_sport');
	});

	test('ids we do not list still get their group from the id rules', () => {
		expect(activityTypeGroup(453)).toBe('ride');
		expect(activityTypeGroup(204)).toBe('walk');
		expect(activityTypeGroup(23)).toBe('class');
	});
});

describe('the activity type tree', () => {
	test('every parent exists and every Compendium activity carries its own MET and edition', () => {
		const types = listActivityTypes();
		const ids = new Set(types.map((type) => type.id));
		for (const type of types) {
			if (type.parent !== null) expect(ids.has(type.parent), `${type.id}`).toBe(true);
			if (type.compendium_code) {
				expect(type.met).toBeGreaterThan(0);
				// An edition's activity id is its code above that edition's base.
				expect(type.id - Number(type.compendium_code), `${type.id}`).toBe(
					type.compendium_edition === 2011 ? 100000 : 200000,
				);
			}
		}
		expect(compendiumEntryFor(112150)).toMatchObject({ code: '12150', met: 8, edition: 2011 });
		expect(compendiumEntryFor(212620)).toMatchObject({ code: '12620', met: 13, edition: 2024 });
		expect(compendiumEntryFor(16)).toEqual(COMPENDIUM_MET.run);
	});

	test('activities of the 2024 edition sit under the named types and take their groups', () => {
		expect(activityTypeGroup(212620)).toBe('run'); // Triathlon, running
		expect(activityTypeGroup(201080)).toBe('ride'); // E-bike without electronic support
		expect(activityTypeGroup(218104)).toBe('other'); // Kayaking, competition: under Water Activities
	});
});
