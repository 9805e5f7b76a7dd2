/*
 * Numbers as every page writes them ("12,345"; "3.5"). The formatters are built once: building one
 * per call cost the dashboard and stats pages a sixth to a quarter of their time.
 */

const grouped = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const oneDecimal = new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 });

/** A whole number with thousands separators: 12345.6 → "12,346". */
export function formatWholeNumber(value: number): string {
	return grouped.format(Math.round(value));
}

/** At most one decimal, with thousands separators: 1234.56 → "1,234.6", 3 → "3". */
export function formatOneDecimal(value: number): string {
	return oneDecimal.format(value);
}
