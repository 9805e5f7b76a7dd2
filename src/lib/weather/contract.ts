import * as v from 'valibot';
import { idText } from '../core/integers';

/** What a provider reported for one hour at one place, in SI units; null where it measured nothing. */
export type WeatherObservation = {
	/** The hour observed, ISO 8601 UTC. */
	observedAt: string;
	temperatureC: number;
	apparentTemperatureC: number | null;
	relativeHumidity: number | null;
	precipitationMm: number | null;
	cloudCover: number | null;
	windSpeedMps: number | null;
	windDirectionDeg: number | null;
	/** WMO weather interpretation code. */
	weatherCode: number | null;
};

/** `GET /v7.1/weather/{id}/` as the workout page reads it. */
export type WeatherView = {
	observed_datetime: string;
	temperature: number;
	apparent_temperature: number | null;
	relative_humidity: number | null;
	precipitation: number | null;
	cloud_cover: number | null;
	wind_speed: number | null;
	wind_direction: number | null;
	weather_code: number | null;
	description: string | null;
	attribution: { text: string; href: string };
};

export type WeatherAssociationView = {
	status: 'READY' | 'pending';
	_links: Record<string, { href: string; id: string }[]>;
};

export const WeatherIdParamSchema = v.object({
	id: idText('id must be a workout id'),
});

/** WMO weather interpretation codes, as Open-Meteo documents them. */
const WMO_DESCRIPTIONS: Record<number, string> = {
	0: 'Clear sky',
	1: 'Mainly clear',
	2: 'Partly cloudy',
	3: 'Overcast',
	45: 'Fog',
	48: 'Freezing fog',
	51: 'Light drizzle',
	53: 'Drizzle',
	55: 'Dense drizzle',
	56: 'Light freezing drizzle',
	57: 'Freezing drizzle',
	61: 'Light rain',
	63: 'Rain',
	65: 'Heavy rain',
	66: 'Light freezing rain',
	67: 'Freezing rain',
	71: 'Light snow',
	73: 'Snow',
	75: 'Heavy snow',
	77: 'Snow grains',
	80: 'Light showers',
	81: 'Showers',
	82: 'Violent showers',
	85: 'Light snow showers',
	86: 'Snow showers',
	95: 'Thunderstorm',
	96: 'Thunderstorm with light hail',
	99: 'Thunderstorm with hail',
};

export function describeWeatherCode(code: number | null): string | null {
	return code === null ? null : (WMO_DESCRIPTIONS[code] ?? null);
}

const COMPASS = ['N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW'] as const;

/** The compass point the wind blows from. */
export function compassPoint(degrees: number): (typeof COMPASS)[number] {
	return COMPASS[Math.round((((degrees % 360) + 360) % 360) / 45) % 8];
}
