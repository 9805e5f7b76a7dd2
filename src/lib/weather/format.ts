import { compassPoint, type WeatherView } from './contract';

/** One line of weather in the member's units: °F and mph for miles, °C and km/h otherwise. */
export function weatherSummary(weather: WeatherView, unit: 'km' | 'mi'): string[] {
	const imperial = unit === 'mi';
	const temperature = (celsius: number) =>
		imperial ? `${Math.round((celsius * 9) / 5 + 32)} °F` : `${Math.round(celsius * 10) / 10} °C`;
	const parts: string[] = [];
	const feels =
		weather.apparent_temperature !== null && Math.abs(weather.apparent_temperature - weather.temperature) >= 1
			? ` (feels like ${temperature(weather.apparent_temperature)})`
			: '';
	parts.push(`${temperature(weather.temperature)}${feels}`);
	if (weather.wind_speed !== null) {
		const speed = imperial
			? `${Math.round(weather.wind_speed * 2.236936)} mph`
			: `${Math.round(weather.wind_speed * 3.6)} km/h`;
		const from = weather.wind_direction === null ? '' : ` from the ${compassPoint(weather.wind_direction)}`;
		parts.push(`wind ${speed}${from}`);
	}
	if (weather.relative_humidity !== null) parts.push(`humidity ${Math.round(weather.relative_humidity)} %`);
	if (weather.precipitation !== null && weather.precipitation > 0)
		parts.push(
			imperial
				? `${(weather.precipitation / 25.4).toFixed(2)} in of rain or snow`
				: `${weather.precipitation} mm of rain or snow`,
		);
	return parts;
}
