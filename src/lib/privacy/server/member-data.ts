import type { DeletionStep, ExportPart } from '../../core/server/member-data';
import { getConsentStatus, listConsentHistory } from './consents';
import { removeMemberExportFiles } from './export-files';
import { listDataAccess } from './service';
import { consentRecords, dataAccessLog, privacyCountries } from './tables';

/** The member's consents as they stand, and every answer they gave. */
export const consentsExport: ExportPart = {
	name: 'consents',
	tables: [consentRecords, privacyCountries],
	write: async (deps, member, archive) => {
		const status = await getConsentStatus(deps, member.id);
		archive.addJson('consents.json', {
			current: status.consents,
			history: await listConsentHistory(deps, member.id, 10_000),
		});
	},
};

/** Who read the member's location and health data, and why. */
export const dataAccessExport: ExportPart = {
	name: 'data access log',
	tables: [dataAccessLog],
	write: async (deps, member, archive) =>
		archive.addJson('data-access-log.json', { access_log: await listDataAccess(deps, member.id, 10_000) }),
};

/** Export archives are files: they go before the rows that name them. */
export const exportFilesDeletion: DeletionStep = {
	name: 'export archives',
	beforeRows: (deps, member) => removeMemberExportFiles(deps, member.id),
};
