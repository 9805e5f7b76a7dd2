import tokens from '../../../styles/_tokens.scss?raw';
import { readMapPalette } from '../palette.ts';

/** The base map's colours, taken from the design tokens when the server bundle is built. */
export const MAP_PALETTE = readMapPalette(tokens);
