/** A route of the demo world, routed over the bundled regions by generate.ts. */
export type DemoRoute = {
	name: string;
	description: string;
	activityType: number;
	privacy: 0 | 1 | 3 | 6;
	city: string;
	state: string;
	country: string;
	path: [number, number][];
	elevations: (number | null)[];
	cues: { instructions: string; lat: number; lng: number; shapeIndex: number }[];
};
