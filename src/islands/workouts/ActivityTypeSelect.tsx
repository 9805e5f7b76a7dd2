import { useStore } from '@nanostores/react';
import { useDeferredValue, useEffect, useMemo, useState } from 'react';
import { $activityTypes, groupActivityTypes, loadActivityTypes } from '../../lib/workouts/store';
import './activity-type-select.scss';

export type ActivityTypeSelectProps = {
	/** The id of the select; the search field and the messages take it as a prefix. */
	id: string;
	value: number | null;
	onChange: (id: number, name: string) => void;
	/** A message about the choice (such as "Choose an activity."), shown under it. */
	error?: string;
	/**
	 * For filters (stats, a calendar): "All Activities" and "No Activities" come first, and choosing
	 * one of them reports it here instead of a type.
	 */
	filter?: { value: ActivityFilter | null; onChange: (value: ActivityFilter) => void };
};

/** The two entries a filter offers besides the types, as the API's `activity_types` names them. */
export type ActivityFilter = 'all' | 'none';
const FILTER_LABELS: Record<ActivityFilter, string> = { all: 'All Activities', none: 'No Activities' };

/**
 * Choosing an activity type: a native select grouped by top-level type with a "Popular" group
 * first, and a search field that narrows it. The list loads once and is kept in this browser.
 */
export default function ActivityTypeSelect({ id, value, onChange, error, filter }: ActivityTypeSelectProps) {
	const state = useStore($activityTypes);
	const [search, setSearch] = useState('');
	useEffect(() => {
		void loadActivityTypes();
	}, []);
	// Redrawing a thousand options takes a moment on a slow phone: the field takes each key at once
	// and the list follows when it can.
	const listedSearch = useDeferredValue(search);
	const groups = useMemo(() => groupActivityTypes(state.types, listedSearch), [state.types, listedSearch]);
	const shown = groups.reduce((count, group) => count + group.options.length, 0);
	const chosen = state.types.find((type) => type.id === value) ?? null;
	const chosenHidden = chosen !== null && !groups.some((group) => group.options.some((o) => o.id === value));
	const describedBy = [`${id}-status`, error ? `${id}-error` : ''].filter(Boolean).join(' ');

	if (state.status === 'error')
		return (
			<div className="activity-type-select" data-state="error">
				<span className="activity-type-select__label">Activity type</span>
				<p role="alert" className="activity-type-select__failed">
					Error loading activity types.{' '}
					<button type="button" onClick={() => void loadActivityTypes({ force: true })}>
						Retry?
					</button>
				</p>
			</div>
		);

	const loaded = state.status === 'loaded';
	return (
		<div className="activity-type-select" data-state={loaded ? 'loaded' : 'loading'}>
			<label htmlFor={`${id}-search`}>Find an activity</label>
			<input
				id={`${id}-search`}
				type="search"
				value={search}
				onChange={(event) => setSearch(event.currentTarget.value)}
				disabled={!loaded}
				autoComplete="off"
				placeholder="Type to narrow the list, such as run"
				aria-controls={id}
			/>
			<label htmlFor={id}>Activity type</label>
			<select
				id={id}
				value={filter?.value ?? (value === null ? '' : String(value))}
				disabled={!loaded}
				aria-invalid={error ? true : undefined}
				aria-describedby={describedBy}
				onChange={(event) => {
					const chosenValue = event.currentTarget.value;
					if (filter && (chosenValue === 'all' || chosenValue === 'none'))
						return filter.onChange(chosenValue);
					const picked = state.types.find((type) => String(type.id) === event.currentTarget.value);
					if (picked) onChange(picked.id, picked.name);
				}}
			>
				<option value="" disabled>
					{loaded ? 'Choose an activity' : 'Loading activity types…'}
				</option>
				{filter &&
					(['all', 'none'] as const).map((entry) => (
						<option key={entry} value={entry}>
							{FILTER_LABELS[entry]}
						</option>
					))}
				{chosen && chosenHidden && <option value={String(chosen.id)}>{chosen.name}</option>}
				{groups.map((group) => (
					<optgroup key={group.label} label={group.label}>
						{group.options.map((option) => (
							<option key={`${group.label}-${option.id}`} value={String(option.id)}>
								{option.name}
							</option>
						))}
					</optgroup>
				))}
			</select>
			<small id={`${id}-status`} role="status">
				{!loaded
					? 'Loading activity types…'
					: listedSearch.trim() === ''
						? ''
						: shown === 0
							? 'No results found'
							: `${shown} ${shown === 1 ? 'activity matches' : 'activities match'}`}
			</small>
			{error && (
				<small id={`${id}-error`} className="activity-type-select__error">
					{error}
				</small>
			)}
		</div>
	);
}
