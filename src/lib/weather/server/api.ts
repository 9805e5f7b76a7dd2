import { Hono } from 'hono';
import { describeRoute } from 'hono-openapi';
import type { ApiEnv } from '../../api/context';
import { both, link } from '../../api/hal';
import { validate } from '../../api/validate';
import { formatApiDateTime } from '../../core/dates';
import { AppError } from '../../core/errors';
import {
	describeWeatherCode,
	type WeatherAssociationView,
	WeatherIdParamSchema,
	type WeatherView,
} from '../contract';
import { readyWeatherFor, workoutWeatherFor } from './service';

/** The weather at a workout: the association says READY with a link to it, or pending. */
export function createWeatherApi(): Hono<ApiEnv> {
	const app = new Hono<ApiEnv>();

	for (const path of both('/v7.1/weather/workout_association/:id/')) {
		app.get(
			path,
			describeRoute({ summary: "Whether a workout's weather is ready, with a link to it when it is" }),
			validate('param', WeatherIdParamSchema),
			async (c) => {
				const id = Number(c.req.valid('param').id);
				const state = await workoutWeatherFor(c.var.deps, c.var.viewer, id);
				const body: WeatherAssociationView = {
					status: state.ready ? 'READY' : 'pending',
					_links: {
						self: link('weather/workout_association', id),
						workout: link('workout', id),
						...(state.ready ? { weather: link('weather', id) } : {}),
					},
				};
				c.header('Cache-Control', 'private, no-store');
				return c.json(body);
			},
		);
	}

	for (const path of both('/v7.1/weather/:id/')) {
		app.get(
			path,
			describeRoute({ summary: 'The weather a provider reported at a workout' }),
			validate('param', WeatherIdParamSchema),
			async (c) => {
				const id = Number(c.req.valid('param').id);
				const found = await readyWeatherFor(c.var.deps, c.var.viewer, id);
				if (!found) throw new AppError('not_found', 'This workout has no weather');
				const { observation: o, attribution } = found;
				const body: WeatherView = {
					observed_datetime: formatApiDateTime(new Date(o.observedAt)),
					temperature: o.temperatureC,
					apparent_temperature: o.apparentTemperatureC,
					relative_humidity: o.relativeHumidity,
					precipitation: o.precipitationMm,
					cloud_cover: o.cloudCover,
					wind_speed: o.windSpeedMps,
					wind_direction: o.windDirectionDeg,
					weather_code: o.weatherCode,
					description: describeWeatherCode(o.weatherCode),
					attribution,
				};
				c.header('Cache-Control', 'private, no-store');
				return c.json({ ...body, _links: { self: link('weather', id), workout: link('workout', id) } });
			},
		);
	}
	return app;
}
