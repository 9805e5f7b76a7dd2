import { formatApiDateTime } from '../../core/dates';
import type { ExportPart } from '../../core/server/member-data';
import { listBookmarks } from './bookmarks';
import { routeToGpx } from './files';
import { listOwnRoutes } from './lists';
import { routeBookmarks, routes } from './tables';

/** The member's routes: a list, and each route as GPX. */
export const routesExport: ExportPart = {
	name: 'routes',
	tables: [routes],
	write: async (deps, member, archive) => {
		const own = await listOwnRoutes(deps, member.id);
		archive.addJson(
			'routes.json',
			own.map((route) => ({
				id: route.id,
				name: route.name,
				distance: route.distanceM,
				privacy: route.privacy,
				created_datetime: formatApiDateTime(route.createdAt),
				gpx: `routes/${route.id}.gpx`,
			})),
		);
		for (const route of own) archive.addBytes(`routes/${route.id}.gpx`, routeToGpx(route).body);
	},
};

/** The routes the member bookmarked (as far as they may still see them). */
export const bookmarksExport: ExportPart = {
	name: 'bookmarks',
	tables: [routeBookmarks],
	write: async (deps, member, archive) => {
		const { bookmarks } = await listBookmarks(deps, member, { limit: 10_000 });
		archive.addJson(
			'bookmarks.json',
			bookmarks.map((bookmark) => ({
				route: bookmark.routeId,
				name: bookmark.route.name,
				created_datetime: formatApiDateTime(bookmark.createdAt),
			})),
		);
	},
};
