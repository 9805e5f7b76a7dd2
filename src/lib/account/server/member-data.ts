import path from 'node:path';
import { heartRateZones, profilePhotos, promotionalPreferences, users } from '../../auth/server/tables';
import { formatApiDateTime } from '../../core/dates';
import type { ExportPart } from '../../core/server/member-data';
import { getConsentStatus } from '../../privacy/server/consents';
import { hideEndsOf, listPrivacyZones } from './location-privacy';
import { findProfilePhoto, getHeartRateZones, getSelf, listPromotionalPreferences } from './service';
import { locationPrivacySettings, privacyZones } from './tables';

/** The member's profile as they see it themself. */
export const profileExport: ExportPart = {
	name: 'profile',
	tables: [users],
	write: async (deps, member, archive) => archive.addJson('profile.json', await getSelf(deps, member)),
};

/**
 * How the member set up their account: their address, the privacy region they are in (the consent
 * status tells it), promotional choices, heart-rate zones and what their maps hide.
 */
export const settingsExport: ExportPart = {
	name: 'settings',
	// The privacy region's tables are the consents section's.
	tables: [users, promotionalPreferences, heartRateZones, locationPrivacySettings, privacyZones],
	write: async (deps, member, archive) => {
		const status = await getConsentStatus(deps, member.id);
		archive.addJson('settings.json', {
			email: member.email,
			country: status.country,
			privacy_region: status.region,
			do_not_sell_applies: status.do_not_sell_applies,
			promotional_preferences: await listPromotionalPreferences(deps, member.id),
			heart_rate_zones: (await getHeartRateZones(deps, member, member.id))._embedded.heart_rate_zones[0]
				.zones,
			location_privacy: {
				hide_route_ends_m: await hideEndsOf(deps, member.id),
				privacy_zones: (await listPrivacyZones(deps, member)).map((zone) => ({
					name: zone.name,
					lat: zone.lat,
					lng: zone.lng,
					radius_m: zone.chosenRadiusM,
					created_datetime: formatApiDateTime(zone.createdAt),
				})),
			},
		});
	},
};

/** The member's profile photo, at the size the site shows it. */
export const profilePhotoExport: ExportPart = {
	name: 'profile photo',
	tables: [profilePhotos],
	write: async (deps, member, archive) => {
		const photo = await findProfilePhoto(deps, member.id, member.username, 'Medium');
		if (photo) archive.addFile(`photos/profile${path.extname(photo.file)}`, photo.file);
	},
};
