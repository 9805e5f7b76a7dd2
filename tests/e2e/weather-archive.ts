import { createServer, type Server } from 'node:http';

/**
 * A local stand-in for Open-Meteo's historical weather API for the browser tests: the server under
 * test is pointed at it through OPEN_METEO_ARCHIVE_URL and gets answers in that API's shape. Every
 * day it is asked about had the same steady light rain, so tests can name what the page shows.
 */
export function startWeatherArchive(port: number): Server {
	const server = createServer((request, response) => {
		const url = new URL(request.url ?? '/', 'http://127.0.0.1');
		const day = url.searchParams.get('start_date');
		if (url.pathname !== '/v1/archive' || !day || !/^\d{4}-\d{2}-\d{2}$/.test(day)) {
			response.writeHead(400, { 'content-type': 'application/json' });
			response.end(JSON.stringify({ error: true, reason: 'start_date is required' }));
			return;
		}
		const hours = Array.from({ length: 24 }, (_, hour) => `${day}T${String(hour).padStart(2, '0')}:00`);
		const steady = (value: number) => hours.map(() => value);
		response.writeHead(200, { 'content-type': 'application/json' });
		response.end(
			JSON.stringify({
				latitude: Number(url.searchParams.get('latitude')),
				longitude: Number(url.searchParams.get('longitude')),
				generationtime_ms: 0.2,
				utc_offset_seconds: 0,
				timezone: 'GMT',
				timezone_abbreviation: 'GMT',
				elevation: 100,
				hourly_units: { time: 'iso8601', temperature_2m: '°C' },
				hourly: {
					time: hours,
					temperature_2m: steady(14.2),
					relative_humidity_2m: steady(81),
					apparent_temperature: steady(12.9),
					precipitation: steady(0.3),
					weather_code: steady(61),
					cloud_cover: steady(90),
					wind_speed_10m: steady(4.2),
					wind_direction_10m: steady(225),
				},
			}),
		);
	});
	server.listen(port, '127.0.0.1');
	server.unref();
	return server;
}
