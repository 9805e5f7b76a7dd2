import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import type { Unit } from '../../lib/routes/render';
import { WORKOUT_PRIVACY_LABELS, WORKOUT_PRIVACY_VALUES } from '../../lib/workouts/contract';
import {
	checkCalories,
	checkDistance,
	checkDuration,
	checkStartTime,
	checkWorkoutDate,
	todayIn,
} from '../../lib/workouts/log-form';
import { PERCEIVED_EFFORT_LABELS, PERCEIVED_EFFORTS } from '../../lib/workouts/perceived-effort';
import { estimateCalories, saveWorkout } from '../../lib/workouts/store';
import { useFormTakeover } from '../form-takeover';
import ActivityTypeSelect from './ActivityTypeSelect';
import './workout-log.scss';
import { trackEvent } from '../../lib/analytics/queue';

export type WorkoutLogProps = {
	unit: Unit;
	/** The member's time zone: "today" and the start time are theirs. */
	timeZone: string;
	/** Today and the time now in that zone, from the server, so the first render matches. */
	today: string;
	nowTime: string;
	defaultPrivacy: number;
	/** The member's gear in use, to pick the shoes or bike worn. */
	gear?: { id: number; label: string }[];
};

type Field =
	| 'activity'
	| 'date'
	| 'time'
	| 'hours'
	| 'minutes'
	| 'seconds'
	| 'duration'
	| 'distance'
	| 'calories';

/** Where each message points, so the summary links and the first error takes the focus. */
const FIELD_INPUT: Record<Field, string> = {
	activity: 'workout-activity',
	date: 'workout-date',
	time: 'workout-time',
	hours: 'workout-hours',
	minutes: 'workout-minutes',
	seconds: 'workout-seconds',
	duration: 'workout-hours',
	distance: 'workout-distance',
	calories: 'workout-calories',
};
const CALORIE_ESTIMATE_DELAY_MS = 500;

/**
 * Logging a workout by hand: the activity, when, how long, how far, its name, notes, who sees it
 * and the calories (estimated as the fields change, or typed). Saving opens the workout; a refusal
 * says why and keeps everything typed.
 */
export default function WorkoutLog({
	unit,
	timeZone,
	today,
	nowTime,
	defaultPrivacy,
	gear = [],
}: WorkoutLogProps) {
	const [activity, setActivity] = useState<{ id: number; name: string } | null>(null);
	const [date, setDate] = useState(today);
	const [time, setTime] = useState(nowTime);
	const [duration, setDuration] = useState({ hours: '', minutes: '', seconds: '' });
	const [distance, setDistance] = useState('');
	const [name, setName] = useState('');
	const [notes, setNotes] = useState('');
	const [privacy, setPrivacy] = useState(defaultPrivacy);
	const [gearId, setGearId] = useState('');
	const [effort, setEffort] = useState('');
	const [calories, setCalories] = useState('');
	const [caloriesTyped, setCaloriesTyped] = useState(false);
	const [estimate, setEstimate] = useState<'idle' | 'working' | 'done' | 'failed'>('idle');
	const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
	const [submitted, setSubmitted] = useState(false);
	const [saving, setSaving] = useState(false);
	const [saveError, setSaveError] = useState<{ message: string; fields: string[] } | null>(null);
	const summaryRef = useRef<HTMLDivElement>(null);
	const formRef = useRef<HTMLFormElement>(null);
	// What was typed or chosen while the page was still plain HTML becomes the form's state.
	const durationPart = (part: keyof typeof duration) => (text: string) =>
		setDuration((before) => ({ ...before, [part]: text }));
	useFormTakeover(formRef, {
		'workout-date': setDate,
		'workout-time': setTime,
		'workout-hours': durationPart('hours'),
		'workout-minutes': durationPart('minutes'),
		'workout-seconds': durationPart('seconds'),
		'workout-distance': setDistance,
		'workout-calories': (text) => {
			setCalories(text);
			setCaloriesTyped(true);
		},
		'workout-name': setName,
		'workout-notes': setNotes,
		'workout-privacy': (level) => setPrivacy(Number(level)),
		'workout-gear': setGearId,
		'workout-effort': setEffort,
	});

	const durationCheck = checkDuration(duration);
	const errors = useMemo(() => {
		const found: Partial<Record<Field, string>> = { ...durationCheck.errors };
		if (!activity) found.activity = 'Choose an activity.';
		const dateError = checkWorkoutDate(date, todayIn(timeZone));
		if (dateError) found.date = dateError;
		else {
			const start = checkStartTime(date, time, timeZone);
			if (start.error) found.time = start.error;
		}
		const distanceError = checkDistance(distance, unit).error;
		if (distanceError) found.distance = distanceError;
		const caloriesError = checkCalories(calories).error;
		if (caloriesError) found.calories = caloriesError;
		return found;
	}, [activity, date, time, durationCheck.errors, distance, calories, timeZone, unit]);

	const shown = (field: Field) => (submitted || touched[field] ? errors[field] : undefined);
	const touch = (field: Field) => () => setTouched((before) => ({ ...before, [field]: true }));

	// The estimate follows the activity and duration until the member types calories of their own.
	const durationSeconds = durationCheck.seconds;
	useEffect(() => {
		if (caloriesTyped || !activity || durationSeconds === null) return;
		const controller = new AbortController();
		const timer = window.setTimeout(() => {
			setEstimate('working');
			estimateCalories(activity.id, durationSeconds, controller.signal)
				.then((kcal) => {
					setCalories(String(Math.round(kcal)));
					setEstimate('done');
				})
				.catch(() => {
					if (!controller.signal.aborted) setEstimate('failed');
				});
		}, CALORIE_ESTIMATE_DELAY_MS);
		return () => {
			window.clearTimeout(timer);
			controller.abort();
		};
	}, [activity, durationSeconds, caloriesTyped]);

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		setSubmitted(true);
		setSaveError(null);
		const firstError = (Object.keys(FIELD_INPUT) as Field[]).find((field) => errors[field]);
		if (firstError || !activity || durationSeconds === null) {
			window.requestAnimationFrame(() => summaryRef.current?.focus());
			return;
		}
		const start = checkStartTime(date, time, timeZone);
		const metres = checkDistance(distance, unit).metres;
		const joules = checkCalories(calories).joules;
		const aggregates: Record<string, number> = {
			elapsed_time_total: durationSeconds,
			active_time_total: durationSeconds,
		};
		if (metres !== null) aggregates.distance_total = Math.round(metres * 100) / 100;
		if (joules !== null) aggregates.metabolic_energy_total = joules;
		setSaving(true);
		const outcome = await saveWorkout({
			name: name.trim() || activity.name,
			start_datetime: start.iso as string,
			start_locale_timezone: timeZone,
			activity_type: activity.id,
			privacy,
			notes,
			aggregates,
			...(gearId ? { gear: Number(gearId) } : {}),
			...(effort ? { perceived_effort: Number(effort) } : {}),
		});
		if (outcome.ok) {
			trackEvent('workout_created', { source: 'log' });
			window.location.assign(`/workout/${outcome.id}`);
			return;
		}
		setSaving(false);
		setSaveError({ message: outcome.message, fields: outcome.fields });
		window.requestAnimationFrame(() => summaryRef.current?.focus());
	}

	const listed = submitted ? (Object.keys(FIELD_INPUT) as Field[]).filter((field) => errors[field]) : [];
	const describedBy = (field: Field, hint?: string) =>
		[hint, shown(field) ? `${FIELD_INPUT[field]}-error` : ''].filter(Boolean).join(' ') || undefined;
	const message = (field: Field) =>
		shown(field) ? (
			<small id={`${FIELD_INPUT[field]}-error`} className="workout-log__error">
				{shown(field)}
			</small>
		) : null;
	const durationMessages = (['hours', 'minutes', 'seconds', 'duration'] as const).flatMap((field) => {
		const text = shown(field);
		return text ? [{ field, text }] : [];
	});

	return (
		<form ref={formRef} className="workout-log" onSubmit={submit} noValidate data-testid="workout-log">
			<div ref={summaryRef} tabIndex={-1} className="workout-log__summary" aria-live="polite">
				{listed.length > 0 && (
					<div role="alert" className="workout-log__problems">
						<p>Please fix {listed.length === 1 ? 'this' : 'these'} before saving:</p>
						<ul>
							{listed.map((field) => (
								<li key={field}>
									<a href={`#${FIELD_INPUT[field]}`}>{errors[field]}</a>
								</li>
							))}
						</ul>
					</div>
				)}
				{saveError && (
					<div role="alert" className="workout-log__problems" data-testid="workout-save-error">
						<p>{saveError.message}</p>
						{saveError.fields.length > 0 && (
							<ul>
								{saveError.fields.map((text) => (
									<li key={text}>{text}</li>
								))}
							</ul>
						)}
						<p>Everything you entered is still here.</p>
					</div>
				)}
			</div>

			<ActivityTypeSelect
				id="workout-activity"
				value={activity?.id ?? null}
				onChange={(id, activityName) => {
					setActivity({ id, name: activityName });
					touch('activity')();
				}}
				error={shown('activity')}
			/>

			<div className="workout-log__row">
				<div className="workout-log__field">
					<label htmlFor="workout-date">Date</label>
					<input
						id="workout-date"
						type="date"
						value={date}
						max={today}
						required
						onChange={(event) => setDate(event.currentTarget.value)}
						onBlur={touch('date')}
						aria-invalid={shown('date') ? true : undefined}
						aria-describedby={describedBy('date')}
					/>
					{message('date')}
				</div>
				<div className="workout-log__field">
					<label htmlFor="workout-time">Start time</label>
					<input
						id="workout-time"
						type="time"
						value={time}
						required
						onChange={(event) => setTime(event.currentTarget.value)}
						onBlur={touch('time')}
						aria-invalid={shown('time') ? true : undefined}
						aria-describedby={describedBy('time')}
					/>
					{message('time')}
				</div>
			</div>

			<fieldset className="workout-log__duration" aria-describedby="workout-duration-errors">
				<legend>Duration</legend>
				{(['hours', 'minutes', 'seconds'] as const).map((part) => (
					<div className="workout-log__field" key={part}>
						<label htmlFor={`workout-${part}`}>{part[0].toUpperCase() + part.slice(1)}</label>
						<input
							id={`workout-${part}`}
							inputMode="numeric"
							autoComplete="off"
							maxLength={part === 'hours' ? 3 : 2}
							placeholder="0"
							value={duration[part]}
							onChange={(event) => {
								const text = event.currentTarget.value;
								setDuration((before) => ({ ...before, [part]: text }));
							}}
							onBlur={touch(part)}
							aria-invalid={shown(part) || shown('duration') ? true : undefined}
						/>
					</div>
				))}
				<div id="workout-duration-errors">
					{durationMessages.map(({ field, text }) => (
						<small key={field} id={`${FIELD_INPUT[field]}-error`} className="workout-log__error">
							{text}
						</small>
					))}
				</div>
			</fieldset>

			<div className="workout-log__row">
				<div className="workout-log__field">
					<label htmlFor="workout-distance">Distance ({unit === 'mi' ? 'miles' : 'km'})</label>
					<input
						id="workout-distance"
						inputMode="decimal"
						autoComplete="off"
						placeholder="Optional"
						value={distance}
						onChange={(event) => setDistance(event.currentTarget.value)}
						onBlur={touch('distance')}
						aria-invalid={shown('distance') ? true : undefined}
						aria-describedby={describedBy('distance')}
					/>
					{message('distance')}
				</div>
				<div className="workout-log__field">
					<label htmlFor="workout-calories">Calories (kcal)</label>
					<input
						id="workout-calories"
						inputMode="decimal"
						autoComplete="off"
						value={calories}
						onChange={(event) => {
							setCalories(event.currentTarget.value);
							setCaloriesTyped(true);
						}}
						onBlur={touch('calories')}
						aria-invalid={shown('calories') ? true : undefined}
						aria-describedby={describedBy('calories', 'workout-calories-hint')}
					/>
					<small id="workout-calories-hint" role="status" data-testid="calories-hint">
						{caloriesTyped
							? 'Your own figure.'
							: estimate === 'working'
								? 'Estimating from the activity, the duration and your weight…'
								: estimate === 'done'
									? 'Estimated from the activity, the duration and your weight.'
									: estimate === 'failed'
										? 'No estimate right now; type the calories if you know them.'
										: 'Estimated once you choose an activity and a duration.'}
					</small>
					{caloriesTyped && (
						<button
							type="button"
							className="workout-log__link-button"
							onClick={() => {
								setCaloriesTyped(false);
								setEstimate('idle');
							}}
						>
							Use the estimate
						</button>
					)}
					{message('calories')}
				</div>
			</div>

			<div className="workout-log__field">
				<label htmlFor="workout-name">Name</label>
				<input
					id="workout-name"
					value={name}
					maxLength={200}
					autoComplete="off"
					placeholder={activity ? activity.name : 'Such as Morning run'}
					onChange={(event) => setName(event.currentTarget.value)}
				/>
			</div>
			<div className="workout-log__field">
				<label htmlFor="workout-notes">Notes</label>
				<textarea
					id="workout-notes"
					rows={4}
					maxLength={5000}
					value={notes}
					onChange={(event) => setNotes(event.currentTarget.value)}
				/>
			</div>
			<div className="workout-log__field">
				<label htmlFor="workout-effort">How hard it felt</label>
				<select
					id="workout-effort"
					value={effort}
					aria-describedby="workout-effort-hint"
					onChange={(event) => setEffort(event.currentTarget.value)}
				>
					<option value="">Not given</option>
					{PERCEIVED_EFFORTS.map((level) => (
						<option key={level} value={String(level)}>
							{level} · {PERCEIVED_EFFORT_LABELS[level]}
						</option>
					))}
				</select>
				<small id="workout-effort-hint">
					Only you see it. Without heart rate, it sets this workout's training load.
				</small>
			</div>
			<div className="workout-log__field">
				<label htmlFor="workout-privacy">Who can see it</label>
				<select
					id="workout-privacy"
					value={String(privacy)}
					onChange={(event) => setPrivacy(Number(event.currentTarget.value))}
				>
					{WORKOUT_PRIVACY_VALUES.map((level) => (
						<option key={level} value={String(level)}>
							{WORKOUT_PRIVACY_LABELS[level]}
						</option>
					))}
				</select>
			</div>

			{gear.length > 0 && (
				<div className="workout-log__field">
					<label htmlFor="workout-gear">Gear</label>
					<select id="workout-gear" value={gearId} onChange={(event) => setGearId(event.currentTarget.value)}>
						<option value="">None</option>
						{gear.map((item) => (
							<option key={item.id} value={String(item.id)}>
								{item.label}
							</option>
						))}
					</select>
				</div>
			)}

			<button type="submit" className="workout-log__save" disabled={saving}>
				{saving ? 'Saving…' : 'Save workout'}
			</button>
		</form>
	);
}
