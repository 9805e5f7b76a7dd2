import { type FormEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { api, ensureSession } from '../../lib/api/client';
import type { MapTileLayer } from '../../lib/core/map-types';
import type { LocationSuggestion } from '../../lib/locations/contract';
import {
	buildRouteSearchParams,
	parseRouteSearchParams,
	ROUTE_ORDERS,
	ROUTE_SEARCH_ACTIVITIES,
	ROUTE_SEARCH_PAGE_SIZE,
	ROUTE_SEARCH_RADII,
	type RouteListItem,
	type RouteListJson,
	type RouteSearchFilters,
	routeListItemFromJson,
	routeSearchForm,
	routeSearchQuery,
} from '../../lib/routes/contract';
import type { Unit } from '../../lib/routes/render';
import CitySearch from '../locations/CitySearch';
import { RouteCards, RoutePages, routeCardId } from './RouteList';
import RouteResultsMap from './RouteResultsMap';
import './route-search.scss';
import { trackEvent } from '../../lib/analytics/queue';

/** A place the search is near: its name and `lat,lng`. */
export type SearchPlace = { label: string; near: string };
export type SearchResults = {
	routes: RouteListItem[];
	totalCount: number;
	page: number;
	/** The place the results are near, for the heading. */
	place: string | null;
};

export type RouteSearchProps = {
	unit: Unit;
	/** The search in the page's URL, and what the server found for it. */
	filters: RouteSearchFilters;
	place: SearchPlace | null;
	results: SearchResults | null;
	notice: string | null;
	/** The configured map types for the results map, the default first. */
	layers: MapTileLayer[];
};

/** The form's fields as typed; the URL parser turns them into a search, as on the server. */
type Draft = Record<'radius' | 'min' | 'max' | 'activity' | 'name' | 'order', string>;

const draftOf = (filters: RouteSearchFilters): Draft => ({
	radius: String(filters.radius),
	min: filters.min === null ? '' : String(filters.min),
	max: filters.max === null ? '' : String(filters.max),
	activity: filters.activity === null ? '' : String(filters.activity),
	name: filters.name,
	order: filters.order,
});

const filtersOf = (draft: Draft, place: SearchPlace | null, page: number) =>
	parseRouteSearchParams(
		new URLSearchParams({ ...draft, place: place?.label ?? '', near: place?.near ?? '', page: String(page) }),
	);

/** Place suggestions sent with the member's session, so their profile country ranks first. */
async function searchPlaces(term: string, signal?: AbortSignal): Promise<LocationSuggestion[]> {
	await ensureSession();
	return api<LocationSuggestion[]>('/_api/search_for_city/', { query: { term }, signal });
}

/** The best match for a typed name, as the city widget's first suggestion. */
async function resolvePlace(text: string): Promise<SearchPlace | null> {
	const [first] = await searchPlaces(text);
	return first ? { label: first.label, near: first.value } : null;
}

/** The "Distance at most" choices, in the member's unit; "Any length" sets no maximum. */
const MAX_DISTANCE_CHOICES = [1, 2, 3, 5, 10, 15, 20, 30, 50, 100, 200] as const;

function maxDistanceOptions(current: string): (readonly [string, string])[] {
	const values = MAX_DISTANCE_CHOICES.map(String);
	// A maximum from a shared link that is not one of the choices stays selectable.
	if (current && !values.includes(current)) values.push(current);
	values.sort((a, b) => Number(a) - Number(b));
	return [['', 'Any length'], ...values.map((value) => [value, value] as const)];
}

const LOAD_FAILED = 'The routes could not be loaded. Check your connection and try again.';
const PLACE_FAILED = 'Places cannot be looked up right now. Please try again.';

/**
 * Find routes: the route search form. The server renders the first results from the URL,
 * and the form is a plain GET form until this hydrates; then filters, sort and pages fetch
 * /api/v7.1/route/ in place and write the search into the URL, so it can be shared and Back works.
 */
export default function RouteSearch(props: RouteSearchProps) {
	const { unit } = props;
	const [hydrated, setHydrated] = useState(false);
	/** A place name typed into the plain field before the widget took over. */
	const [typedEarly, setTypedEarly] = useState('');
	const [draft, setDraft] = useState(() => draftOf(props.filters));
	const [place, setPlace] = useState(props.place);
	const [results, setResults] = useState(props.results);
	const [notice, setNotice] = useState(props.notice);
	const [error, setError] = useState<string | null>(null);
	const [busy, setBusy] = useState(false);
	/**
	 * The result marked on the map and in the list: the one the pointer is on (a card or its line),
	 * else the card with the focus.
	 */
	const [pointed, setPointed] = useState<number | null>(null);
	const [focused, setFocused] = useState<number | null>(null);
	const highlighted = pointed ?? focused;
	/** Remounts the city widget to empty it. */
	const [nearKey, setNearKey] = useState(0);
	const latest = useRef(0);
	const focusHeading = useRef(false);
	const headingRef = useRef<HTMLHeadingElement>(null);
	const nearRef = useRef<HTMLDivElement>(null);
	/** The search the results on show answer; their pages continue it. */
	const shown = useRef({ filters: props.filters, place: props.place });

	// The city widget needs script, so the server renders a plain field in its place; what was
	// typed there meanwhile moves into the widget, with the focus and caret. A layout effect, so the
	// swap happens in the same task as hydration: no key can land in the old field after it is read.
	const typingInPlainField = useRef(false);
	useLayoutEffect(() => {
		const field = nearRef.current?.querySelector('input');
		const typed = field?.value ?? '';
		typingInPlainField.current = field != null && field === document.activeElement;
		if (typed.trim() !== props.filters.place) setTypedEarly(typed);
		setHydrated(true);
	}, [props.filters.place]);
	useLayoutEffect(() => {
		if (!hydrated || !typingInPlainField.current) return;
		typingInPlainField.current = false;
		const widget = nearRef.current?.querySelector('input');
		widget?.focus();
		widget?.setSelectionRange(widget.value.length, widget.value.length);
	}, [hydrated]);

	// In the same commit as the new results, so nothing can take the focus in between.
	useLayoutEffect(() => {
		if (results && focusHeading.current) {
			focusHeading.current = false;
			headingRef.current?.focus();
		}
	}, [results]);

	async function run(filters: RouteSearchFilters, nextPlace: SearchPlace | null, moveFocus = false) {
		const request = ++latest.current;
		setBusy(true);
		setError(null);
		try {
			await ensureSession();
			const form = routeSearchForm(filters, unit, nextPlace?.near ?? null);
			const answer = await api<RouteListJson>('/v7.1/route/', {
				query: Object.fromEntries(buildRouteSearchParams(form)),
			});
			// An answer to a search the member has since replaced is dropped.
			if (request !== latest.current) return;
			focusHeading.current = moveFocus;
			shown.current = { filters, place: nextPlace };
			setNotice(null);
			setResults({
				routes: answer._embedded.routes.map(routeListItemFromJson),
				totalCount: answer.total_count,
				page: filters.page,
				place: nextPlace?.label ?? null,
			});
		} catch {
			if (request === latest.current) setError(LOAD_FAILED);
		} finally {
			if (request === latest.current) setBusy(false);
		}
	}

	/** A new search from the member: it becomes a history entry. */
	function search(filters: RouteSearchFilters, nextPlace: SearchPlace | null, moveFocus = false) {
		window.history.pushState(null, '', `${window.location.pathname}?${routeSearchQuery(filters)}`);
		trackEvent('route_searched', { page: filters.page, near_place: nextPlace !== null });
		void run(filters, nextPlace, moveFocus);
	}

	useEffect(() => {
		// Back and Forward show the search of that entry again.
		const onPopState = async () => {
			const filters = parseRouteSearchParams(new URLSearchParams(window.location.search));
			setDraft(draftOf(filters));
			setTypedEarly('');
			setNearKey((key) => key + 1);
			setNotice(null);
			if (!window.location.search) {
				latest.current++;
				setPlace(null);
				setResults(null);
				setBusy(false);
				return;
			}
			let nextPlace: SearchPlace | null = null;
			try {
				if (filters.near) nextPlace = { label: filters.place || filters.near, near: filters.near };
				else if (filters.place) nextPlace = await resolvePlace(filters.place);
			} catch {
				return setError(PLACE_FAILED);
			}
			setPlace(nextPlace);
			void run(filters, nextPlace);
		};
		window.addEventListener('popstate', onPopState);
		return () => window.removeEventListener('popstate', onPopState);
	});

	async function submit(event: FormEvent) {
		event.preventDefault();
		// The widget reports only a place chosen from its list; a name typed and not chosen is
		// looked up here, as the server does without script.
		const typed = (nearRef.current?.querySelector('input')?.value ?? '').trim();
		let nextPlace = place;
		if (typed && typed !== place?.label) {
			try {
				nextPlace = await resolvePlace(typed);
			} catch {
				return setError(PLACE_FAILED);
			}
			if (!nextPlace) return setNotice(`No place matches “${typed}”.`);
			setPlace(nextPlace);
		}
		search(filtersOf(draft, nextPlace, 1), nextPlace);
	}

	function choosePlace(suggestion: LocationSuggestion) {
		const nextPlace = { label: suggestion.label, near: suggestion.value };
		setPlace(nextPlace);
		search(filtersOf(draft, nextPlace, 1), nextPlace);
	}

	function clearPlace() {
		setPlace(null);
		setTypedEarly('');
		setNearKey((key) => key + 1);
		search(filtersOf(draft, null, 1), null);
	}

	/** Choices apply at once; typed values wait for Search. */
	function choose(field: ChoiceField, value: string) {
		const next = { ...draft, [field]: value };
		setDraft(next);
		if (results) search(filtersOf(next, place, 1), place);
	}

	const type = (field: 'min' | 'name') => ({
		value: draft[field],
		onChange: (event: { target: { value: string } }) => setDraft({ ...draft, [field]: event.target.value }),
	});
	/** The next larger radius, offered when nothing was found near a place. */
	const widerRadius = results?.place
		? ROUTE_SEARCH_RADII.find((radius) => radius > shown.current.filters.radius)
		: undefined;
	/** A result chosen on the map: its card comes into view and takes the focus. */
	function showCard(routeId: number) {
		setFocused(routeId);
		const link = document.getElementById(routeCardId(routeId))?.querySelector('a');
		link?.scrollIntoView({ block: 'nearest' });
		link?.focus({ preventScroll: true });
	}
	const pageHref = (page: number) => `?${routeSearchQuery({ ...shown.current.filters, page })}`;

	return (
		<div className="route-search">
			<div className="route-search__near" ref={nearRef}>
				{hydrated ? (
					<div className="city-search">
						<CitySearch
							key={nearKey}
							id="route-search-place"
							label="Near (city)"
							onChoose={choosePlace}
							initialTerm={typedEarly}
							search={searchPlaces}
						/>
					</div>
				) : (
					<p className="route-search__field">
						<label htmlFor="place">Near (city)</label>
						<input
							id="place"
							name="place"
							form="route-search-form"
							type="text"
							minLength={3}
							maxLength={100}
							defaultValue={props.filters.place}
							autoComplete="address-level2"
						/>
					</p>
				)}
				{hydrated && place && (
					<p className="route-search__place">
						Searching near <strong>{place.label}</strong>{' '}
						<button type="button" onClick={clearPlace}>
							Any place
						</button>
					</p>
				)}
			</div>
			<form
				id="route-search-form"
				method="get"
				className="route-search__form"
				data-testid="route-search-form"
				onSubmit={submit}
			>
				<Choice
					id="radius"
					label={`Within (${unit})`}
					value={draft.radius}
					options={ROUTE_SEARCH_RADII.map((radius) => [radius, String(radius)] as const)}
					onChange={choose}
				/>
				<p className="route-search__field">
					<label htmlFor="min">Distance at least ({unit})</label>
					<input id="min" name="min" type="number" min="0" step="any" {...type('min')} />
				</p>
				<Choice
					id="max"
					label={`Distance at most (${unit})`}
					value={draft.max}
					options={maxDistanceOptions(draft.max)}
					onChange={choose}
				/>
				<Choice
					id="activity"
					label="Activity"
					value={draft.activity}
					options={[['', 'All Activities'], ...ROUTE_SEARCH_ACTIVITIES]}
					onChange={choose}
				/>
				<p className="route-search__field">
					<label htmlFor="name">Route name</label>
					<input id="name" name="name" type="text" maxLength={100} {...type('name')} />
				</p>
				<Choice
					id="order"
					label="Sort by"
					value={draft.order}
					options={Object.entries(ROUTE_ORDERS)}
					onChange={choose}
				/>
				<p className="route-search__field">
					<button type="submit">Search</button>
				</p>
			</form>

			<p className="route-search__status" role="status">
				{busy ? 'Searching…' : (notice ?? '')}
			</p>
			{error && (
				<p className="route-search__error" role="alert">
					{error}
				</p>
			)}
			{results && (
				<section aria-labelledby="results-title" aria-busy={busy} data-testid="route-search-results">
					<h2 id="results-title" ref={headingRef} tabIndex={-1}>
						{results.totalCount} {results.totalCount === 1 ? 'route' : 'routes'}
						{results.place && ` near ${results.place}`}
					</h2>
					{results.totalCount === 0 && widerRadius !== undefined && (
						<p className="route-search__widen">
							No routes within {shown.current.filters.radius} {unit} of {results.place}.{' '}
							<button type="button" onClick={() => choose('radius', String(widerRadius))}>
								Search within {widerRadius} {unit}
							</button>
						</p>
					)}
					<div className="route-search__results">
						{hydrated && results.routes.length > 0 && props.layers.length > 0 && (
							<RouteResultsMap
								routes={results.routes}
								layers={props.layers}
								highlighted={highlighted}
								onHover={setPointed}
								onChoose={showCard}
							/>
						)}
						<RouteCards
							routes={results.routes}
							unit={unit}
							testId="route-search-list"
							highlighted={highlighted}
							onHighlight={(routeId, by) => (by === 'pointer' ? setPointed : setFocused)(routeId)}
						/>
					</div>
					<RoutePages
						label="Result pages"
						totalCount={results.totalCount}
						pageSize={ROUTE_SEARCH_PAGE_SIZE}
						page={results.page}
						href={pageHref}
						onPage={(page) => search({ ...shown.current.filters, page }, shown.current.place, true)}
					/>
				</section>
			)}
		</div>
	);
}

type ChoiceField = 'radius' | 'max' | 'activity' | 'order';

/** A select of the search form, named as its URL parameter. */
function Choice(props: {
	id: ChoiceField;
	label: string;
	value: string;
	options: readonly (readonly [string | number, string])[];
	onChange: (field: ChoiceField, value: string) => void;
}) {
	return (
		<p className="route-search__field">
			<label htmlFor={props.id}>{props.label}</label>
			<select
				id={props.id}
				name={props.id}
				value={props.value}
				onChange={(event) => props.onChange(props.id, event.target.value)}
			>
				{props.options.map(([value, label]) => (
					<option key={value} value={value}>
						{label}
					</option>
				))}
			</select>
		</p>
	);
}
