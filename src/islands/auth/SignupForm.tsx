import { type FormEvent, useRef, useState } from 'react';
import { api, errorCode, errorData } from '../../lib/api/client';
import { birthYears, MESSAGES, requiredMessage, safeNextPath } from '../../lib/auth/contract';
import { applyToken, type TokenAnswer } from '../../lib/auth/store';
import { LEGAL_PATHS } from '../../lib/site/footer';
import { useFormTakeover } from '../form-takeover';
import {
	countryChoices,
	EmailField,
	Field,
	FormAlert,
	fieldErrors,
	GENDER_CHOICES,
	PasswordField,
	SelectField,
} from './ui';
import './forms.scss';
import { trackEvent } from '../../lib/analytics/queue';

type Props = { countries: { code: string; name: string }[]; consentMatrixVersion: string };

const MONTHS = ['01', '02', '03', '04', '05', '06', '07', '08', '09', '10', '11', '12'];
const MONTH_NAMES = [
	'January',
	'February',
	'March',
	'April',
	'May',
	'June',
	'July',
	'August',
	'September',
	'October',
	'November',
	'December',
];
const DAYS = Array.from({ length: 31 }, (_, index) => String(index + 1).padStart(2, '0'));

export default function SignupForm({ countries, consentMatrixVersion }: Props) {
	const [values, setValues] = useState({
		first_name: '',
		last_name: '',
		email: '',
		password: '',
		day: '',
		month: '',
		year: '',
		gender: '',
		country: '',
	});
	const [terms, setTerms] = useState(false);
	const [promotions, setPromotions] = useState(false);
	const form = useRef<HTMLFormElement>(null);
	const early = (key: keyof typeof values) => (value: string) =>
		setValues((now) => ({ ...now, [key]: value }));
	const awake = useFormTakeover(
		form,
		{
			first_name: early('first_name'),
			last_name: early('last_name'),
			email: early('email'),
			password: early('password'),
			birth_day: early('day'),
			birth_month: early('month'),
			birth_year: early('year'),
			gender: early('gender'),
			country: early('country'),
		},
		{ terms: setTerms, promotions: setPromotions },
	);
	const [errors, setErrors] = useState<Record<string, string>>({});
	const [alert, setAlert] = useState<React.ReactNode>('');
	const [busy, setBusy] = useState(false);
	const years = birthYears(new Date());
	const set = (name: keyof typeof values) => (event: { target: { value: string } }) =>
		setValues((current) => ({ ...current, [name]: event.target.value }));

	function checkLocally(): Record<string, string> {
		const found: Record<string, string> = {};
		for (const field of ['first_name', 'last_name', 'email', 'password', 'gender', 'country'] as const)
			if (!values[field].trim()) found[field] = requiredMessage(field);
		if (!values.day || !values.month || !values.year) found.birthdate = MESSAGES.birthdateRequired;
		if (!terms) found.consents = 'Please accept the Terms of Use and the Privacy Policy.';
		return found;
	}

	async function submit(event: FormEvent) {
		event.preventDefault();
		setAlert('');
		const local = checkLocally();
		setErrors(local);
		if (Object.keys(local).length) return;
		setBusy(true);
		trackEvent('signup_attempted');
		try {
			const answer = await api<TokenAnswer>('/auth/signup', {
				method: 'POST',
				noRefresh: true,
				body: {
					first_name: values.first_name,
					last_name: values.last_name,
					email: values.email,
					password: values.password,
					birthdate: `${values.year}-${values.month}-${values.day}`,
					gender: values.gender === 'F' ? 'female' : 'male',
					location: { country: values.country },
					consent_matrix_version: consentMatrixVersion,
					consents: { terms_of_use: true, privacy_policy: true },
					gdpr_iso_code: values.country,
					appName: 'mapstride-web',
					promotionalPreference: promotions,
				},
			});
			applyToken(answer);
			trackEvent('signup_completed');
			window.location.assign(
				safeNextPath(new URLSearchParams(window.location.search).get('next'), '/account/personalization/'),
			);
		} catch (failure) {
			const code = errorCode(failure);
			if (code === 'email/used')
				setAlert(
					<>
						An account already uses {values.email}.{' '}
						<a href={`/auth/login?email=${encodeURIComponent(values.email)}`}>Log in</a> or{' '}
						<a href="/auth/forgot_password/">reset your password</a>.
					</>,
				);
			else if (code === 'too_many_attempts') setAlert('Too many signups from here. Try again in an hour.');
			// Too young for the region: nothing was kept; the age-gate page says why.
			else if (code === 'birthdate_ineligible') window.location.assign('/privacy_center/ineligible');
			else if (errorData(failure).fields?.length) setErrors(fieldErrors(errorData(failure)));
			else setAlert('Something went wrong. Please try again.');
			setBusy(false);
		}
	}

	const text = (name: 'first_name' | 'last_name', label: string, autoComplete: string) => (
		<Field label={label} required error={errors[name]}>
			{({ id, describedBy, invalid }) => (
				<input
					id={id}
					name={name}
					autoComplete={autoComplete}
					value={values[name]}
					onChange={set(name)}
					aria-describedby={describedBy}
					aria-invalid={invalid || undefined}
					maxLength={60}
					required
				/>
			)}
		</Field>
	);

	return (
		<form ref={form} className="auth-form" onSubmit={submit} noValidate aria-busy={busy}>
			<FormAlert>{alert}</FormAlert>
			{text('first_name', 'First name', 'given-name')}
			{text('last_name', 'Last name', 'family-name')}
			<EmailField
				value={values.email}
				onChange={(email) => setValues((current) => ({ ...current, email }))}
				error={errors.email}
			/>
			<PasswordField
				label="Password"
				value={values.password}
				onChange={(password) => setValues((current) => ({ ...current, password }))}
				autoComplete="new-password"
				error={errors.password}
				rules={{ related: [values.email, values.first_name, values.last_name] }}
			/>
			<div className="field">
				<fieldset aria-describedby={errors.birthdate ? 'birthdate-error' : undefined}>
					<legend>
						Birthdate
						<span className="required" aria-hidden="true">
							*
						</span>
					</legend>
					<div className="field__row">
						<select aria-label="Day" name="birth_day" value={values.day} onChange={set('day')} required>
							<option value="">Day</option>
							{DAYS.map((day) => (
								<option key={day} value={day}>
									{day}
								</option>
							))}
						</select>
						<select
							aria-label="Month"
							name="birth_month"
							value={values.month}
							onChange={set('month')}
							required
						>
							<option value="">Month</option>
							{MONTHS.map((month, index) => (
								<option key={month} value={month}>
									{MONTH_NAMES[index]}
								</option>
							))}
						</select>
						<select aria-label="Year" name="birth_year" value={values.year} onChange={set('year')} required>
							<option value="">Year</option>
							{years.map((year) => (
								<option key={year} value={year}>
									{year}
								</option>
							))}
						</select>
					</div>
				</fieldset>
				{errors.birthdate && (
					<p className="field__error" id="birthdate-error" role="alert">
						{errors.birthdate}
					</p>
				)}
			</div>
			<SelectField
				label="Gender"
				name="gender"
				value={values.gender}
				onChange={set('gender')}
				choices={GENDER_CHOICES}
				required
				error={errors.gender}
			/>
			<SelectField
				label="Country"
				name="country"
				autoComplete="country"
				value={values.country}
				onChange={set('country')}
				choices={countryChoices(countries)}
				required
				error={errors.country}
			/>
			<div className="field">
				<label className="check">
					<input
						type="checkbox"
						name="terms"
						checked={terms}
						onChange={(event) => setTerms(event.target.checked)}
						aria-describedby={errors.consents ? 'consents-error' : undefined}
						required
					/>
					<span>
						I agree to the <a href={LEGAL_PATHS.terms}>Terms of Use</a> and the{' '}
						<a href={LEGAL_PATHS.privacy}>Privacy Policy</a>
						<span className="required" aria-hidden="true">
							*
						</span>
					</span>
				</label>
				{errors.consents && (
					<p className="field__error" id="consents-error" role="alert">
						{errors.consents}
					</p>
				)}
			</div>
			<label className="check">
				<input
					type="checkbox"
					name="promotions"
					checked={promotions}
					onChange={(event) => setPromotions(event.target.checked)}
				/>
				<span>Send me news, training tips and offers by email. You can change this at any time.</span>
			</label>
			<button className="primary" type="submit" disabled={busy || !awake}>
				{busy ? 'Creating your account…' : 'Sign up'}
			</button>
			<p>
				Already a member? <a href="/auth/login">Log in</a>
			</p>
		</form>
	);
}
