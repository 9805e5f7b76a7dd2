import type { users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import type { PublicUser, SelfUser } from '../contract';
import { timeZoneOffsetMinutes } from '../derived';

type UserRow = typeof users.$inferSelect;
type Link = { href: string; id: string; name?: string };

export function userLink(id: number): Link {
	return { href: `/v7.1/user/${id}/`, id: String(id) };
}

export function pictureHref(username: string, size: 'Small' | 'Medium'): string {
	return `/profile/${encodeURIComponent(username)}/picture?size=${size}`;
}

const PRIVACY_NAMES = ['profile', 'workout', 'route', 'email_search'] as const;

function privacyLinks(row: UserRow): Link[] {
	const levels = {
		profile: row.profilePrivacy,
		workout: row.workoutPrivacy,
		route: row.routePrivacy,
		email_search: row.emailSearchPrivacy,
	};
	return PRIVACY_NAMES.map((name) => ({
		href: `/v7.1/privacy_option/${levels[name]}/`,
		id: String(levels[name]),
		name,
	}));
}

export function presentPublicUser(row: UserRow): PublicUser {
	return {
		id: row.id,
		username: row.username,
		display_name: row.displayName || `${row.firstName} ${row.lastName.slice(0, 1)}`.trim(),
		first_name: row.firstName,
		last_initial: row.lastName ? `${row.lastName.slice(0, 1)}.` : '',
		location: { locality: row.locality, region: row.region, country: row.country },
		date_joined: formatApiDateTime(row.createdAt),
		goal_statement: row.goalStatement,
		introduction: row.introduction,
		_links: {
			self: [userLink(row.id)],
			image: [
				{ href: pictureHref(row.username, 'Small'), id: String(row.id), name: 'small' },
				{ href: pictureHref(row.username, 'Medium'), id: String(row.id), name: 'medium' },
			],
		},
	};
}

/** The member's own record (GET user/self/, login and refresh answers). */
export function presentSelfUser(row: UserRow, now: Date): SelfUser {
	const base = presentPublicUser(row);
	return {
		...base,
		email: row.email,
		email_verified: row.emailVerifiedAt !== null,
		last_name: row.lastName,
		gender: row.gender,
		birthdate: row.birthdate,
		time_zone: row.timeZone,
		time_zone_offset: timeZoneOffsetMinutes(row.timeZone, now),
		display_measurement_system: row.displayMeasurementSystem,
		week_start_day: row.weekStartDay,
		preferred_language: row.preferredLanguage,
		height: row.heightM,
		weight: row.weightKg,
		sharing: { twitter: false, facebook: false },
		communication: { newsletter: false, promotions: false },
		is_premium: row.isPremium,
		_links: { ...base._links, privacy: privacyLinks(row) },
	};
}
