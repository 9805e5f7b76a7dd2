import type { DeletionStep, ExportPart } from '../../core/server/member-data';
import { forgetDeviceClouds, listDeviceConnections } from './device-sync';
import { deviceConnections, deviceImports } from './tables';

/** The device clouds connected and what each brought in; the clouds' tokens are never exported. */
export const deviceConnectionsExport: ExportPart = {
	name: 'device connections',
	tables: [deviceConnections, deviceImports],
	write: async (deps, member, archive) =>
		archive.addJson('device_connections.json', await listDeviceConnections(deps, member.id)),
};

/** Device clouds are told we no longer read the member's activities. */
export const deviceCloudsDeletion: DeletionStep = {
	name: 'device clouds',
	beforeRows: (deps, member) => forgetDeviceClouds(deps, member.id),
};
