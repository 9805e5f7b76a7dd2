import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { CityTimeZone } from '../../lib/account/contract';
import { api } from '../../lib/api/client';
import { listTimeZones } from '../../lib/core/time-zones';

/** Fewer letters than this match too many towns to be worth asking the server about. */
const CITY_TERM_MIN = 3;
/** Waits for a pause in typing before asking, so a fast typist sends one question. */
const CITY_LOOKUP_DELAY_MS = 200;

/** "America/New_York" → "America / New York", as people read it. */
function zoneLabel(zone: string): string {
	return zone.replace(/_/g, ' ').replace(/\//g, ' / ');
}

function zoneOptions(zones: readonly string[]) {
	return zones.map((zone) => (
		<option key={zone} value={zone}>
			{zoneLabel(zone)}
		</option>
	));
}

/** The zones whose names hold every word of a search ("new york", "kolkata", "europe/ber"). */
function zonesMatching(zones: readonly string[], query: string): readonly string[] {
	const words = query.toLowerCase().replace(/[_/]/g, ' ').split(/\s+/).filter(Boolean);
	if (words.length === 0) return zones;
	return zones.filter((zone) => {
		const name = zone.toLowerCase().replace(/[_/]/g, ' ');
		return words.every((word) => name.includes(word));
	});
}

/**
 * A time-zone select over the IANA zones (about 420), with a search box that narrows its choices
 * and picks the first match as the member types; the chosen zone always stays among the choices.
 * The search also finds cities by name ("Harrisburg, Pennsylvania, US — America/New_York"), offered
 * above the zones; when no zone's name matches, the first city's zone is picked.
 */
export function TimeZoneField(props: { value: string; onChange: (zone: string) => void; error?: string }) {
	const id = useId();
	const [query, setQuery] = useState('');
	const [cities, setCities] = useState<CityTimeZone[]>([]);
	const lookup = useRef<{ timer?: ReturnType<typeof setTimeout>; controller?: AbortController }>({});
	const zones = listTimeZones();
	const shown = useMemo(() => {
		const matches = zonesMatching(zones, query);
		const offered = matches.includes(props.value) || cities.some((city) => city.time_zone === props.value);
		return offered ? matches : [props.value, ...matches];
	}, [query, zones, props.value, cities]);

	// A lookup still waiting when the field goes away must not set its state.
	useEffect(
		() => () => {
			clearTimeout(lookup.current.timer);
			lookup.current.controller?.abort();
		},
		[],
	);

	function stopLookup() {
		clearTimeout(lookup.current.timer);
		lookup.current.controller?.abort();
		lookup.current = {};
	}

	/** Asks for the cities a search names; an answer to an older search, or after a pick by hand, changes nothing. */
	function lookUpCities(text: string, zoneMatched: boolean) {
		stopLookup();
		const term = text.trim();
		if (term.length < CITY_TERM_MIN) return setCities([]);
		const controller = new AbortController();
		lookup.current = {
			controller,
			timer: setTimeout(() => {
				api<CityTimeZone[]>('/_api/time_zone_search/', { query: { term }, signal: controller.signal })
					.then((found) => {
						if (controller.signal.aborted) return;
						setCities(found);
						if (!zoneMatched && found[0]) props.onChange(found[0].time_zone);
					})
					// Offline or superseded: the zone names still match as the member types.
					.catch(() => undefined);
			}, CITY_LOOKUP_DELAY_MS),
		};
	}

	return (
		<div className="field">
			<label htmlFor={`${id}-search`}>Search time zones</label>
			<input
				id={`${id}-search`}
				type="search"
				value={query}
				placeholder="City or region, for example Chicago"
				autoComplete="off"
				onChange={(event) => {
					setQuery(event.target.value);
					const first = event.target.value.trim() ? zonesMatching(zones, event.target.value)[0] : undefined;
					if (first) props.onChange(first);
					lookUpCities(event.target.value, first !== undefined);
				}}
			/>
			<label htmlFor={id}>Time zone</label>
			<select
				id={id}
				name="time_zone"
				value={props.value}
				onChange={(event) => {
					stopLookup();
					props.onChange(event.target.value);
				}}
				aria-describedby={props.error ? `${id}-error` : undefined}
				aria-invalid={props.error ? true : undefined}
			>
				{cities.length > 0 && (
					<optgroup label="Cities">
						{cities.map((city) => (
							<option key={`${city.label}|${city.time_zone}`} value={city.time_zone}>
								{`${city.label} — ${city.time_zone}`}
							</option>
						))}
					</optgroup>
				)}
				{cities.length > 0 ? (
					<optgroup label="Time zones">{zoneOptions(shown)}</optgroup>
				) : (
					zoneOptions(shown)
				)}
			</select>
			{props.error && (
				<p className="field__error" id={`${id}-error`} role="alert">
					{props.error}
				</p>
			)}
		</div>
	);
}
