import { eq } from 'drizzle-orm';
import type { Config } from '../../core/config';
import type { AppDeps } from '../../core/server/deps';
import { decodeSeries } from '../../workouts/series';
import { getVisibleWorkout, getWorkoutSeries, type WorkoutRow } from '../../workouts/server/service';
import type { WeatherObservation } from '../contract';
import { openMeteoProvider } from './open-meteo';
import type { WeatherAnswer, WeatherProvider } from './provider';
import { workoutWeather } from './tables';

type Deps = Pick<AppDeps, 'db' | 'clock' | 'logger' | 'config'>;
type Viewer = { id: number } | null;

/** How long an association request waits for the provider before answering "pending". */
const ANSWER_WAIT_MS = 2_000;
/** How long a provider may take in all. */
const PROVIDER_TIMEOUT_MS = 10_000;
/** When to ask again after "not yet" or no answer. */
const RETRY_LATER_MS = 60 * 60_000;
/** Positions sent to the provider: a tenth of a degree (about 10 km), coarser than its grid is fine. */
const PLACE_DECIMALS = 1;

const providers = new WeakMap<Config, WeatherProvider | null>();

/** The configured provider, or null: with none, no workout has weather. */
export function weatherProviderFor(config: Config): WeatherProvider | null {
	if (!providers.has(config))
		providers.set(config, config.weather ? openMeteoProvider(config.weather.url) : null);
	return providers.get(config) ?? null;
}

/**
 * The hour and place to ask about: the workout's middle hour and the recorded position nearest
 * its middle, rounded, so the provider never learns a home address from a workout's ends.
 */
async function questionFor(deps: Deps, workout: WorkoutRow) {
	const stored = await getWorkoutSeries(deps, workout.id);
	const samples = stored ? decodeSeries(stored.series) : [];
	const positioned = samples.filter((sample) => sample.lat !== undefined && sample.lng !== undefined);
	if (positioned.length === 0) return null;
	const middleMs = (samples.at(-1)?.offsetMs ?? 0) / 2;
	let nearest = positioned[0];
	for (const sample of positioned)
		if (Math.abs(sample.offsetMs - middleMs) < Math.abs(nearest.offsetMs - middleMs)) nearest = sample;
	const scale = 10 ** PLACE_DECIMALS;
	const place = {
		lat: Math.round((nearest.lat as number) * scale) / scale,
		lng: Math.round((nearest.lng as number) * scale) / scale,
	};
	const hour = new Date(Math.round((workout.startDatetime.getTime() + middleMs) / 3_600_000) * 3_600_000);
	return { place, hour, key: `${hour.toISOString()}|${place.lat}|${place.lng}` };
}

/** What `asked_for` holds for a workout without positions. */
const NO_POSITIONS = 'no positions';

const inFlight = new Map<number, Promise<void>>();

async function record(
	deps: Deps,
	workoutId: number,
	provider: WeatherProvider,
	askedFor: string,
	answer: WeatherAnswer,
) {
	const now = deps.clock();
	const values = {
		status: answer.kind === 'observed' ? 'ready' : answer.kind === 'later' ? 'pending' : 'none',
		provider: provider.name,
		askedFor,
		observation: answer.kind === 'observed' ? answer.observation : null,
		retryAfter: answer.kind === 'later' ? new Date(now.getTime() + RETRY_LATER_MS) : null,
		updatedAt: now,
	};
	await deps.db
		.insert(workoutWeather)
		.values({ workoutId, ...values })
		.onConflictDoUpdate({ target: workoutWeather.workoutId, set: values });
}

/** Asks the provider once per workout at a time; a failure is logged and leaves it pending. */
function ask(deps: Deps, workout: WorkoutRow, provider: WeatherProvider): Promise<void> {
	const running = inFlight.get(workout.id);
	if (running) return running;
	const job = (async () => {
		const question = await questionFor(deps, workout);
		if (!question) {
			await record(deps, workout.id, provider, NO_POSITIONS, { kind: 'none', reason: NO_POSITIONS });
			return;
		}
		const answer = await provider.observe(
			question.place,
			question.hour,
			AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
		);
		if (answer.kind !== 'observed')
			deps.logger.info({ workoutId: workout.id, reason: answer.reason }, `no weather yet (${answer.kind})`);
		await record(deps, workout.id, provider, question.key, answer);
	})()
		.catch((error) => {
			// The workout may have been deleted meanwhile; either way the next request asks again.
			deps.logger.warn({ err: error, workoutId: workout.id }, 'weather lookup failed');
		})
		.finally(() => inFlight.delete(workout.id));
	inFlight.set(workout.id, job);
	return job;
}

async function storedWeather(deps: Deps, workoutId: number) {
	const [row] = await deps.db.select().from(workoutWeather).where(eq(workoutWeather.workoutId, workoutId));
	return row ?? null;
}

export type WeatherState = { ready: true; observation: WeatherObservation } | { ready: false };

/** The stored answer when it was given for the workout as it is now (an edit may have moved it). */
async function currentAnswer(deps: Deps, workout: WorkoutRow) {
	const row = await storedWeather(deps, workout.id);
	if (!row) return null;
	const question = await questionFor(deps, workout);
	return row.askedFor === (question?.key ?? NO_POSITIONS) ? row : null;
}

/**
 * The weather of a workout the viewer may see (404 otherwise): ready when the provider has
 * answered for the workout as it is now; otherwise it asks (waiting a moment for the answer) and
 * says pending. With no provider configured it is always pending and nothing is asked.
 */
export async function workoutWeatherFor(
	deps: Deps,
	viewer: Viewer,
	workoutId: number,
): Promise<WeatherState> {
	const workout = await getVisibleWorkout(deps, viewer, workoutId);
	const provider = weatherProviderFor(deps.config);
	if (!provider) return { ready: false };
	let row = await currentAnswer(deps, workout);
	if (row?.status === 'ready' && row.observation) return { ready: true, observation: row.observation };
	if (row && (row.status === 'none' || (row.retryAfter !== null && row.retryAfter > deps.clock())))
		return { ready: false };
	await Promise.race([
		ask(deps, workout, provider),
		new Promise((resolve) => setTimeout(resolve, ANSWER_WAIT_MS)),
	]);
	row = await currentAnswer(deps, workout);
	return row?.status === 'ready' && row.observation
		? { ready: true, observation: row.observation }
		: { ready: false };
}

/** The stored weather of a workout the viewer may see, only once it is ready (null otherwise). */
export async function readyWeatherFor(deps: Deps, viewer: Viewer, workoutId: number) {
	const workout = await getVisibleWorkout(deps, viewer, workoutId);
	const provider = weatherProviderFor(deps.config);
	const row = provider ? await currentAnswer(deps, workout) : null;
	if (!provider || row?.status !== 'ready' || !row.observation) return null;
	return { observation: row.observation, attribution: provider.attribution };
}
