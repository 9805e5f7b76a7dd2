import 'leaflet/dist/leaflet.css';
import './track-heatmap.scss';
import L from 'leaflet';
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { errorData } from '../../lib/api/client';
import { escapeHtml } from '../../lib/core/html';
import { type MapTileLayer, OSM_ATTRIBUTION } from '../../lib/core/map-types';
import { decodePolyline } from '../../lib/routing/polyline';
import { storedMapType } from '../../lib/site/map-memory';
import type { TrackHeatmap as TrackHeatmapAnswer } from '../../lib/stats/contract';
import { formatCount } from '../../lib/stats/format';
import { GROUP_LABELS } from '../../lib/stats/groups';
import { fetchTrackHeatmap } from '../../lib/stats/store';
import { addBaseLayer } from '../routes/map-layers';
import { TrackHeatLayer } from './track-heat-layer';

export type TrackHeatmapProps = {
	/** The configured map types, the default first. */
	layers: MapTileLayer[];
	/** The filters the page address asked for: an activity group or 'all', a year or null for every year. */
	initialGroup: string;
	initialYear: number | null;
};

/** The precision the API encodes the lines in. */
const LINE_PRECISION = 5;
/** The ramp's custom properties on the map element, from where one track runs to where most overlap. */
const RAMP_PROPERTIES = ['--track-heat-1', '--track-heat-2', '--track-heat-3', '--track-heat-4'];

type Loaded =
	| { status: 'loading' }
	| { status: 'failed'; message: string }
	| { status: 'loaded'; answer: TrackHeatmapAnswer };

/**
 * The member's own workout tracks as a heat layer over the base map, with an activity group and a
 * year to choose (plain selects: the arrow keys change them), the number of workouts drawn, and an
 * invitation to upload a workout when there is nothing to draw. Each choice is kept in the page
 * address, so a reload or a shared link opens the same view.
 */
export default function TrackHeatmap({ layers, initialGroup, initialYear }: TrackHeatmapProps) {
	const [group, setGroup] = useState(initialGroup);
	const [year, setYear] = useState<number | null>(initialYear);
	const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });
	const element = useRef<HTMLElement>(null);
	const groupId = useId();
	const yearId = useId();

	useEffect(() => {
		let current = true;
		setLoaded({ status: 'loading' });
		fetchTrackHeatmap({ group, year })
			.then((answer) => {
				if (current) setLoaded({ status: 'loaded', answer });
			})
			.catch((error) => {
				if (current)
					setLoaded({ status: 'failed', message: errorData(error).message || 'Please try again.' });
			});
		const address = new URL(window.location.href);
		if (group === 'all') address.searchParams.delete('activity_groups');
		else address.searchParams.set('activity_groups', group);
		if (year === null) address.searchParams.delete('year');
		else address.searchParams.set('year', String(year));
		window.history.replaceState(window.history.state, '', address);
		return () => {
			current = false;
		};
	}, [group, year]);

	const answer = loaded.status === 'loaded' ? loaded.answer : null;
	// The choices stay those of the last answer while the next one loads, so a select keeps its options.
	const [choices, setChoices] = useState<Pick<TrackHeatmapAnswer, 'groups' | 'years'>>({
		groups: [],
		years: [],
	});
	useEffect(() => {
		if (answer) setChoices({ groups: answer.groups, years: answer.years });
	}, [answer]);
	const lines = useMemo(
		() => (answer ? answer.lines.map((line) => decodePolyline(line, LINE_PRECISION)) : []),
		[answer],
	);

	useEffect(() => {
		const host = element.current;
		if (!host || lines.length === 0) return;
		const map = L.map(host, { scrollWheelZoom: false });
		map.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
		const style = getComputedStyle(host);
		const heat = new TrackHeatLayer(
			lines,
			RAMP_PROPERTIES.map((property) => style.getPropertyValue(property).trim()),
		);
		map.fitBounds(heat.bounds(), { padding: [24, 24], maxZoom: 16 });
		heat.addTo(map);
		const layer = layers.find((candidate) => candidate.type === storedMapType(layers)) ?? layers[0];
		const removeBase = layer ? addBaseLayer(map, layer) : () => {};
		host.dataset.drawn = String(lines.length);
		return () => {
			delete host.dataset.drawn;
			removeBase();
			map.remove();
		};
	}, [lines, layers]);

	// The groups and years on offer: the member's own, and always the one chosen, even with nothing in it.
	const { groups, years } = choices;
	const groupChoices = group !== 'all' && !groups.includes(group as never) ? [...groups, group] : groups;
	const yearChoices = year !== null && !years.includes(year) ? [...years, year].sort((a, b) => b - a) : years;
	const filtered = group !== 'all' || year !== null;

	return (
		<div className="track-heatmap">
			<form className="track-heatmap__filters" onSubmit={(event) => event.preventDefault()}>
				<label htmlFor={groupId}>Activity</label>
				<select
					id={groupId}
					value={group}
					onChange={(event) => setGroup(event.target.value)}
					data-testid="track-heatmap-group"
				>
					<option value="all">All activities</option>
					{groupChoices.map((choice) => (
						<option key={choice} value={choice}>
							{GROUP_LABELS[choice as keyof typeof GROUP_LABELS] ?? choice}
						</option>
					))}
				</select>
				<label htmlFor={yearId}>Year</label>
				<select
					id={yearId}
					value={year === null ? 'all' : String(year)}
					onChange={(event) => setYear(event.target.value === 'all' ? null : Number(event.target.value))}
					data-testid="track-heatmap-year"
				>
					<option value="all">All years</option>
					{yearChoices.map((choice) => (
						<option key={choice} value={String(choice)}>
							{choice}
						</option>
					))}
				</select>
			</form>
			<p className="track-heatmap__count" aria-live="polite" data-testid="track-heatmap-count">
				{loaded.status === 'loading' && 'Drawing your workouts…'}
				{loaded.status === 'failed' && `Your heatmap could not be loaded: ${loaded.message}`}
				{answer && `${formatCount(answer.workout_count)} shown`}
			</p>
			{answer && answer.workout_count === 0 && (
				<div className="track-heatmap__empty" data-testid="track-heatmap-empty">
					<p>
						{filtered
							? 'None of your workouts with a map match these filters.'
							: 'Your heatmap fills in as you record workouts with GPS: none of yours has a map yet.'}
					</p>
					<p>
						<a href="/workout/import/">Upload a workout</a>
					</p>
				</div>
			)}
			<section
				ref={element}
				className={`track-heatmap__map${lines.length === 0 ? ' track-heatmap__map--empty' : ''}`}
				aria-label="Heatmap of your workouts"
				data-testid="track-heatmap-map"
			/>
		</div>
	);
}
