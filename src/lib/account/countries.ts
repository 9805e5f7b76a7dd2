/** Codes Intl knows that are not countries a member lives in: groupings, reserved and withdrawn codes. */
const NOT_COUNTRIES = new Set(
	(
		'EU EZ UN ZZ QO XA XB AQ BV HM TF UM AC CP DG EA IC TA CQ ' +
		'AN BU CS DD DY FX HV NH NQ NT PC PU PZ RH SU TP UK VD WK YD YU ZR'
	).split(' '),
);

/** ISO 3166 countries with English names, sorted by name, from the runtime's CLDR data. */
export function listCountries(locale = 'en'): { code: string; name: string }[] {
	const names = new Intl.DisplayNames([locale], { type: 'region', fallback: 'none' });
	const countries: { code: string; name: string }[] = [];
	for (let a = 65; a <= 90; a++) {
		for (let b = 65; b <= 90; b++) {
			const code = String.fromCharCode(a, b);
			if (NOT_COUNTRIES.has(code)) continue;
			const name = names.of(code);
			if (name && name !== code) countries.push({ code, name });
		}
	}
	return countries.sort((x, y) => x.name.localeCompare(y.name, locale));
}
