import * as v from 'valibot';
import { describe, expect, test } from 'vitest';
import { halBody } from '../../../src/lib/api/hal-links';

const Body = halBody(
	{
		name: v.string(),
		privacy: v.optional(v.picklist([0, 1, 3]), 0),
		activity_type: v.pipe(v.number(), v.integer(), v.minValue(1)),
	},
	{
		privacy: { kind: 'privacy_option', field: 'privacy' },
		activity_type: { kind: 'activity_type', field: 'activity_type' },
		user: { kind: 'user' },
	},
	['self'],
);

const fields = (input: unknown) => {
	const result = v.safeParse(Body, input);
	return result.success ? [] : result.issues.map((issue) => v.getDotPath(issue) ?? '__all__');
};

describe('halBody', () => {
	test('reads a reference from _links as its plain field would be, and hands link-only ids on', () => {
		expect(
			v.parse(Body, {
				name: 'Loop',
				_links: {
					privacy: [{ href: '/v7.1/privacy_option/3/', id: '3' }],
					activity_type: [{ href: '/v7.1/activity_type/16/', id: 16 }],
					user: [{ href: '/v7.1/user/12/', id: '12' }],
					self: [{ href: '/v7.1/route/4/', id: '4' }],
				},
			}),
		).toEqual({ name: 'Loop', privacy: 3, activity_type: 16, links: { user: 12 } });
	});

	test('keeps the plain field, its default, and its being required', () => {
		expect(v.parse(Body, { name: 'Loop', activity_type: 9 })).toEqual({
			name: 'Loop',
			privacy: 0,
			activity_type: 9,
			links: {},
		});
		expect(fields({ name: 'Loop' })).toEqual(['activity_type']);
	});

	test('accepts both forms when they agree and refuses them, naming the field, when they do not', () => {
		const links = { privacy: [{ id: '3' }], activity_type: [{ id: '9' }] };
		expect(v.parse(Body, { name: 'Loop', privacy: 3, activity_type: 9, _links: links }).privacy).toBe(3);
		expect(fields({ name: 'Loop', privacy: 1, activity_type: 9, _links: links })).toEqual(['privacy']);
	});

	test('checks a link value with the plain field’s rules, and its href against its kind and id', () => {
		expect(fields({ name: 'Loop', activity_type: 9, _links: { privacy: [{ id: '2' }] } })).toEqual([
			'_links.privacy',
		]);
		for (const link of [
			{ href: '/v7.1/activity_type/3/', id: '3' },
			{ href: '/v7.1/privacy_option/1/', id: '3' },
			{ id: 'three' },
		])
			expect(fields({ name: 'Loop', activity_type: 9, _links: { privacy: [link] } })).not.toEqual([]);
		expect(
			fields({ name: 'Loop', activity_type: 9, _links: { privacy: [{ id: '3' }, { id: '1' }] } }),
		).not.toEqual([]);
	});

	test('still refuses unknown keys and unknown links', () => {
		expect(fields({ name: 'Loop', activity_type: 9, owner: 12 })).not.toEqual([]);
		expect(fields({ name: 'Loop', activity_type: 9, _links: { owner: [{ id: '12' }] } })).not.toEqual([]);
	});
});
