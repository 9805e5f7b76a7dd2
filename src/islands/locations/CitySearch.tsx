import { type KeyboardEvent, useEffect, useLayoutEffect, useRef, useState } from 'react';
import {
	CITY_SEARCH_DEBOUNCE_MS,
	CITY_SEARCH_MIN_CHARS,
	type LocationSuggestion,
} from '../../lib/locations/contract';
import { locateSuggestion, searchForCity } from '../../lib/locations/store';

export type CitySearchProps = {
	/** Unique on the page: the listbox and options are named after it. */
	id: string;
	/** `go` ("Go") or `view-city-route` ("View City Route"): the two labels the search button comes with. */
	variant?: 'go' | 'view-city-route';
	label?: string;
	/**
	 * Called as soon as a place is chosen, and then the widget has no Go button of its own (route
	 * search's form has the one submit button). Without it, Go opens our page for that city, state
	 * or country.
	 */
	onChoose?: (suggestion: LocationSuggestion) => void;
	/** Text typed before the island took over (it was plain HTML until then). */
	initialTerm?: string;
	/** How suggestions are fetched; an island with a session sends it, so a member's home country ranks first. */
	search?: (term: string, signal: AbortSignal) => Promise<LocationSuggestion[]>;
};

type Status = 'empty' | 'short' | 'loading' | 'suggestions' | 'no-results' | 'error' | 'selection';

/**
 * "Search Any City or State": a WAI-ARIA 1.2 combobox with a list popup. Searches from 3
 * characters, 300 ms after typing stops; arrows move through the options, Enter picks one,
 * Escape closes the list and then clears. Go is enabled only once a place is chosen; Enter on a
 * typed name with suggestions shown takes the first.
 */
export default function CitySearch({
	id,
	variant = 'go',
	label = 'Search Any City or State',
	onChoose,
	initialTerm = '',
	search = searchForCity,
}: CitySearchProps) {
	const [term, setTerm] = useState(initialTerm);
	const [suggestions, setSuggestions] = useState<LocationSuggestion[]>([]);
	const [status, setStatus] = useState<Status>(
		initialTerm.trim().length >= CITY_SEARCH_MIN_CHARS ? 'loading' : 'empty',
	);
	const [open, setOpen] = useState(false);
	const [active, setActive] = useState(-1);
	const [chosen, setChosen] = useState<LocationSuggestion | null>(null);
	const [going, setGoing] = useState(false);
	const inputRef = useRef<HTMLInputElement>(null);
	/** Enter was pressed while the newest search was under way: its best match is taken when it answers. */
	const pickWhenAnswered = useRef(false);
	const listId = `${id}-listbox`;
	const optionId = (index: number) => `${id}-option-${index}`;

	// On a pre-rendered page React adopts the very field a person may already be typing into, and
	// keeps its value, focus and caret; what it holds becomes the search term before the first paint.
	// biome-ignore lint/correctness/useExhaustiveDependencies: runs once, when the widget takes over the field.
	useLayoutEffect(() => {
		const typed = inputRef.current?.value ?? '';
		if (typed !== term) setTerm(typed);
	}, []);

	// Debounced search; a newer term aborts the older request so answers never arrive out of order.
	useEffect(() => {
		if (chosen && chosen.label === term) return;
		const query = term.trim();
		if (query.length < CITY_SEARCH_MIN_CHARS) {
			setSuggestions([]);
			setStatus(query.length === 0 ? 'empty' : 'short');
			setOpen(false);
			return;
		}
		const controller = new AbortController();
		setStatus('loading');
		const timer = setTimeout(() => {
			search(query, controller.signal)
				.then((items) => {
					if (pickWhenAnswered.current && items.length) {
						setSuggestions(items);
						takeBestRef.current(items[0]);
						return;
					}
					setSuggestions(items);
					setActive(-1);
					setStatus(items.length ? 'suggestions' : 'no-results');
					setOpen(true);
				})
				.catch((error: unknown) => {
					if ((error as Error).name === 'AbortError') return;
					setSuggestions([]);
					setStatus('error');
					setOpen(true);
				});
		}, CITY_SEARCH_DEBOUNCE_MS);
		return () => {
			clearTimeout(timer);
			controller.abort();
		};
	}, [term, chosen, search]);

	function choose(suggestion: LocationSuggestion) {
		pickWhenAnswered.current = false;
		setChosen(suggestion);
		setTerm(suggestion.label);
		setStatus('selection');
		setOpen(false);
		setActive(-1);
		onChoose?.(suggestion);
	}

	function clear() {
		pickWhenAnswered.current = false;
		setTerm('');
		setChosen(null);
		setSuggestions([]);
		setStatus('empty');
		setOpen(false);
		setActive(-1);
		inputRef.current?.focus();
	}

	/** Enter on a typed name takes the best match, as a search box does. */
	function takeBest(best: LocationSuggestion) {
		choose(best);
		if (!onChoose) void go(best);
	}
	// The search's answer arrives in a closure of an earlier render; it takes the best match through this.
	const takeBestRef = useRef(takeBest);
	takeBestRef.current = takeBest;

	async function go(target: LocationSuggestion | null = chosen) {
		if (!target) return;
		if (onChoose) return onChoose(target);
		setGoing(true);
		try {
			const place = await locateSuggestion(target);
			window.location.assign(place.path);
		} catch {
			setGoing(false);
			setStatus('error');
			setOpen(true);
		}
	}

	function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
		const count = suggestions.length;
		switch (event.key) {
			case 'ArrowDown':
				event.preventDefault();
				if (!open && count) setOpen(true);
				if (count) setActive((index) => (index + 1) % count);
				break;
			case 'ArrowUp':
				event.preventDefault();
				if (!open && count) setOpen(true);
				if (count) setActive((index) => (index <= 0 ? count - 1 : index - 1));
				break;
			case 'Enter':
				if (open && active >= 0 && suggestions[active]) {
					event.preventDefault();
					choose(suggestions[active]);
				} else if (chosen) {
					event.preventDefault();
					void go();
				} else if (count && status === 'suggestions') {
					// Enter on a typed name takes the best match, as a search box does.
					event.preventDefault();
					takeBest(suggestions[0]);
				} else if (status === 'loading') {
					// The list on screen may still answer an older term: wait for the one typed.
					event.preventDefault();
					pickWhenAnswered.current = true;
				}
				break;
			case 'Escape':
				event.preventDefault();
				pickWhenAnswered.current = false;
				if (open) {
					setOpen(false);
					setActive(-1);
				} else clear();
				break;
			case 'Tab':
				setOpen(false);
				break;
		}
	}

	const expanded = open && suggestions.length > 0;
	const showEmpty = open && (status === 'no-results' || status === 'error');
	const message =
		status === 'no-results'
			? 'No results found'
			: status === 'error'
				? 'Search is not available right now. Please try again.'
				: status === 'short'
					? `Type at least ${CITY_SEARCH_MIN_CHARS} characters`
					: status === 'suggestions'
						? `${suggestions.length} results. Use the up and down arrows to choose.`
						: status === 'selection' && chosen
							? `${chosen.label} chosen`
							: '';

	return (
		<form
			className="city-search__form"
			onSubmit={(event) => {
				event.preventDefault();
				void go();
			}}
		>
			<label className="city-search__label" htmlFor={`${id}-input`}>
				{label}
			</label>
			<div className="city-search__row">
				<div className="city-search__field">
					<input
						ref={inputRef}
						id={`${id}-input`}
						className="city-search__input"
						type="text"
						role="combobox"
						autoComplete="off"
						spellCheck={false}
						placeholder={label}
						aria-autocomplete="list"
						aria-expanded={expanded}
						aria-controls={listId}
						aria-activedescendant={expanded && active >= 0 ? optionId(active) : undefined}
						aria-describedby={`${id}-status`}
						value={term}
						maxLength={100}
						onChange={(event) => {
							setTerm(event.target.value);
							setChosen(null);
						}}
						onKeyDown={onKeyDown}
						onBlur={() => setOpen(false)}
						onFocus={() => {
							if (suggestions.length && !chosen) setOpen(true);
						}}
					/>
					{term ? (
						<button type="button" className="city-search__clear" aria-label="Clear search" onClick={clear}>
							×
						</button>
					) : null}
					<div
						id={listId}
						className="city-search__listbox"
						role="listbox"
						aria-label={label}
						hidden={!expanded}
					>
						{suggestions.map((suggestion, index) => (
							// biome-ignore lint/a11y/useFocusableInteractive: combobox options stay unfocused; the input points at them with aria-activedescendant (WAI-ARIA combobox pattern).
							// biome-ignore lint/a11y/useKeyWithClickEvents: the input's arrow keys and Enter choose options.
							<div
								key={`${suggestion.value}-${suggestion.label}`}
								id={optionId(index)}
								role="option"
								aria-selected={index === active}
								className={index === active ? 'city-search__option is-active' : 'city-search__option'}
								// Keeps focus in the input so the blur does not close the list first.
								onMouseDown={(event) => event.preventDefault()}
								onClick={() => choose(suggestion)}
							>
								{suggestion.label}
							</div>
						))}
					</div>
					{showEmpty ? (
						<div className="city-search__empty" aria-hidden="true">
							{message}
						</div>
					) : null}
				</div>
				{onChoose ? null : (
					<button type="submit" className="city-search__go" disabled={!chosen || going}>
						{variant === 'view-city-route' ? 'View City Route' : 'Go'}
					</button>
				)}
			</div>
			<p id={`${id}-status`} className="city-search__status" aria-live="polite">
				{message}
			</p>
		</form>
	);
}
