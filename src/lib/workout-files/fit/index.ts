/**
 * FIT files (Garmin's binary format): `integrity.ts` checks headers and CRCs, `records.ts` and
 * `fields.ts` read definitions and record fields straight from the bytes, `read.ts` is the fast
 * reader built on them, `sdk.ts` the same through Garmin's own decoder, and `workout.ts` what both
 * do to turn sessions and laps into our workout.
 */
export { calculateFitCrc, looksLikeFit } from './integrity';
export { readFit } from './read';
export { countCompiledDecoders } from './records';
export { readFitWithSdk } from './sdk';
