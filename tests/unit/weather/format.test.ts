import { expect, test } from 'vitest';
import { compassPoint, describeWeatherCode, type WeatherView } from '../../../src/lib/weather/contract';
import { weatherSummary } from '../../../src/lib/weather/format';

const weather: WeatherView = {
	observed_datetime: '2026-05-01T08:00:00+00:00',
	temperature: 8.5,
	apparent_temperature: 6.5,
	relative_humidity: 58,
	precipitation: 0.4,
	cloud_cover: 18,
	wind_speed: 5,
	wind_direction: 208,
	weather_code: 61,
	description: 'Light rain',
	attribution: { text: 'Weather data by Open-Meteo.com', href: 'https://open-meteo.com/' },
};

test('weather reads in the member units, with the wind named by where it comes from', () => {
	expect(weatherSummary(weather, 'km')).toEqual([
		'8.5 °C (feels like 6.5 °C)',
		'wind 18 km/h from the SW',
		'humidity 58 %',
		'0.4 mm of rain or snow',
	]);
	expect(weatherSummary(weather, 'mi')).toEqual([
		'47 °F (feels like 44 °F)',
		'wind 11 mph from the SW',
		'humidity 58 %',
		'0.02 in of rain or snow',
	]);
});

test('what was not measured is left out, never guessed', () => {
	const sparse = {
		...weather,
		apparent_temperature: null,
		wind_speed: null,
		relative_humidity: null,
		precipitation: null,
	};
	expect(weatherSummary(sparse, 'km')).toEqual(['8.5 °C']);
	expect(describeWeatherCode(null)).toBeNull();
	expect(describeWeatherCode(1234)).toBeNull();
	expect(describeWeatherCode(0)).toBe('Clear sky');
	expect(compassPoint(0)).toBe('N');
	expect(compassPoint(359)).toBe('N');
	expect(compassPoint(-90)).toBe('W');
	expect(compassPoint(112)).toBe('E');
	expect(compassPoint(135)).toBe('SE');
});
