/**
 * Time zones members choose from: the IANA zones of the runtime's Intl database, by their
 * Area/Location names, plus UTC. Browser and server read the same database, so a zone offered in
 * the form is one the server accepts.
 */
let listed: readonly string[] | undefined;

export function listTimeZones(): readonly string[] {
	listed ??= [...new Set(['UTC', ...Intl.supportedValuesOf('timeZone')])].sort();
	return listed;
}

/**
 * A listed zone, or an Area/Location alias of one (Chromium lists Asia/Kolkata where Node still
 * lists Asia/Calcutta), or IANA's fixed Etc/GMT±h zone a recording's stated clock offset is kept in
 * (never offered to choose: its sign is inverted); abbreviations, offsets and free text such as "EST"
 * or "GMT+5" are refused.
 */
export function isListedTimeZone(zone: string): boolean {
	if (listTimeZones().includes(zone)) return true;
	if (/^Etc\/GMT[+-](1[0-4]|[1-9])$/.test(zone)) return !/^Etc\/GMT\+1[3-4]$/.test(zone);
	if (
		!/^(Africa|America|Antarctica|Arctic|Asia|Atlantic|Australia|Europe|Indian|Pacific)\/[A-Za-z0-9_+-]+(\/[A-Za-z0-9_+-]+)?$/.test(
			zone,
		)
	)
		return false;
	try {
		new Intl.DateTimeFormat('en-US', { timeZone: zone });
		return true;
	} catch {
		return false;
	}
}

/** The zone this browser (or process) runs in, when it is one members can choose; else UTC. */
export function localTimeZone(): string {
	const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
	return zone && isListedTimeZone(zone) ? zone : 'UTC';
}
