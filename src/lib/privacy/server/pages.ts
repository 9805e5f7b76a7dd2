import { listCountries } from '../../account/countries';
import { safeNextPath, type Viewer } from '../../auth/contract';
import { reauthenticate } from '../../auth/server/service';
import type { AppDataAccess } from '../../connected-apps/contract';
import { listAppDataAccess } from '../../connected-apps/server/service';
import { AppError } from '../../core/errors';
import type { AppDeps } from '../../core/server/deps';
import { loginPathFor } from '../../site/guards';
import { GEO_COOKIE, parseGeo } from '../../site/privacy-request';
import {
	type AccessLogEntry,
	CONSENT_KEYS,
	type ConsentKey,
	type ConsentStatus,
	isDoNotSellPlace,
} from '../contract';
import { confirmCountry, getConsentStatus, listConsentHistory, recordConsents } from './consents';
import { startExport } from './jobs';
import { listDataAccess, listExports, requestExport } from './service';

type Deps = Pick<AppDeps, 'db' | 'config' | 'logger' | 'clock'>;

/** Where the privacy centre's pages live: the site's, or the app webview's under /mobile/. */
export function privacyBase(pathname: string): string {
	return pathname.startsWith('/mobile/') ? '/mobile/privacy_center' : '/privacy_center';
}

export function countryName(code: string): string {
	return listCountries().find((country) => country.code === code)?.name ?? code;
}

/**
 * The do-not-sell banner shows to members whose own place is a universal opt-out state, and to
 * visitors the proxy places there.
 */
function showsDoNotSell(
	status: ConsentStatus | null,
	geo: { country: string; region: string | null } | null,
) {
	return status?.do_not_sell_applies || isDoNotSellPlace(geo?.country, geo?.region);
}

/** A page request's privacy signals: the browser's GPC header and the proxy's geo cookie. */
function readPrivacySignals(request: Request, geoCookie: string | undefined) {
	return { gpc: request.headers.get('sec-gpc')?.trim() === '1', geo: parseGeo(geoCookie) };
}

/** The consent state a page shows (src/middleware.ts has already recorded a GPC signal). */
async function loadConsentPage(deps: Deps, userId: number) {
	const status = await getConsentStatus(deps, userId);
	return { status, countryName: countryName(status.country) };
}

/** A connected app's read as the access log says it: an app given workouts without places read health data. */
function appReadEntry(read: AppDataAccess): AccessLogEntry {
	return {
		reader: read.appName,
		data_kind: read.scope === 'workouts:read:nolocation' ? 'health' : 'location',
		purpose: `Connected app: ${read.method} ${read.path}`,
		accessed_datetime: read.at,
	};
}

/** Everything the manage page shows, read once. */
async function loadPrivacyCentre(deps: Deps, userId: number) {
	const [status, exports, ownReads, appReads, history] = await Promise.all([
		getConsentStatus(deps, userId),
		listExports(deps, userId),
		listDataAccess(deps, userId, 20),
		listAppDataAccess(deps, userId, 20),
		listConsentHistory(deps, userId, 20),
	]);
	// Our own features' reads and connected apps' reads, newest first, in one log.
	const accessLog = [...ownReads, ...appReads.map(appReadEntry)]
		.sort((a, b) => b.accessed_datetime.localeCompare(a.accessed_datetime))
		.slice(0, 20);
	return { status, exports, accessLog, history, countryName: countryName(status.country) };
}

/** The checkbox answers of a consent form, for the consents it showed. */
function readAnswers(form: FormData, shown: ConsentKey[]): { key: ConsentKey; granted: boolean }[] {
	return shown.map((key) => ({ key, granted: form.get(`consent_${key}`) === 'on' }));
}

function shownKeys(form: FormData): ConsentKey[] {
	const shown = form.getAll('shown').map(String);
	return CONSENT_KEYS.filter((key) => shown.includes(key));
}

/**
 * The consent screen's two forms: correcting the country, and answering the consents shown.
 * Answers a redirect target, or null to render the page again.
 */
async function submitConsentScreen(
	deps: Deps,
	userId: number,
	form: FormData,
	base: string,
): Promise<string | null> {
	if (form.get('action') === 'country') {
		const country = String(form.get('country') ?? '').toUpperCase();
		if (/^[A-Z]{2}$/.test(country) && listCountries().some((entry) => entry.code === country))
			await confirmCountry(deps, userId, country);
		return null;
	}
	const status = await getConsentStatus(deps, userId);
	const asked = new Set(status.consents.map((consent) => consent.key));
	const answers = readAnswers(form, shownKeys(form)).filter((answer) => asked.has(answer.key));
	const after = await recordConsents(deps, userId, answers, 'consents');
	if (after.declined_required.length) return `${base}/consents/decline`;
	return safeNextPath(String(form.get('next') ?? ''), `${base}/manage`);
}

/**
 * The edit screen saves the staged changes together: only consents whose answer differs from
 * the member's current one (or that were never answered) become records.
 */
async function submitConsentEdit(
	deps: Deps,
	userId: number,
	form: FormData,
	base: string,
): Promise<{ redirect: string; saved: number }> {
	const status = await getConsentStatus(deps, userId);
	const current = new Map(status.consents.map((consent) => [consent.key, consent]));
	const changes = readAnswers(form, shownKeys(form)).filter((answer) => {
		const consent = current.get(answer.key);
		return consent && (!consent.answered || consent.granted !== answer.granted);
	});
	const after = await recordConsents(deps, userId, changes, 'edit');
	if (after.declined_required.length) return { redirect: `${base}/consents/decline`, saved: changes.length };
	return { redirect: `${base}/manage?saved=${changes.length}`, saved: changes.length };
}

/** The manage page's export button. */
async function submitExportRequest(deps: Deps, userId: number): Promise<void> {
	const { view, created } = await requestExport(deps, userId);
	if (created) await startExport(deps, view.id);
}

/** What a privacy-centre page gets from Astro: enough to answer it, and nothing of Astro's. */
export type PageRequest = {
	request: Request;
	url: URL;
	viewer: Viewer | null;
	geoCookie: string | undefined;
	clientAddress: string;
};

/** The page request from Astro's page context (`Astro`), read the same way by every privacy page. */
export function privacyPageRequest(astro: {
	request: Request;
	url: URL;
	locals: { viewer: Viewer | null };
	cookies: { get: (name: string) => { value: string } | undefined };
	clientAddress: string;
}): PageRequest {
	return {
		request: astro.request,
		url: astro.url,
		viewer: astro.locals.viewer,
		geoCookie: astro.cookies.get(GEO_COOKIE)?.value,
		clientAddress: astro.clientAddress,
	};
}

type PageOutcome<T> = { redirect: string; status: 302 | 303 } | { props: T };

function guard(page: PageRequest): PageOutcome<never> | null {
	return page.viewer ? null : { redirect: loginPathFor(page.url), status: 302 };
}

async function postedForm(request: Request): Promise<FormData> {
	return request.formData().catch(() => new FormData());
}

const EXPORT_ERRORS: Record<string, string> = {
	wrong_password: 'That password is not right. Enter the one you log in with.',
	too_many_attempts: 'Too many tries. Wait a few minutes and try again.',
};

/** The manage page (site and app): its export button, then everything it shows. */
export async function handleManagePage(deps: Deps, page: PageRequest) {
	const refused = guard(page);
	if (refused) return refused;
	const viewer = page.viewer as Viewer;
	const userId = viewer.id;
	const base = privacyBase(page.url.pathname);
	if (page.request.method === 'POST') {
		const form = await postedForm(page.request);
		if (form.get('action') !== 'export') return { redirect: `${base}/manage`, status: 303 as const };
		const password = String(form.get('password') ?? '');
		try {
			await reauthenticate(deps, viewer, password || undefined, {
				ip: page.clientAddress,
				userAgent: page.request.headers.get('user-agent') ?? '',
			});
		} catch (error) {
			if (!(error instanceof AppError) || error.code === 'not_found') throw error;
			const reason = error.code === 'rate_limited' ? 'too_many_attempts' : 'wrong_password';
			return { redirect: `${base}/manage?export_error=${reason}#export-title`, status: 303 as const };
		}
		await submitExportRequest(deps, userId);
		return { redirect: `${base}/manage`, status: 303 as const };
	}
	const { gpc, geo } = readPrivacySignals(page.request, page.geoCookie);
	const data = await loadPrivacyCentre(deps, userId);
	const saved = page.url.searchParams.get('saved');
	const mobile = base.startsWith('/mobile');
	return {
		props: {
			...data,
			base,
			mobile,
			gpc,
			doNotSell: showsDoNotSell(data.status, geo),
			saved: saved && /^\d{1,2}$/.test(saved) ? Number(saved) : null,
			exportError: EXPORT_ERRORS[page.url.searchParams.get('export_error') ?? ''] ?? null,
			building: data.exports.some((entry) => entry.status === 'queued' || entry.status === 'building'),
		},
	};
}

/** The consent screen: the country form, the consents form, then the screen itself. */
export async function handleConsentsPage(deps: Deps, page: PageRequest) {
	const refused = guard(page);
	if (refused) return refused;
	const userId = (page.viewer as { id: number }).id;
	const base = privacyBase(page.url.pathname);
	const next = safeNextPath(page.url.searchParams.get('next'), `${base}/manage`);
	if (page.request.method === 'POST') {
		const target = await submitConsentScreen(deps, userId, await postedForm(page.request), base);
		return { redirect: target ?? `${base}/consents?next=${encodeURIComponent(next)}`, status: 303 as const };
	}
	const { gpc, geo } = readPrivacySignals(page.request, page.geoCookie);
	const { status, countryName } = await loadConsentPage(deps, userId);
	return {
		props: {
			base,
			status,
			countryName,
			countries: listCountries(),
			next,
			gpc,
			doNotSell: showsDoNotSell(status, geo),
		},
	};
}

/** The edit screen (site and app): the staged changes saved together, then the screen. */
export async function handleEditPage(deps: Deps, page: PageRequest) {
	const refused = guard(page);
	if (refused) return refused;
	const userId = (page.viewer as { id: number }).id;
	const base = privacyBase(page.url.pathname);
	if (page.request.method === 'POST')
		return {
			redirect: (await submitConsentEdit(deps, userId, await postedForm(page.request), base)).redirect,
			status: 303 as const,
		};
	const { gpc, geo } = readPrivacySignals(page.request, page.geoCookie);
	const { status } = await loadConsentPage(deps, userId);
	return {
		props: { base, status, gpc, doNotSell: showsDoNotSell(status, geo), mobile: base.startsWith('/mobile') },
	};
}
