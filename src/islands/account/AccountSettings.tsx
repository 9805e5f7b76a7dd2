import { type FormEvent, useCallback, useEffect, useState } from 'react';
import type { SelfUser } from '../../lib/account/contract';
import {
	ageBand,
	ageOn,
	bmi,
	displayWeight,
	formatAgeBand,
	heightInFeetAndInches,
	poundsToKilograms,
} from '../../lib/account/derived';
import { api, ensureSession, errorData, loginPath } from '../../lib/api/client';
import { WEEK_DAY_NAMES } from '../../lib/stats/format';

import { type Choice, countryChoices, Field, GENDER_CHOICES, SelectField } from '../auth/ui';
import '../auth/forms.scss';
import { ChangePasswordForm } from './ChangePasswordForm';
import { EmailConfirmation } from './EmailConfirmation';
import { ProfilePhoto } from './ProfilePhoto';
import { TimeZoneField } from './TimeZoneField';
import { TwoFactorSettings } from './TwoFactorSettings';

export type AccountTab = 'my_profile' | 'settings' | 'display_settings' | 'privacy' | 'contact';
const LANGUAGE_CHOICES: readonly Choice[] = [
	{ value: 'en-us', label: 'English (US)' },
	{ value: 'en-gb', label: 'English (UK)' },
	{ value: 'de-de', label: 'Deutsch' },
	{ value: 'fr-fr', label: 'Français' },
	{ value: 'es-es', label: 'Español' },
];

type Props = { tab: AccountTab; countries: { code: string; name: string }[] };
type Zones = { _embedded: { heart_rate_zones: { zones: { name: string; start: number; end: number }[] }[] } };

const PRIVACY_CHOICES = [
	{ value: 0, label: 'Only me' },
	{ value: 1, label: 'Friends' },
	{ value: 3, label: 'Everyone' },
];

/** Turns the main API's validation failures into per-field messages. */
function failuresOf(error: unknown): Record<string, string> {
	const found: Record<string, string> = {};
	for (const failure of errorData(error)._diagnostics?.validation_failures ?? [])
		for (const [field, messages] of Object.entries(failure))
			found[field.split('.').pop() ?? field] = messages[0];
	return found;
}

/** The profile-update messages, as the member reads them. */
function describeFailure(message: string): string {
	if (/already in use/i.test(message)) return 'This value is already in use.';
	if (/Select a valid choice/i.test(message)) return 'Select a valid choice.';
	if (/ineligible to participate/i.test(message)) return 'You are not old enough to use this service.';
	return message;
}

export default function AccountSettings({ tab, countries }: Props) {
	const [user, setUser] = useState<SelfUser | null>(null);
	const [draft, setDraft] = useState<Record<string, string>>({});
	const [errors, setErrors] = useState<Record<string, string>>({});
	const [status, setStatus] = useState('');
	const [zones, setZones] = useState<Zones | null>(null);

	useEffect(() => {
		ensureSession().then(async (session) => {
			if (!session) return window.location.assign(loginPath());
			try {
				const self = await api<SelfUser>('/v7.1/user/self/');
				setUser(self);
				setDraft(toDraft(self));
				if (tab === 'settings')
					setZones(await api<Zones>('/v7.1/heart_rate_zones/', { query: { user: self.id } }));
			} catch (error) {
				// Failures of 500 and above are the member's to see; lower ones are swallowed.
				const status = (error as { status?: number }).status ?? 500;
				if (status >= 500) setStatus('We could not load your account. Please refresh and try again.');
			}
		});
	}, [tab]);

	if (!user) return <p role="status">{status || 'Loading your account…'}</p>;
	const imperial = user.display_measurement_system === 'imperial';
	const today = new Date();
	const age = ageOn(user.birthdate, today);
	const bodyMassIndex = bmi(user.weight, user.height);
	const set = (name: string) => (event: { target: { value: string } }) =>
		setDraft((current) => ({ ...current, [name]: event.target.value }));

	async function save(body: Record<string, unknown>) {
		setErrors({});
		setStatus('');
		try {
			const updated = await api<SelfUser>(`/v7.1/user/${user?.id}/`, { method: 'PUT', body });
			setUser(updated);
			setDraft(toDraft(updated));
			setStatus('Saved.');
		} catch (error) {
			const failures = failuresOf(error);
			for (const key of Object.keys(failures)) failures[key] = describeFailure(failures[key]);
			setErrors(failures);
			const status = (error as { status?: number }).status ?? 500;
			setStatus(
				status >= 500
					? 'Something went wrong on our side. Please try again.'
					: 'Please check the highlighted fields.',
			);
		}
	}

	function submitProfile(event: FormEvent) {
		event.preventDefault();
		save({
			first_name: draft.first_name,
			last_name: draft.last_name,
			display_name: draft.display_name,
			gender: draft.gender || null,
			...(draft.birthdate ? { birthdate: draft.birthdate } : {}),
			location: { country: draft.country, region: draft.region, locality: draft.locality },
			introduction: draft.introduction,
			goal_statement: draft.goal_statement,
		});
	}

	function submitSettings(event: FormEvent) {
		event.preventDefault();
		const height = imperial
			? draft.height_ft || draft.height_in
				? (Number(draft.height_ft || 0) * 12 + Number(draft.height_in || 0)) * 0.0254
				: null
			: draft.height
				? Number(draft.height) / 100
				: null;
		const weight = draft.weight
			? imperial
				? poundsToKilograms(Number(draft.weight))
				: Number(draft.weight)
			: null;
		save({
			time_zone: draft.time_zone,
			preferred_language: draft.preferred_language,
			height: height === null ? null : Math.round(height * 1000) / 1000,
			weight: weight === null ? null : Math.round(weight * 100) / 100,
		});
	}

	async function setPromotions(choice: boolean) {
		await api('/v7.1/promotional_preference/', {
			method: 'PUT',
			body: { choice, preference_type: 'ua-marketing-opt-in', _links: { user: [{ id: String(user?.id) }] } },
		});
		setStatus(choice ? 'You will receive news and offers.' : 'You will no longer receive news and offers.');
	}

	const input = (
		name: string,
		label: string,
		options: { type?: string; autoComplete?: string; required?: boolean } = {},
	) => (
		<Field label={label} required={options.required} error={errors[name]}>
			{({ id, describedBy, invalid }) => (
				<input
					id={id}
					name={name}
					type={options.type ?? 'text'}
					autoComplete={options.autoComplete}
					value={draft[name] ?? ''}
					onChange={set(name)}
					aria-describedby={describedBy}
					aria-invalid={invalid || undefined}
				/>
			)}
		</Field>
	);

	const statusLine = status && (
		<p className="form-note" role="status">
			{status}
		</p>
	);

	if (tab === 'my_profile')
		return (
			<div className="auth-form">
				{statusLine}
				<ProfilePhoto user={user} />
				<form className="auth-form" onSubmit={submitProfile} noValidate>
					{input('first_name', 'First name', { autoComplete: 'given-name', required: true })}
					{input('last_name', 'Last name', { autoComplete: 'family-name', required: true })}
					{input('display_name', 'Display name')}
					<SelectField
						label="Gender"
						name="gender"
						value={draft.gender}
						onChange={set('gender')}
						choices={GENDER_CHOICES}
						error={errors.gender}
					/>
					{input('birthdate', 'Birthdate', { type: 'date', autoComplete: 'bday' })}
					<SelectField
						label="Country"
						name="country"
						autoComplete="country"
						value={draft.country}
						onChange={set('country')}
						choices={countryChoices(countries)}
						error={errors.country}
					/>
					{input('region', 'Region or state')}
					{input('locality', 'City')}
					{input('goal_statement', 'My goal')}
					<Field label="About me" error={errors.introduction}>
						{({ id }) => (
							<textarea
								id={id}
								rows={4}
								value={draft.introduction}
								onChange={set('introduction')}
								maxLength={2000}
							/>
						)}
					</Field>
					<button className="primary" type="submit">
						Save profile
					</button>
				</form>
				<dl>
					<dt>Age</dt>
					<dd>{age === null ? '—' : `${age} (${formatAgeBand(ageBand(age))})`}</dd>
					<dt>Member since</dt>
					<dd>{user.date_joined.slice(0, 4)}</dd>
				</dl>
			</div>
		);

	if (tab === 'settings') {
		const feetInches = heightInFeetAndInches(user.height);
		const weightShown = displayWeight(user.weight, imperial ? 'imperial' : 'metric');
		return (
			<>
				<form className="auth-form" onSubmit={submitSettings} noValidate>
					{statusLine}
					<TimeZoneField
						value={draft.time_zone}
						onChange={(zone) => setDraft((current) => ({ ...current, time_zone: zone }))}
						error={errors.time_zone}
					/>
					<SelectField
						label="Language"
						name="preferred_language"
						value={draft.preferred_language}
						onChange={set('preferred_language')}
						choices={LANGUAGE_CHOICES}
						error={errors.preferred_language}
					/>
					{imperial ? (
						<div className="field__row">
							{input('height_ft', 'Height (feet)', { type: 'number' })}
							{input('height_in', 'Height (inches)', { type: 'number' })}
						</div>
					) : (
						input('height', 'Height (cm)', { type: 'number' })
					)}
					{input('weight', imperial ? 'Weight (lb)' : 'Weight (kg)', { type: 'number' })}
					<p className="form-note">
						{feetInches && imperial ? `Height ${feetInches.feet} ft ${feetInches.inches} in. ` : ''}
						{weightShown ? `Weight ${weightShown.value} ${weightShown.unit}. ` : ''}
						{bodyMassIndex
							? `BMI ${bodyMassIndex.value} (${bodyMassIndex.category}).`
							: 'Add height and weight to see your BMI.'}
					</p>
					<button className="primary" type="submit">
						Save settings
					</button>
					{zones && (
						<table>
							<caption>Heart-rate zones (beats per minute)</caption>
							<thead>
								<tr>
									<th scope="col">Zone</th>
									<th scope="col">From</th>
									<th scope="col">To</th>
								</tr>
							</thead>
							<tbody>
								{zones._embedded.heart_rate_zones[0]?.zones.map((zone) => (
									<tr key={zone.name}>
										<th scope="row">{zone.name}</th>
										<td>{zone.start}</td>
										<td>{zone.end}</td>
									</tr>
								))}
							</tbody>
						</table>
					)}
					<fieldset>
						<legend>Email from us</legend>
						<button type="button" className="secondary" onClick={() => setPromotions(true)}>
							Send me news and offers
						</button>{' '}
						<button type="button" className="secondary" onClick={() => setPromotions(false)}>
							No news or offers
						</button>
					</fieldset>
				</form>
				<ChangePasswordForm user={user} />
				<TwoFactorSettings />
			</>
		);
	}

	if (tab === 'display_settings')
		return (
			<form
				className="auth-form"
				onSubmit={(event) => {
					event.preventDefault();
					save({
						display_measurement_system: draft.display_measurement_system,
						week_start_day: Number(draft.week_start_day),
					});
				}}
			>
				{statusLine}
				<fieldset className="field">
					<legend>Units</legend>
					{(['metric', 'imperial'] as const).map((system) => (
						<label className="check" key={system}>
							<input
								type="radio"
								name="display_measurement_system"
								value={system}
								checked={draft.display_measurement_system === system}
								onChange={set('display_measurement_system')}
							/>
							<span>{system === 'metric' ? 'Metric (km, kg)' : 'Imperial (miles, lb)'}</span>
						</label>
					))}
				</fieldset>
				<SelectField
					label="Weeks start on"
					name="week_start_day"
					value={draft.week_start_day}
					onChange={set('week_start_day')}
					choices={WEEK_DAY_CHOICES}
					error={errors.week_start_day}
				/>
				<button className="primary" type="submit">
					Save display settings
				</button>
			</form>
		);

	if (tab === 'privacy') {
		const levels = Object.fromEntries(user._links.privacy.map((link) => [link.name, link.id]));
		const rows = [
			['profile', 'Who can see my profile'],
			['workout', 'Who can see my workouts'],
			['route', 'Who can see my routes'],
			['email_search', 'Who can find me by email'],
		] as const;
		return (
			<form
				className="auth-form"
				onSubmit={(event) => {
					event.preventDefault();
					const data = new FormData(event.currentTarget);
					save({ privacy: Object.fromEntries(rows.map(([name]) => [name, Number(data.get(name))])) });
				}}
			>
				{statusLine}
				{rows.map(([name, label]) => (
					<Field key={name} label={label} error={errors[name]}>
						{({ id }) => (
							<select id={id} name={name} defaultValue={levels[name]}>
								{PRIVACY_CHOICES.map((choice) => (
									<option key={choice.value} value={choice.value}>
										{choice.label}
									</option>
								))}
							</select>
						)}
					</Field>
				))}
				<button className="primary" type="submit">
					Save privacy
				</button>
			</form>
		);
	}

	return (
		<div className="auth-form">
			<SessionList />
			<EmailConfirmation user={user} />
			<p>
				To change your email address, contact support. To change your password, go to{' '}
				<a href="/account/settings">Settings</a>.
			</p>
			<p>
				<a href="/account/delete">Delete my account</a>
			</p>
		</div>
	);
}

/** Goals, weekly stats and the calendar count weeks from this day. */
const WEEK_DAY_CHOICES: readonly Choice[] = WEEK_DAY_NAMES.map((name, day) => ({
	value: String(day),
	label: name,
}));

function toDraft(user: SelfUser): Record<string, string> {
	const feetInches = heightInFeetAndInches(user.height);
	const imperial = user.display_measurement_system === 'imperial';
	const weight = displayWeight(user.weight, imperial ? 'imperial' : 'metric');
	return {
		first_name: user.first_name,
		last_name: user.last_name,
		display_name: user.display_name,
		gender: user.gender ?? '',
		birthdate: user.birthdate ?? '',
		country: user.location.country,
		region: user.location.region,
		locality: user.location.locality,
		introduction: user.introduction,
		goal_statement: user.goal_statement,
		time_zone: user.time_zone,
		preferred_language: user.preferred_language,
		display_measurement_system: user.display_measurement_system,
		week_start_day: String(user.week_start_day),
		height: user.height ? String(Math.round(user.height * 100)) : '',
		height_ft: feetInches ? String(feetInches.feet) : '',
		height_in: feetInches ? String(feetInches.inches) : '',
		weight: weight ? String(weight.value) : '',
	};
}

type SessionRow = { id: string; last_used_datetime: string; device: string; current: boolean };

/** Where the member is logged in, each with a way to end it. */
function SessionList() {
	const [sessions, setSessions] = useState<SessionRow[] | null>(null);
	const [failure, setFailure] = useState<string | null>(null);
	const load = useCallback(
		() =>
			api<{ sessions: SessionRow[] }>('/auth/sessions')
				.then((answer) => setSessions(answer.sessions))
				.catch(() => setSessions([])),
		[],
	);
	useEffect(() => {
		load();
	}, [load]);
	async function end(session: SessionRow) {
		// Ending this device's own sign-in is logging out: the page that does it also clears the cookies.
		if (session.current) return window.location.assign('/auth/logout');
		setFailure(null);
		try {
			await api(`/auth/sessions/${session.id}`, { method: 'DELETE' });
			setSessions((current) => current?.filter((row) => row.id !== session.id) ?? null);
		} catch (error) {
			setFailure(
				`Could not log out ${session.device}: ${errorData(error).message ?? 'the server did not answer'}. Try again.`,
			);
		}
	}
	if (!sessions) return null;
	return (
		<section aria-labelledby="sessions-heading">
			<h3 id="sessions-heading">Where you're logged in</h3>
			{failure && (
				<p className="field__error" role="alert">
					{failure}
				</p>
			)}
			<ul>
				{sessions.map((session) => (
					<li key={session.id}>
						{session.device}
						{session.current && <strong> (This device)</strong>} — last active{' '}
						{session.last_used_datetime.slice(0, 16).replace('T', ' ')} UTC{' '}
						<button type="button" className="secondary" onClick={() => end(session)}>
							Log out
						</button>
					</li>
				))}
			</ul>
		</section>
	);
}
