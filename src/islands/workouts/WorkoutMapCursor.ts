import { atom } from 'nanostores';

/** The point under the workout charts' shared cursor, which the workout map marks; null when away. */
export const $workoutCursor = atom<{ lat: number; lng: number } | null>(null);
