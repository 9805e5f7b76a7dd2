import { CHECKOUT_PATH } from '../../lib/billing/features';
import type { ZoneWeeks } from '../../lib/stats/contract';
import { formatDayKey, formatHours } from '../../lib/stats/format';

const zoneName = (name: string) => name.replace(/^zone(\d)$/, 'Zone $1');
const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

/**
 * Time in each heart-rate zone per week for the stats filters: a table (the figures themselves)
 * with a sentence that sums them up. MVP only: others see what it would show and where to get it.
 */
export default function ZoneWeeksTable({
	data,
	locked,
	error,
	groupsLabel,
}: {
	data: ZoneWeeks | null;
	/** The member has no MVP: the offer, never the figures. */
	locked: boolean;
	error: string | null;
	/** The activities the figures are for, as the filters say. */
	groupsLabel: string;
}) {
	const totals = data ? data.zones.map((_, i) => sum(data.weeks.map((week) => week.seconds[i]))) : [];
	const all = sum(totals);
	const top = totals.indexOf(Math.max(...totals));
	const range = data?.weeks.length
		? `${formatDayKey(data.weeks[0].first)} to ${formatDayKey(data.weeks[data.weeks.length - 1].last)}`
		: '';
	return (
		<section className="zone-weeks" aria-labelledby="zone-weeks-title" data-testid="zone-weeks-section">
			<h2 id="zone-weeks-title">Time in heart-rate zones, week by week</h2>
			{locked ? (
				<p data-testid="zone-weeks-locked">
					Heart-rate zone analysis is part of MVP. <a href={CHECKOUT_PATH}>Get MVP</a> to see how long you
					spent in each zone, week by week.
				</p>
			) : error ? (
				<p role="alert" className="stats-error" data-testid="zone-weeks-error">
					{error}
				</p>
			) : !data ? null : all === 0 ? (
				<p data-testid="zone-weeks-empty">
					No heart rate recorded in {groupsLabel.toLowerCase()} from {range}. Workouts with a heart-rate
					series show up here by zone.
				</p>
			) : (
				<>
					<p data-testid="zone-weeks-summary">
						{groupsLabel} from {range}: {formatHours(all)} with heart rate, most in{' '}
						{zoneName(data.zones[top].name)} ({Math.round((totals[top] / all) * 100)} %).
					</p>
					{/* biome-ignore lint/a11y/noNoninteractiveTabindex: a table wider than the screen scrolls, and keyboards must reach it */}
					<section className="stats-table-scroll" aria-label="Time in heart-rate zones per week" tabIndex={0}>
						<table data-testid="zone-weeks">
							<thead>
								<tr>
									<th scope="col">Week of</th>
									{data.zones.map((zone) => (
										<th scope="col" key={zone.name}>
											{zoneName(zone.name)}
											<span className="zone-weeks__bpm">
												{zone.start}–{zone.end} bpm
											</span>
										</th>
									))}
									<th scope="col">Total</th>
								</tr>
							</thead>
							<tbody>
								{data.weeks.map((week) => (
									<tr key={week.first} data-week={week.first}>
										<th scope="row">{formatDayKey(week.first)}</th>
										{week.seconds.map((seconds, i) => (
											<td key={data.zones[i]?.name ?? i}>{seconds > 0 ? formatHours(seconds) : '—'}</td>
										))}
										<td>{sum(week.seconds) > 0 ? formatHours(sum(week.seconds)) : '—'}</td>
									</tr>
								))}
							</tbody>
						</table>
					</section>
				</>
			)}
		</section>
	);
}
