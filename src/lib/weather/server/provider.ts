import type { WeatherObservation } from '../contract';

/**
 * What a provider answers for an hour at a place: the observation; `later` when it may have it
 * another time (not yet published, or the provider did not answer); `none` when it never will.
 */
export type WeatherAnswer =
	| { kind: 'observed'; observation: WeatherObservation }
	| { kind: 'later'; reason: string }
	| { kind: 'none'; reason: string };

/** A source of past weather. Only real providers implement it: without one, workouts show no weather. */
export interface WeatherProvider {
	/** Stored beside each answer, so a change of provider is visible in the data. */
	readonly name: string;
	/** Shown wherever its data is, as its licence asks. */
	readonly attribution: { text: string; href: string };
	observe(place: { lat: number; lng: number }, hour: Date, signal: AbortSignal): Promise<WeatherAnswer>;
}
