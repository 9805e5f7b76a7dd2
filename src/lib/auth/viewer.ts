import * as v from 'valibot';

/**
 * Who is signed in, as pages and the session hint know them. Kept apart from the rest of the auth
 * contract so the shell's scripts, which read the hint on every page, carry no other schema.
 */
export const ViewerSchema = v.object({
	id: v.number(),
	username: v.string(),
	displayName: v.string(),
	/** MVP (premium) members see no promo banner. */
	isPremium: v.boolean(),
});
export type Viewer = v.InferOutput<typeof ViewerSchema>;
