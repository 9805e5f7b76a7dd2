import { eq } from 'drizzle-orm';
import type { Viewer } from '../../auth/contract';
import { users } from '../../auth/server/tables';
import type { AppDeps } from '../../core/server/deps';
import { readGeoCookie } from '../../site/privacy-request';
import { profileSearchHome, type SearchHome } from '../geocode.ts';

/**
 * Where a place search comes from: a signed-in member's profile country (and region), which they
 * chose, wins over where their connection happens to be; without one, the visitor's `ms_geo` cookie.
 */
export async function searchHomeFor(
	deps: Pick<AppDeps, 'db'>,
	viewer: Viewer | null,
	cookieHeader: string | null | undefined,
): Promise<SearchHome> {
	if (viewer) {
		const [row] = await deps.db
			.select({ country: users.country, region: users.region })
			.from(users)
			.where(eq(users.id, viewer.id))
			.limit(1);
		const home = row && profileSearchHome(row);
		if (home) return home;
	}
	return readSearchHome(cookieHeader);
}

/**
 * Where a visitor's search comes from: their `ms_geo` cookie (`US-PA`, set from our proxy's geo
 * headers), else the United States, where most members are. Read here, beside the request, so the
 * engine itself knows nothing of cookies.
 */
export function readSearchHome(cookieHeader: string | null | undefined): SearchHome {
	return readGeoCookie(cookieHeader) ?? { country: 'US', region: null };
}
