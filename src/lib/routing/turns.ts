import { measureBearing, measureDistance } from './geo.ts';

/**
 * How a change of heading is told, shared by the engine (turns inside a trip) and the planner (turns at the
 * points where it joins separately routed gaps), so both word a turn alike.
 */
export interface Turn {
	/** Valhalla maneuver type. */
	type: number;
	phrase: string;
}

/** Valhalla maneuver type and wording for a change of heading (degrees, positive to the right). */
export function describeTurn(delta: number): Turn {
	const size = Math.abs(delta);
	const right = delta > 0;
	if (size < 25) return { type: 8, phrase: 'Continue' };
	if (size < 60) return right ? { type: 9, phrase: 'Bear right' } : { type: 16, phrase: 'Bear left' };
	if (size < 125) return right ? { type: 10, phrase: 'Turn right' } : { type: 15, phrase: 'Turn left' };
	if (size < 165)
		return right ? { type: 11, phrase: 'Make a sharp right' } : { type: 14, phrase: 'Make a sharp left' };
	return right ? { type: 12, phrase: 'Make a right U-turn' } : { type: 13, phrase: 'Make a left U-turn' };
}

/** The turn from one heading to the next (compass degrees). */
export function turnBetween(from: number, to: number): Turn {
	return describeTurn(((to - from + 540) % 360) - 180);
}

/** "Turn left onto Main Street.", "Continue on Main Street.", "Bear right to stay on PA 230.", "Turn left." */
export function phraseTurn(turn: Turn, way: string | null, previousWay: string | null): string {
	if (!way) return `${turn.phrase}.`;
	const straight = turn.type === 8;
	const staying = way === previousWay;
	return `${turn.phrase} ${staying ? (straight ? 'on' : 'to stay on') : 'onto'} ${way}.`;
}

/** Heading at the start (or end) of a line of `[lat, lon]` points, skipping points closer than a metre. */
export function findHeading(points: readonly (readonly [number, number])[], atEnd: boolean): number | null {
	if (points.length < 2) return null;
	if (atEnd) {
		const b = points[points.length - 1];
		for (let i = points.length - 2; i >= 0; i--) {
			const a = points[i];
			if (measureDistance(a[0], a[1], b[0], b[1]) > 1) return measureBearing(a[0], a[1], b[0], b[1]);
		}
		return null;
	}
	const a = points[0];
	for (let i = 1; i < points.length; i++) {
		const b = points[i];
		if (measureDistance(a[0], a[1], b[0], b[1]) > 1) return measureBearing(a[0], a[1], b[0], b[1]);
	}
	return null;
}
