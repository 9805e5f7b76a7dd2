import * as v from 'valibot';
import { MAX_DB_INTEGER } from '../core/integers';

/*
 * MapMyFitness clients build a write from what they read: every reference travels in `_links` as a
 * list of `{href, id}` (`privacy: [{href: "/v7.1/privacy_option/3/", id: "3"}]`), often next to the
 * plain field that carries the same value. `halBody` accepts both forms of each reference a write
 * names, reads them as one value, and refuses a body whose two forms disagree. Links the server
 * works out itself (`self`, `thumbnail`…) are accepted as echoes and never read. Any other key,
 * in the body or in `_links`, is still refused.
 */

const MAX_ECHOED_LINKS = 20;

/** What `{href}` may say about the id: `/v7.1/<kind>/<id>/`, with or without the API prefix or the last slash. */
const hrefIds = (kind: string) => new RegExp(`^(?:/api)?/v7\\.1/${kind}/(\\d{1,10})/?$`);

/**
 * One link of `kind`, read as the id it names. The id comes as a string of digits or a number; an
 * `href`, when sent, must name the same kind and id.
 */
function linkId(name: string, kind: string) {
	const pattern = hrefIds(kind);
	return v.pipe(
		v.strictObject({
			href: v.optional(v.pipe(v.string(), v.maxLength(200))),
			id: v.union(
				[
					v.pipe(v.string(), v.regex(/^\d{1,10}$/)),
					v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(MAX_DB_INTEGER)),
				],
				`_links.${name} ids are whole numbers, such as "3".`,
			),
			name: v.optional(v.pipe(v.string(), v.maxLength(200))),
		}),
		v.check(
			(link) => link.href === undefined || pattern.exec(link.href)?.[1] === String(Number(link.id)),
			`_links.${name} href must be /v7.1/${kind}/<id>/ with the same id.`,
		),
		v.transform((link) => Number(link.id)),
		v.maxValue(MAX_DB_INTEGER, `_links.${name} does not name a ${kind}.`),
	);
}

/** `[{href, id}]`: one link of `kind`, read as its id. */
function linkList(name: string, kind: string) {
	return v.pipe(
		v.array(linkId(name, kind)),
		v.length(1, `_links.${name} holds exactly one link.`),
		v.transform(([id]) => id),
	);
}

/** A link the server writes (self, thumbnail, documentation…): accepted when a client sends it back, never read. */
const EchoedLinks = v.optional(
	v.pipe(
		v.array(
			v.object({
				href: v.optional(v.pipe(v.string(), v.maxLength(500))),
				id: v.optional(v.union([v.pipe(v.string(), v.maxLength(100)), v.number()])),
				name: v.optional(v.pipe(v.string(), v.maxLength(200))),
			}),
		),
		v.maxLength(MAX_ECHOED_LINKS),
	),
);

/**
 * A reference a write accepts in `_links`: the kind of resource it names, and the body field that
 * carries the same value in plain form, when there is one. Without a field the id is handed to the
 * handler in `links` (the caller's own `user`, the `route` of a bookmark).
 */
export type HalReference = { kind: string; field?: string };

type LinkOnly<TRefs extends Record<string, HalReference>> = {
	[K in keyof TRefs as TRefs[K] extends { field: string } ? never : K]?: number;
};

/** The output: the body as its plain fields give it (link values folded in), and the link-only ids. */
export type HalBodyOutput<
	TEntries extends v.ObjectEntries,
	TRefs extends Record<string, HalReference>,
> = v.InferOutput<v.StrictObjectSchema<TEntries, undefined>> & { links?: LinkOnly<TRefs> };

const pathTo = (input: unknown, ...keys: string[]) =>
	keys.map((key) => ({
		type: 'object' as const,
		origin: 'value' as const,
		input,
		key,
		value: undefined,
	})) as [v.ObjectPathItem, ...v.ObjectPathItem[]];

const sameValue = (a: unknown, b: unknown) =>
	typeof a === 'number' && typeof b === 'number' ? a === b : JSON.stringify(a) === JSON.stringify(b);

/**
 * A v7.1 write body: the plain `entries`, plus `_links` holding any of `references` (each
 * `[{href, id}]`) and the server's own `echoedLinks`. A reference given both ways must agree (400
 * naming the field); given only as a link, it fills the plain field, checked by that field's schema.
 */
export function halBody<
	const TEntries extends v.ObjectEntries,
	const TRefs extends Record<string, HalReference & { field?: keyof TEntries & string }>,
>(entries: TEntries, references: TRefs, echoedLinks: readonly string[] = []) {
	const linkEntries: v.ObjectEntries = {};
	for (const [name, reference] of Object.entries(references))
		linkEntries[name] = v.optional(linkList(name, reference.kind));
	for (const name of echoedLinks) linkEntries[name] = EchoedLinks;

	// A field a link may fill is optional here; its default or its being required applies once
	// both forms are read.
	const plain: v.ObjectEntries = { ...entries };
	const fieldRules = new Map<string, { value: v.GenericSchema; required: boolean; fallback: unknown }>();
	for (const reference of Object.values(references)) {
		if (!reference.field) continue;
		const entry = entries[reference.field] as v.GenericSchema;
		const optional = entry.type === 'optional';
		const value = optional
			? (v.unwrap(entry as v.OptionalSchema<v.GenericSchema, unknown>) as v.GenericSchema)
			: entry;
		fieldRules.set(reference.field, {
			value,
			required: !optional,
			fallback: optional ? v.getDefault(entry) : undefined,
		});
		plain[reference.field] = v.optional(value);
	}

	return v.pipe(
		v.strictObject({ ...plain, _links: v.optional(v.strictObject(linkEntries)) }),
		v.rawTransform(({ dataset, addIssue, NEVER }) => {
			const { _links: sent = {}, ...body } = dataset.value as Record<string, unknown> & {
				_links?: Record<string, unknown>;
			};
			const links: Record<string, number> = {};
			let failed = false;
			for (const [name, reference] of Object.entries(references)) {
				const id = sent[name] as number | undefined;
				const field = reference.field;
				if (!field) {
					if (id !== undefined) links[name] = id;
					continue;
				}
				const rule = fieldRules.get(field) as NonNullable<ReturnType<typeof fieldRules.get>>;
				let refused = false;
				if (id !== undefined) {
					const parsed = v.safeParse(rule.value, id);
					if (!parsed.success) {
						addIssue({
							message: `_links.${name}: ${parsed.issues[0].message}`,
							path: pathTo(dataset.value, '_links', name),
						});
						refused = true;
					} else if (body[field] === undefined) {
						body[field] = parsed.output;
					} else if (!sameValue(body[field], parsed.output)) {
						addIssue({
							message: `${field} and _links.${name} name different values; send one, or the same in both.`,
							path: pathTo(dataset.value, field),
						});
						refused = true;
					}
				}
				failed ||= refused;
				if (body[field] === undefined) {
					if (rule.required && !refused) {
						addIssue({
							message: `${field} is required (or _links.${name}).`,
							path: pathTo(dataset.value, field),
						});
						failed = true;
					} else if (rule.fallback !== undefined) body[field] = rule.fallback;
				}
			}
			if (failed) return NEVER;
			return { ...body, links } as unknown as HalBodyOutput<TEntries, TRefs>;
		}),
	) as unknown as v.GenericSchema<Record<string, unknown>, HalBodyOutput<TEntries, TRefs>>;
}
