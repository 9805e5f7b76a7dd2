import { type Context, Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { ApiEnv } from '../../api/context';
import { validate } from '../../api/validate';
import type { Viewer } from '../../auth/contract';
import { requireViewer } from '../../auth/server/middleware';
import { reauthenticate } from '../../auth/server/service';
import { AppError } from '../../core/errors';
import {
	type ConsentMatrix,
	ConsentQuerySchema,
	type ConsentUpdate,
	ConsentUpdateSchema,
	CountryConfirmSchema,
	currentMatrix,
	ExportRequestSchema,
	findMatrix,
	MatrixIdParamSchema,
	MatrixParamSchema,
	MatrixQuerySchema,
	type PrivacyRegion,
	regionForCountry,
} from '../contract';
import {
	confirmCountry,
	getConsentStatus,
	honourGlobalPrivacyControl,
	listConsentHistory,
	recordConsents,
} from './consents';
import { startExport } from './jobs';
import { listDataAccess, listExports, requestExport } from './service';

const viewerOf = (c: { var: { viewer: Viewer | null } }) => c.var.viewer as Viewer;

/** A browser's Global Privacy Control signal counts wherever the member's consents are read. */
async function readGpc(c: Context<ApiEnv>): Promise<void> {
	if (c.req.header('sec-gpc')?.trim() === '1') await honourGlobalPrivacyControl(c.var.deps, viewerOf(c).id);
}

function representMatrix(matrix: ConsentMatrix) {
	return {
		region: matrix.region,
		version: matrix.version,
		minimum_age: matrix.minimumAge,
		consents: matrix.consents.map((entry) => ({
			key: entry.key,
			required: entry.required,
			default_on: entry.defaultOn,
			changed_in_version: entry.since,
		})),
	};
}

function matrixOrNotFound(region: PrivacyRegion, version?: number): ConsentMatrix {
	const matrix = version === undefined ? currentMatrix(region) : findMatrix(region, version);
	if (!matrix) throw new AppError('not_found', 'No such consent matrix.', { detail: 'not_found' });
	return matrix;
}

/**
 * Consents, the privacy centre's exports and the data-access log, under /consent/v1/, and the
 * auth service's consent calls (consents-matrix, consents-status, update-consents).
 */
export function createPrivacyApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();
	app.use('/consent/*', async (c, next) => {
		await next();
		c.header('Cache-Control', 'private, no-store');
	});

	const status = async (c: Context<ApiEnv>) => {
		await readGpc(c);
		return c.json(await getConsentStatus(c.var.deps, viewerOf(c).id));
	};
	app.get(
		'/consent/v1/consent/status',
		describeRoute({ summary: "The signed-in member's consents against their region's current matrix" }),
		requireViewer,
		validate('query', ConsentQuerySchema),
		status,
	);
	app.get(
		'/auth/consents-status',
		describeRoute({ summary: "The signed-in member's consents (auth service)" }),
		requireViewer,
		validate('query', ConsentQuerySchema),
		status,
	);

	app.get(
		'/consent/v1/consent/matrix/:version',
		describeRoute({ summary: 'One version of a region’s consent matrix (the member’s region, or ?region=)' }),
		validate('param', MatrixParamSchema),
		validate('query', MatrixQuerySchema),
		async (c) => {
			const viewer = c.var.viewer;
			const region =
				c.req.valid('query').region ??
				(viewer ? (await getConsentStatus(c.var.deps, viewer.id)).region : regionForCountry('US'));
			return c.json(representMatrix(matrixOrNotFound(region, Number(c.req.valid('param').version))));
		},
	);
	app.get(
		'/auth/consents-matrix/:id',
		describeRoute({ summary: 'A region’s current consent matrix (EU1), or one version of it (EU1-1)' }),
		validate('param', MatrixIdParamSchema),
		(c) => {
			const [region, version] = c.req.valid('param').id.split('-');
			return c.json(
				representMatrix(matrixOrNotFound(region as PrivacyRegion, version ? Number(version) : undefined)),
			);
		},
	);

	const update = async (c: Context<ApiEnv>, body: ConsentUpdate) => {
		const deps = c.var.deps;
		const viewer = viewerOf(c);
		if (body.country) await confirmCountry(deps, viewer.id, body.country);
		const current = await getConsentStatus(deps, viewer.id);
		// Answers to an older matrix than the one shown now would record a version nobody saw.
		if (body.consent_matrix_version !== undefined && body.consent_matrix_version !== current.matrix_version)
			throw new AppError('conflict', 'The consent matrix changed; reload and answer again.', {
				detail: 'matrix_version_changed',
			});
		return c.json(await recordConsents(deps, viewer.id, body.consents, 'api'));
	};
	app.post(
		'/consent/v1/consent/status',
		describeRoute({ summary: 'Record staged consent changes together, one record each' }),
		requireViewer,
		validate('json', ConsentUpdateSchema),
		(c) => update(c, c.req.valid('json')),
	);
	app.post(
		'/auth/update-consents',
		describeRoute({ summary: 'Record staged consent changes together (auth service)' }),
		requireViewer,
		validate('json', ConsentUpdateSchema),
		(c) => update(c, c.req.valid('json')),
	);

	app.put(
		'/consent/v1/consent/country',
		describeRoute({ summary: 'Confirm or correct the country the member lives in' }),
		requireViewer,
		validate('json', CountryConfirmSchema),
		async (c) => c.json(await confirmCountry(c.var.deps, viewerOf(c).id, c.req.valid('json').country)),
	);

	app.get(
		'/consent/v1/consent/history',
		describeRoute({ summary: "The signed-in member's consent log, newest first" }),
		requireViewer,
		async (c) => c.json({ records: await listConsentHistory(c.var.deps, viewerOf(c).id) }),
	);

	app.get(
		'/consent/v1/exports',
		describeRoute({ summary: "The signed-in member's data exports and their progress" }),
		requireViewer,
		async (c) => c.json({ exports: await listExports(c.var.deps, viewerOf(c).id) }),
	);
	app.post(
		'/consent/v1/exports',
		describeRoute({
			summary: 'Ask for an archive of all your data (password again); a link arrives by e-mail',
		}),
		requireViewer,
		validate('json', ExportRequestSchema),
		async (c) => {
			await reauthenticate(c.var.deps, viewerOf(c), c.req.valid('json').password, {
				ip: c.var.clientIp,
				userAgent: c.req.header('user-agent') ?? '',
			});
			const { view, created } = await requestExport(c.var.deps, viewerOf(c).id);
			if (created) await startExport(c.var.deps, view.id);
			return c.json(view, created ? 202 : 200);
		},
	);

	app.get(
		'/consent/v1/access-log',
		describeRoute({ summary: 'Who or what read your location or health data, and when' }),
		requireViewer,
		async (c) => c.json({ entries: await listDataAccess(c.var.deps, viewerOf(c).id) }),
	);
	return app;
}
