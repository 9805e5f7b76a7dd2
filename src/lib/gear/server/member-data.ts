import type { ExportPart } from '../../core/server/member-data';
import { listGear, representGear } from './service';
import { userGear } from './tables';

/** The member's shoes and bikes, retired ones too, with the distance each has worn. */
export const gearExport: ExportPart = {
	name: 'gear',
	tables: [userGear],
	write: async (deps, member, archive) =>
		archive.addJson('gear.json', (await listGear(deps, member)).map(representGear)),
};
