import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { APIRequestContext } from '@playwright/test';
import { expect, test } from './fixtures';
import { registerMember } from './helpers';

/**
 * No hostile path segment, query or form field makes a page answer 5xx (the API has its own fuzz
 * test, tests/api/core/openapi-fuzz.test.ts). The routes are read from src/pages, so a new
 * on-demand page is covered the day it is added; the field names are every name a page or
 * component renders or reads, posted to every page's form handler.
 */
const PAGES = path.resolve('src/pages');

function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const file = path.join(folder, entry.name);
		if (entry.isDirectory()) return sourceFiles(file);
		return /\.(astro|ts|tsx)$/.test(entry.name) ? [file] : [];
	});
}

/**
 * The `action` values a page's forms send (in the page or the .astro files it imports): a handler
 * that picks its work by action reads the other fields only for an action it knows.
 */
function formActions(file: string, seen = new Set<string>()): string[] {
	if (seen.has(file)) return [];
	seen.add(file);
	const text = readFileSync(file, 'utf8');
	const own = [...text.matchAll(/name="action"\s+value="([^"{}]+)"|value="([^"{}]+)"\s+name="action"/g)].map(
		(match) => match[1] ?? match[2],
	);
	const imported = [...text.matchAll(/from '(\.{1,2}\/[^']+\.astro)'/g)].flatMap((match) =>
		formActions(path.resolve(path.dirname(file), match[1]), seen),
	);
	return [...new Set([...own, ...imported])];
}

/** Each on-demand page: its route as segments (a `[param]` is where hostile values go) and its form actions. */
const ROUTES = sourceFiles(PAGES)
	.filter((file) => !path.basename(file).startsWith('_'))
	.filter((file) => /export const prerender = false/.test(readFileSync(file, 'utf8')))
	.map((file) => ({
		segments: path
			.relative(PAGES, file)
			.replace(/\.(astro|ts)$/, '')
			.replace(/(^|\/)index$/, '')
			.split('/')
			.filter(Boolean),
		actions: formActions(file),
	}))
	// Signing out ends the session the other requests need: it goes last.
	.sort(
		(a, b) => Number(a.segments.join('/') === 'auth/logout') - Number(b.segments.join('/') === 'auth/logout'),
	);

/** Every form field name the site renders or reads. */
const FIELDS = [
	...new Set(
		[
			...sourceFiles(PAGES),
			...sourceFiles(path.resolve('src/components')),
			...sourceFiles(path.resolve('src/lib')),
		]
			.filter((file) => !file.includes(`${path.sep}islands${path.sep}`))
			.flatMap((file) => {
				const text = readFileSync(file, 'utf8');
				return [
					...text.matchAll(/\bname="([a-z_][a-z0-9_[\]]*)"/gi),
					...text.matchAll(/\.(?:get|getAll|has)\(\s*'([a-z_][a-z0-9_]*)'\s*\)/g),
				].map((match) => match[1]);
			}),
	),
];

/** Percent-encoded as they travel: NUL, a lone surrogate in UTF-8, a non-character, bad UTF-8, climbing out, far too long. */
const HOSTILE_SEGMENTS = [
	'%00',
	'a%00b',
	'%ED%A0%80',
	'%EF%BF%BF',
	'%FF%FE',
	'%C0%AE%C0%AE',
	'..',
	'%2E%2E%2F%2E%2E',
	'%0D%0ASet-Cookie:x=1',
	'9'.repeat(40),
	'-1',
	'x'.repeat(5000),
];
/** Form values as a browser would never send them but a script can. */
const HOSTILE_VALUES = [
	'\u0000',
	'a\u0000b',
	'\ud800',
	'\uffff',
	'9'.repeat(40),
	'-1e308',
	'x'.repeat(20_000),
];

/** A plausible value for a route parameter that is not the one under attack. */
const plausible = (segment: string, username: string) =>
	segment.includes('username') ? username : segment.includes('...') ? 'x' : '1';

const routeWith = (segments: string[], index: number, value: string, username: string) =>
	`/${segments
		.map((segment, at) =>
			at === index ? value : /^\[.*\]$/.test(segment) ? plausible(segment, username) : segment,
		)
		.join('/')}`;

async function expectNo5xx(
	request: APIRequestContext,
	failures: string[],
	method: 'GET' | 'POST',
	url: string,
	form?: string,
	origin?: string,
) {
	const response = await request.fetch(url, {
		method,
		maxRedirects: 0,
		headers:
			form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded', origin: origin ?? '' },
		data: form,
	});
	if (response.status() >= 500) failures.push(`${method} ${url.slice(0, 120)} → ${response.status()}`);
}

test('no hostile path segment, query or form field makes a page answer 5xx', async ({ request, baseURL }) => {
	test.setTimeout(600_000);
	expect(ROUTES.length).toBeGreaterThan(50);
	expect(ROUTES.find((route) => route.segments.join('/') === 'developers/apps')?.actions).toEqual(
		expect.arrayContaining(['delete', 'register']),
	);
	expect(FIELDS).toEqual(expect.arrayContaining(['client_id', 'name', 'password']));
	const stamp = Date.now().toString(36);
	const username = `hostile${stamp}`;
	// A member of their own, signed in, so guarded pages reach their code instead of the login page.
	await registerMember(request, baseURL as string, {
		first_name: 'Hostile',
		last_name: 'Input',
		email: `hostile.${stamp}@mapstride.example`,
		password: `Hostile-Input-Trail-${stamp}`,
		username,
	});
	const origin = new URL(baseURL as string).origin;
	const failures: string[] = [];

	for (const { segments, actions } of ROUTES) {
		const params = segments.flatMap((segment, index) => (/^\[.*\]$/.test(segment) ? [index] : []));
		for (const index of params)
			for (const value of HOSTILE_SEGMENTS)
				await expectNo5xx(request, failures, 'GET', routeWith(segments, index, value, username));
		const page = routeWith(segments, -1, '', username);
		const query = HOSTILE_SEGMENTS.slice(0, 6)
			.map((value, at) => `${['next', 'q', 'id', 'page', 'token', 'code'][at]}=${value}`)
			.join('&');
		await expectNo5xx(request, failures, 'GET', `${page}?${query}`);
		for (const action of [null, ...actions])
			for (const value of action === null ? HOSTILE_VALUES : HOSTILE_VALUES.slice(0, 3)) {
				const fields = FIELDS.map((field) => [field, field === 'action' && action !== null ? action : value]);
				await expectNo5xx(request, failures, 'POST', page, new URLSearchParams(fields).toString(), origin);
			}
		// A raw NUL or a broken escape in the form body itself, as no URLSearchParams would write it.
		await expectNo5xx(
			request,
			failures,
			'POST',
			page,
			FIELDS.map((field) => `${field}=%00`).join('&'),
			origin,
		);
		await expectNo5xx(
			request,
			failures,
			'POST',
			page,
			FIELDS.map((field) => `${field}=%ED%A0%80%`).join('&'),
			origin,
		);
	}
	expect(failures).toEqual([]);
});
