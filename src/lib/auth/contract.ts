import * as v from 'valibot';

/** Who is making a request, as pages and endpoints see them. */
export const ViewerSchema = v.object({
	id: v.number(),
	username: v.string(),
	displayName: v.string(),
	/** MVP (premium) members see no promo banner. */
	isPremium: v.boolean(),
});
export type Viewer = v.InferOutput<typeof ViewerSchema>;
