// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import RouteSearch, { type RouteSearchProps } from '../../../src/islands/routes/RouteSearch';
import { $session } from '../../../src/lib/auth/store';
import { EMPTY_ROUTE_SEARCH, type RouteSummaryJson } from '../../../src/lib/routes/contract';

const user = { id: 7, username: 'ada' } as never;
const json = (status: number, body: unknown) =>
	new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const apiRoute = (id: number, name: string): RouteSummaryJson => ({
	id,
	name,
	distance: id * 1000,
	total_ascent: 10,
	city: 'Harrisburg',
	privacy: 3,
	user_display_name: 'Ana',
	activity_type: 16,
	starting_location: { type: 'Point', coordinates: [-76.88, 40.27] },
});

let requests: URL[];
let answer: (url: URL) => Response | Promise<Response>;

beforeEach(() => {
	requests = [];
	$session.set({ accessToken: 'tok', expiresAt: Date.now() + 600_000, user });
	window.history.replaceState(null, '', '/routes/search/?place=Harrisburg%2C+PA%2C+US&near=40.27%2C-76.88');
	vi.stubGlobal('fetch', async (input: RequestInfo | URL) => {
		const url = new URL(
			typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
			'http://localhost',
		);
		requests.push(url);
		return answer(url);
	});
});
afterEach(() => {
	cleanup();
	vi.unstubAllGlobals();
});

const listItem = (id: number, name: string, distanceM: number, ascentM: number) => ({
	id,
	name,
	distanceM,
	ascentM,
	city: '',
	ownerName: 'Ana',
	privacy: 3 as const,
	activityTypeId: 9,
	start: [40.27, -76.88] as [number, number],
	previewLine: '',
});
const place = { label: 'Harrisburg, PA, US', near: '40.27,-76.88' };
const props = (over: Partial<RouteSearchProps> = {}): RouteSearchProps => ({
	unit: 'km',
	filters: { ...EMPTY_ROUTE_SEARCH, place: place.label, near: place.near },
	place,
	results: {
		routes: [listItem(1, 'River loop', 1000, 5), listItem(2, 'Capitol run', 2000, 9)],
		totalCount: 2,
		page: 1,
		place: place.label,
	},
	notice: null,
	layers: [],
	...over,
});

const results = () => screen.getByTestId('route-search-results');
const names = () =>
	within(results())
		.queryAllByRole('listitem')
		.map((item) => within(item).getByRole('link').textContent);

describe('RouteSearch island', () => {
	test('renders a plain GET form on the server, every field named, the place field included', () => {
		const container = document.createElement('div');
		container.innerHTML = renderToString(<RouteSearch {...props()} />);
		const form = container.querySelector('form') as HTMLFormElement;
		expect(form.getAttribute('method')).toBe('get');
		const place = container.querySelector('input[name="place"]') as HTMLInputElement;
		expect(place.getAttribute('form')).toBe(form.id);
		expect(place.value).toBe('Harrisburg, PA, US');
		const names = [...form.querySelectorAll('[name]')].map((field) => field.getAttribute('name'));
		expect(names).toEqual(['radius', 'min', 'max', 'activity', 'name', 'order']);
		expect(container.querySelector('[role="combobox"]')).toBeNull();
	});

	test('a place typed before hydration moves into the city widget', () => {
		const container = document.createElement('div');
		container.innerHTML = renderToString(<RouteSearch {...props()} />);
		document.body.append(container);
		(container.querySelector('input[name="place"]') as HTMLInputElement).value = 'Andorra la Vella';
		answer = () => json(200, []);
		render(<RouteSearch {...props()} />, { container, hydrate: true });
		const near = screen.getByRole('combobox', { name: 'Near (city)' }) as HTMLInputElement;
		expect(near.value).toBe('Andorra la Vella');
	});

	test('shows the server results with their count, and no pages for one page', () => {
		render(<RouteSearch {...props()} />);
		expect(screen.getByRole('heading', { name: '2 routes near Harrisburg, PA, US' })).toBeTruthy();
		expect(names()).toEqual(['River loop', 'Capitol run']);
		expect(screen.queryByRole('navigation', { name: 'Result pages' })).toBeNull();
		expect(screen.getByText('Harrisburg, PA, US', { selector: 'strong' })).toBeTruthy();
	});

	test('a new sort fetches the API in metres, is busy meanwhile, and goes into the URL', async () => {
		let release: (response: Response) => void = () => {};
		answer = () =>
			new Promise((resolve) => {
				release = resolve;
			});
		render(<RouteSearch {...props()} />);
		fireEvent.change(screen.getByLabelText('Sort by'), { target: { value: '-distance' } });
		expect(window.location.search).toContain('order=-distance');
		await vi.waitFor(() => expect(requests).toHaveLength(1));
		expect(results().getAttribute('aria-busy')).toBe('true');
		expect(requests[0].pathname).toBe('/api/v7.1/route/');
		expect(Object.fromEntries(requests[0].searchParams)).toEqual({
			limit: '20',
			offset: '0',
			order_by: '-distance',
			close_to_location: '40.27,-76.88',
			search_radius: '10000',
		});
		await act(async () =>
			release(
				json(200, {
					_embedded: { routes: [apiRoute(2, 'Capitol run'), apiRoute(1, 'River loop')] },
					total_count: 2,
				}),
			),
		);
		await vi.waitFor(() => expect(names()).toEqual(['Capitol run', 'River loop']));
		expect(results().getAttribute('aria-busy')).toBe('false');
	});

	test('has one submit button, and "Any length" as a choice for the longest distance', async () => {
		answer = () => json(200, { _embedded: { routes: [] }, total_count: 0 });
		render(<RouteSearch {...props()} />);
		const submits = [...document.querySelectorAll('button')].filter((button) => button.type === 'submit');
		expect(submits.map((button) => button.textContent)).toEqual(['Search']);
		const longest = screen.getByLabelText('Distance at most (km)') as HTMLSelectElement;
		expect(longest.value).toBe('');
		expect(longest.selectedOptions[0].textContent).toBe('Any length');
		fireEvent.change(longest, { target: { value: '10' } });
		await vi.waitFor(() => expect(requests.at(-1)?.searchParams.get('maximum_distance')).toBe('10000'));
	});

	test('choosing a suggested place searches near it at once', async () => {
		answer = (url) =>
			url.pathname.includes('search_for_city')
				? json(200, [
						{ value: '42.5063,1.5218', label: 'Andorra la Vella, Andorra', locality: 'Andorra la Vella' },
					])
				: json(200, { _embedded: { routes: [apiRoute(5, 'Valira walk')] }, total_count: 1 });
		render(<RouteSearch {...props()} />);
		const near = screen.getByRole('combobox', { name: 'Near (city)' });
		fireEvent.change(near, { target: { value: 'Andorra' } });
		fireEvent.click(await screen.findByRole('option', { name: 'Andorra la Vella, Andorra' }));
		await vi.waitFor(() => expect(names()).toEqual(['Valira walk']));
		expect(requests.at(-1)?.searchParams.get('close_to_location')).toBe('42.5063,1.5218');
	});

	test('nothing found near a place offers one click to search a wider radius', async () => {
		answer = () => json(200, { _embedded: { routes: [] }, total_count: 0 });
		render(<RouteSearch {...props()} />);
		fireEvent.change(screen.getByLabelText('Route name'), { target: { value: 'Nothing' } });
		fireEvent.click(screen.getByRole('button', { name: 'Search' }));
		const widen = await screen.findByRole('button', { name: 'Search within 25 km' });
		expect(screen.getByText(/No routes within 10 km of Harrisburg, PA, US/)).toBeTruthy();
		fireEvent.click(widen);
		await vi.waitFor(() => expect(requests.at(-1)?.searchParams.get('search_radius')).toBe('25000'));
		expect((screen.getByLabelText('Within (km)') as HTMLSelectElement).value).toBe('25');
		expect(await screen.findByRole('button', { name: 'Search within 50 km' })).toBeTruthy();
	});

	test('a failed request says so and keeps the results and the form', async () => {
		answer = () => json(500, { error: 'unknown_error' });
		render(<RouteSearch {...props()} />);
		fireEvent.change(screen.getByLabelText('Route name'), { target: { value: 'River' } });
		fireEvent.click(screen.getByRole('button', { name: 'Search' }));
		expect(await screen.findByRole('alert')).toHaveProperty(
			'textContent',
			'The routes could not be loaded. Check your connection and try again.',
		);
		expect(names()).toEqual(['River loop', 'Capitol run']);
		expect((screen.getByLabelText('Route name') as HTMLInputElement).value).toBe('River');
		expect(requests.at(-1)?.searchParams.get('text_search')).toBe('River');
	});

	test('an empty answer says No results found', async () => {
		answer = () => json(200, { _embedded: { routes: [] }, total_count: 0 });
		render(<RouteSearch {...props()} />);
		fireEvent.change(screen.getByLabelText('Distance at least (km)'), { target: { value: '500' } });
		fireEvent.click(screen.getByRole('button', { name: 'Search' }));
		await vi.waitFor(() => expect(within(results()).getByText('No results found')).toBeTruthy());
		expect(screen.getByRole('heading', { name: '0 routes near Harrisburg, PA, US' })).toBeTruthy();
		expect(requests.at(-1)?.searchParams.get('minimum_distance')).toBe('500000');
	});

	test('pages past the first: three numbers, the current one marked, focus on the heading after a move', async () => {
		const many = props();
		many.results = { ...(many.results as NonNullable<RouteSearchProps['results']>), totalCount: 65 };
		answer = () => json(200, { _embedded: { routes: [apiRoute(3, 'Page two route')] }, total_count: 65 });
		render(<RouteSearch {...many} />);
		const pages = screen.getByRole('navigation', { name: 'Result pages' });
		expect(within(pages).getByText('1').getAttribute('aria-current')).toBe('page');
		expect(
			within(pages)
				.getAllByRole('link')
				.map((link) => link.textContent),
		).toEqual(['2', '3', 'Next']);
		fireEvent.click(within(pages).getByRole('link', { name: '2' }));
		await vi.waitFor(() => expect(names()).toEqual(['Page two route']));
		expect(requests.at(-1)?.searchParams.get('offset')).toBe('20');
		expect(window.location.search).toContain('page=2');
		expect(document.activeElement?.id).toBe('results-title');
		const after = screen.getByRole('navigation', { name: 'Result pages' });
		expect(within(after).getByText('2').getAttribute('aria-current')).toBe('page');
		expect(
			within(after)
				.getAllByRole('link')
				.map((link) => link.textContent),
		).toEqual(['Previous', '1', '3', 'Next']);
	});

	test('a typed place that matches nothing is said, and nothing is fetched from the route API', async () => {
		answer = (url) => (url.pathname.includes('search_for_city') ? json(200, []) : json(500, {}));
		render(<RouteSearch {...props()} />);
		fireEvent.change(screen.getByRole('combobox', { name: 'Near (city)' }), {
			target: { value: 'Nowhereville' },
		});
		fireEvent.click(screen.getByRole('button', { name: 'Search' }));
		await vi.waitFor(() =>
			expect(screen.getByRole('status').textContent).toBe('No place matches “Nowhereville”.'),
		);
		expect(requests.some((url) => url.pathname.startsWith('/api/v7.1/route'))).toBe(false);
	});
});
