import { profileExport, profilePhotoExport, settingsExport } from '../account/server/member-data';
import { signInsDeletion } from '../auth/server/member-data';
import { billingDeletion, membershipExport } from '../billing/server/member-data';
import { challengesExport } from '../challenges/server/member-data';
import { deviceCloudsDeletion, deviceConnectionsExport } from '../connected-apps/server/member-data';
import { registerDeletionSteps, registerExportParts } from '../core/server/member-data';
import { gearExport } from '../gear/server/member-data';
import { goalsExport } from '../goals/server/member-data';
import { consentsExport, dataAccessExport, exportFilesDeletion } from '../privacy/server/member-data';
import { bookmarksExport, routesExport } from '../routes/server/member-data';
import { commentsExport, feedExport, friendsExport } from '../social/server/member-data';
import { changeMarksDeletion } from '../stats/server/member-data';
import { surveysExport } from '../surveys/server/member-data';
import { workoutsDeletion, workoutsExport } from '../workouts/server/member-data';

/**
 * Each domain's part of a member's data, in one place beside the API's sub-apps. The export's
 * sections are written in this order; a domain that keeps member data adds its section here
 * (tests/unit/core/member-data.test.ts fails while a member table is in none).
 */
registerExportParts(
	profileExport,
	settingsExport,
	consentsExport,
	profilePhotoExport,
	routesExport,
	bookmarksExport,
	workoutsExport,
	gearExport,
	deviceConnectionsExport,
	goalsExport,
	challengesExport,
	friendsExport,
	commentsExport,
	feedExport,
	membershipExport,
	surveysExport,
	dataAccessExport,
);

/**
 * Deletion runs each phase of these steps in this order: sign-ins end first, billing closes before
 * its rows go, files go before the rows that name them.
 */
registerDeletionSteps(
	signInsDeletion,
	billingDeletion,
	exportFilesDeletion,
	workoutsDeletion,
	deviceCloudsDeletion,
	changeMarksDeletion,
);
