import * as v from 'valibot';
import type { WeatherObservation } from '../contract';
import type { WeatherAnswer, WeatherProvider } from './provider';

const HOURLY = [
	'temperature_2m',
	'relative_humidity_2m',
	'apparent_temperature',
	'precipitation',
	'weather_code',
	'cloud_cover',
	'wind_speed_10m',
	'wind_direction_10m',
] as const;

const reading = v.array(v.nullable(v.number()));
const ArchiveAnswerSchema = v.object({
	hourly: v.object({
		time: v.array(v.string()),
		temperature_2m: reading,
		relative_humidity_2m: v.optional(reading),
		apparent_temperature: v.optional(reading),
		precipitation: v.optional(reading),
		weather_code: v.optional(reading),
		cloud_cover: v.optional(reading),
		wind_speed_10m: v.optional(reading),
		wind_direction_10m: v.optional(reading),
	}),
});
const ErrorAnswerSchema = v.object({ error: v.literal(true), reason: v.string() });

/** An archive answer is one day of hours: a few kilobytes. More than this is not an answer. */
const MAX_ANSWER_BYTES = 512 * 1024;
/** The archive is published about five days behind: for a recent hour, missing data may come. */
const PUBLISHING_DELAY_MS = 7 * 86_400_000;

async function readCapped(response: Response): Promise<string | null> {
	const declared = Number(response.headers.get('content-length') ?? 0);
	if (declared > MAX_ANSWER_BYTES) return null;
	const text = await response.text();
	return text.length > MAX_ANSWER_BYTES ? null : text;
}

function parseJson(text: string | null): unknown {
	if (text === null) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * Open-Meteo's historical weather API (ERA5 reanalysis and national models, hourly, CC BY 4.0):
 * one request per workout for the day of its middle hour, in UTC and SI units.
 */
export function openMeteoProvider(
	archiveUrl: string,
	options: { now?: () => Date; fetch?: typeof fetch } = {},
): WeatherProvider {
	const now = options.now ?? (() => new Date());
	const get = options.fetch ?? fetch;
	return {
		name: 'open-meteo',
		attribution: { text: 'Weather data by Open-Meteo.com', href: 'https://open-meteo.com/' },
		async observe(place, hour, signal): Promise<WeatherAnswer> {
			const day = hour.toISOString().slice(0, 10);
			const url = new URL(archiveUrl);
			url.search = new URLSearchParams({
				latitude: place.lat.toFixed(2),
				longitude: place.lng.toFixed(2),
				start_date: day,
				end_date: day,
				hourly: HOURLY.join(','),
				timezone: 'GMT',
				wind_speed_unit: 'ms',
				temperature_unit: 'celsius',
				precipitation_unit: 'mm',
			}).toString();
			let response: Response;
			try {
				response = await get(url, { signal, headers: { accept: 'application/json' } });
			} catch (error) {
				return { kind: 'later', reason: `no answer: ${(error as Error).message}` };
			}
			const body = parseJson(await readCapped(response).catch(() => null));
			if (!response.ok) {
				const refusal = v.safeParse(ErrorAnswerSchema, body);
				// 400 names a request it will never answer (a date before its records, say); anything else may pass.
				if (response.status === 400 && refusal.success)
					return { kind: 'none', reason: refusal.output.reason };
				return { kind: 'later', reason: `HTTP ${response.status}` };
			}
			const parsed = v.safeParse(ArchiveAnswerSchema, body);
			if (!parsed.success) return { kind: 'later', reason: 'an answer not in the archive API shape' };
			const hourly = parsed.output.hourly;
			const index = hourly.time.indexOf(`${hour.toISOString().slice(0, 13)}:00`);
			const temperature = index < 0 ? null : hourly.temperature_2m[index];
			if (temperature === null || temperature === undefined) {
				return now().getTime() - hour.getTime() < PUBLISHING_DELAY_MS
					? { kind: 'later', reason: 'not published yet' }
					: { kind: 'none', reason: 'no data for this hour and place' };
			}
			const at = (series: (number | null)[] | undefined) => series?.[index] ?? null;
			const observation: WeatherObservation = {
				observedAt: `${hour.toISOString().slice(0, 13)}:00:00.000Z`,
				temperatureC: temperature,
				apparentTemperatureC: at(hourly.apparent_temperature),
				relativeHumidity: at(hourly.relative_humidity_2m),
				precipitationMm: at(hourly.precipitation),
				cloudCover: at(hourly.cloud_cover),
				windSpeedMps: at(hourly.wind_speed_10m),
				windDirectionDeg: at(hourly.wind_direction_10m),
				weatherCode: at(hourly.weather_code),
			};
			return { kind: 'observed', observation };
		},
	};
}
