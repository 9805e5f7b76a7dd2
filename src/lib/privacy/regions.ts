/**
 * Which privacy law a country answers. Browser-safe and free of valibot, so the pages' own scripts
 * (the analytics beacon asks whether a visitor must opt in) read the same lists as the server.
 */
export const PRIVACY_REGIONS = ['US', 'EU1', 'EU2'] as const;
export type PrivacyRegion = (typeof PRIVACY_REGIONS)[number];

const EU1_COUNTRIES = ['DE', 'FR', 'ES', 'IT', 'CN', 'HK', 'KR', 'PL', 'RO', 'RU', 'AT', 'CH', 'CY'];
/** Most other European countries, plus the non-European countries whose laws we treat alike. */
const EU2_COUNTRIES = [
	...['AD', 'AL', 'BA', 'BE', 'BG', 'BY', 'CZ', 'DK', 'EE', 'FI', 'FO', 'GB', 'GI', 'GR', 'HR', 'HU'],
	...['IE', 'IS', 'LI', 'LT', 'LU', 'LV', 'MC', 'MD', 'ME', 'MK', 'MT', 'NL', 'NO', 'PT', 'RS', 'SE'],
	...['SI', 'SK', 'SM', 'UA', 'VA', 'XK'],
	...['CA', 'AU', 'BR', 'JP', 'MX', 'SG'],
];

/** Which consent matrix a country's members answer; the rest of the world answers the US one. */
export function regionForCountry(country: string | null | undefined): PrivacyRegion {
	const code = (country ?? '').toUpperCase();
	if (EU1_COUNTRIES.includes(code)) return 'EU1';
	if (EU2_COUNTRIES.includes(code)) return 'EU2';
	return 'US';
}
