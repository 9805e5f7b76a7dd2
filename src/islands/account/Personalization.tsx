import { type FormEvent, useEffect, useState } from 'react';
import type { SelfUser } from '../../lib/account/contract';
import { api, ensureSession, loginPath } from '../../lib/api/client';
import { localTimeZone } from '../../lib/core/time-zones';
import { Field, FormAlert } from '../auth/ui';
import '../auth/forms.scss';
import { TimeZoneField } from './TimeZoneField';

/** Onboarding: units, time zone (guessed from the browser) and a first goal, then on to the dashboard. */
export default function Personalization() {
	const [user, setUser] = useState<SelfUser | null>(null);
	const [units, setUnits] = useState<'metric' | 'imperial'>('metric');
	const [timeZone, setTimeZone] = useState('UTC');
	const [goal, setGoal] = useState('');
	const [error, setError] = useState('');

	useEffect(() => {
		ensureSession().then(async (session) => {
			if (!session) return window.location.assign(loginPath());
			const self = await api<SelfUser>('/v7.1/user/self/');
			setUser(self);
			setUnits(self.display_measurement_system === 'imperial' ? 'imperial' : 'metric');
			// A new member's zone is still the UTC default: offer the one this browser runs in.
			setTimeZone(self.time_zone !== 'UTC' ? self.time_zone : localTimeZone());
			setGoal(self.goal_statement);
		});
	}, []);

	async function submit(event: FormEvent) {
		event.preventDefault();
		try {
			await api(`/v7.1/user/${user?.id}/`, {
				method: 'PUT',
				body: { display_measurement_system: units, time_zone: timeZone, goal_statement: goal },
			});
			window.location.assign('/dashboard');
		} catch {
			setError('Your choices could not be saved. Please try again.');
		}
	}

	if (!user) return <p role="status">Loading…</p>;
	return (
		<form className="auth-form" onSubmit={submit}>
			<FormAlert>{error}</FormAlert>
			<fieldset className="field">
				<legend>Show distances and weights in</legend>
				{(['metric', 'imperial'] as const).map((system) => (
					<label className="check" key={system}>
						<input
							type="radio"
							name="units"
							value={system}
							checked={units === system}
							onChange={() => setUnits(system)}
						/>
						<span>{system === 'metric' ? 'Kilometres and kilograms' : 'Miles and pounds'}</span>
					</label>
				))}
			</fieldset>
			<TimeZoneField value={timeZone} onChange={setTimeZone} />
			<Field label="What is your goal?">
				{({ id }) => (
					<input
						id={id}
						value={goal}
						maxLength={500}
						placeholder="Run my first 10 km"
						onChange={(event) => setGoal(event.target.value)}
					/>
				)}
			</Field>
			<button className="primary" type="submit">
				Continue
			</button>
			<a href="/dashboard">Skip for now</a>
		</form>
	);
}
