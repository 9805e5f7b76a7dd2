import { atom } from 'nanostores';

/** The point under the elevation chart's cursor, which the route map marks; null when the cursor is away. */
export const $elevationCursor = atom<{ lat: number; lng: number } | null>(null);
