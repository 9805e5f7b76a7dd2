import { useEffect, useState } from 'react';
import { api, ensureSession } from '../../lib/api/client';
import type { WeatherAssociationView, WeatherView } from '../../lib/weather/contract';
import { weatherSummary } from '../../lib/weather/format';
import './workout-weather.scss';

export type WorkoutWeatherProps = { workoutId: number; unit: 'km' | 'mi'; timeZone: string };

/** How often, and how many times, a pending weather is asked for again while the page is open. */
const POLL_MS = 4_000;
const POLLS = 4;

/**
 * The weather at the workout, once the provider has answered: the association says READY with a
 * link, and the link gives the weather. Until then, and when it never comes, nothing is shown.
 */
export default function WorkoutWeather({ workoutId, unit, timeZone }: WorkoutWeatherProps) {
	const [weather, setWeather] = useState<WeatherView | null>(null);

	useEffect(() => {
		let stopped = false;
		let timer: ReturnType<typeof setTimeout> | undefined;
		const check = async (attempt: number) => {
			try {
				const association = await api<WeatherAssociationView>(
					`/v7.1/weather/workout_association/${workoutId}/`,
				);
				const link = association._links.weather?.[0]?.href;
				if (association.status === 'READY' && link) {
					const found = await api<WeatherView>(link);
					if (!stopped) setWeather(found);
					return;
				}
			} catch {
				// No weather is shown rather than an error: it is extra to the workout.
			}
			if (!stopped && attempt + 1 < POLLS) timer = setTimeout(() => check(attempt + 1), POLL_MS);
		};
		ensureSession()
			.catch(() => null)
			.then(() => check(0));
		return () => {
			stopped = true;
			clearTimeout(timer);
		};
	}, [workoutId]);

	if (!weather) return null;
	const hour = new Intl.DateTimeFormat('en', { timeZone, hour: 'numeric', minute: '2-digit' }).format(
		new Date(weather.observed_datetime),
	);
	return (
		<section className="workout-weather" aria-labelledby="weather-title" data-testid="workout-weather">
			<h2 id="weather-title">Weather</h2>
			<p>
				{weather.description && <strong>{weather.description}, </strong>}
				{weatherSummary(weather, unit).join(' · ')}
			</p>
			<p className="workout-weather__source">
				Around {hour} nearby. <a href={weather.attribution.href}>{weather.attribution.text}</a>
			</p>
		</section>
	);
}
