import { useId, useMemo, useState } from 'react';
import { listTimeZones } from '../../lib/core/time-zones';

/** "America/New_York" → "America / New York", as people read it. */
function zoneLabel(zone: string): string {
	return zone.replace(/_/g, ' ').replace(/\//g, ' / ');
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
 */
export function TimeZoneField(props: { value: string; onChange: (zone: string) => void; error?: string }) {
	const id = useId();
	const [query, setQuery] = useState('');
	const zones = listTimeZones();
	const shown = useMemo(() => {
		const matches = zonesMatching(zones, query);
		return matches.includes(props.value) ? matches : [props.value, ...matches];
	}, [query, zones, props.value]);
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
				}}
			/>
			<label htmlFor={id}>Time zone</label>
			<select
				id={id}
				name="time_zone"
				value={props.value}
				onChange={(event) => props.onChange(event.target.value)}
				aria-describedby={props.error ? `${id}-error` : undefined}
				aria-invalid={props.error ? true : undefined}
			>
				{shown.map((zone) => (
					<option key={zone} value={zone}>
						{zoneLabel(zone)}
					</option>
				))}
			</select>
			{props.error && (
				<p className="field__error" id={`${id}-error`} role="alert">
					{props.error}
				</p>
			)}
		</div>
	);
}
