import 'uplot/dist/uPlot.min.css';
import { useEffect, useRef, useState } from 'react';
import uPlot from 'uplot';
import { formatDuration, parseDuration } from '../../lib/workouts/detail-format';

export type WorkoutCutProps = {
	/** Seconds from the start of each drawn sample, and the value drawn over them. */
	seconds: number[];
	values: (number | null)[];
	valueLabel: string;
	durationS: number;
	/** The form's text fields this slider pair keeps in step with (they post the cut). */
	startFieldId: string;
	endFieldId: string;
};

const SHADE = 'rgba(20, 33, 61, 0.35)';

/**
 * Two range sliders over a chart of the recording: the shaded parts are cut away. The sliders and
 * the form's start and end fields follow each other; the form posts the fields.
 */
export default function WorkoutCut({
	seconds,
	values,
	valueLabel,
	durationS,
	startFieldId,
	endFieldId,
}: WorkoutCutProps) {
	const stage = useRef<HTMLDivElement>(null);
	const chart = useRef<uPlot | null>(null);
	const range = useRef({ start: 0, end: durationS });
	const [start, setStart] = useState(0);
	const [end, setEnd] = useState(durationS);

	useEffect(() => {
		const fieldValue = (id: string, fallback: number) => {
			const field = document.getElementById(id) as HTMLInputElement | null;
			const parsed = field ? parseDuration(field.value) : null;
			return parsed ?? fallback;
		};
		// Whatever was typed before the page ran counts.
		setStart(fieldValue(startFieldId, 0));
		setEnd(fieldValue(endFieldId, durationS));
		const listen = (id: string, set: (value: number) => void) => {
			const field = document.getElementById(id) as HTMLInputElement | null;
			const onInput = () => {
				const parsed = field ? parseDuration(field.value) : null;
				if (parsed !== null) set(Math.min(durationS, parsed));
			};
			field?.addEventListener('input', onInput);
			return () => field?.removeEventListener('input', onInput);
		};
		const stopStart = listen(startFieldId, setStart);
		const stopEnd = listen(endFieldId, setEnd);
		return () => {
			stopStart();
			stopEnd();
		};
	}, [startFieldId, endFieldId, durationS]);

	useEffect(() => {
		range.current = { start, end };
		chart.current?.redraw(false);
	}, [start, end]);

	useEffect(() => {
		const box = stage.current;
		if (!box) return;
		const size = () => ({ width: Math.max(200, box.clientWidth), height: 160 });
		const shade = (u: uPlot) => {
			const { ctx, bbox } = u;
			const left = u.valToPos(range.current.start, 'x', true);
			const right = u.valToPos(range.current.end, 'x', true);
			ctx.save();
			ctx.fillStyle = SHADE;
			ctx.fillRect(bbox.left, bbox.top, Math.max(0, left - bbox.left), bbox.height);
			ctx.fillRect(right, bbox.top, Math.max(0, bbox.left + bbox.width - right), bbox.height);
			ctx.restore();
		};
		chart.current = new uPlot(
			{
				...size(),
				scales: { x: { time: false } },
				legend: { show: false },
				cursor: { drag: { x: false, y: false } },
				series: [{}, { label: valueLabel, stroke: '#0b5cad', width: 2, points: { show: false } }],
				axes: [{ values: (_, splits) => splits.map((value) => formatDuration(value)) }, { size: 56 }],
				hooks: { draw: [shade] },
			},
			[seconds, values as number[]],
			box,
		);
		const resize = new ResizeObserver(() => chart.current?.setSize(size()));
		resize.observe(box);
		return () => {
			resize.disconnect();
			chart.current?.destroy();
			chart.current = null;
		};
	}, [seconds, values, valueLabel]);

	const move = (which: 'start' | 'end', value: number) => {
		const clamped = which === 'start' ? Math.min(value, end - 1) : Math.max(value, start + 1);
		(which === 'start' ? setStart : setEnd)(clamped);
		const field = document.getElementById(
			which === 'start' ? startFieldId : endFieldId,
		) as HTMLInputElement | null;
		if (field) field.value = formatDuration(clamped);
	};

	return (
		<div className="workout-cut" data-testid="workout-cut">
			<div
				ref={stage}
				className="workout-cut__plot"
				role="img"
				aria-label={`${valueLabel} over time; shaded parts are cut away`}
			/>
			<label className="workout-cut__slider">
				<span>New start: {formatDuration(start)}</span>
				<input
					type="range"
					min={0}
					max={Math.ceil(durationS)}
					step={1}
					value={start}
					onChange={(event) => move('start', Number(event.target.value))}
					data-testid="cut-start-slider"
				/>
			</label>
			<label className="workout-cut__slider">
				<span>New end: {formatDuration(end)}</span>
				<input
					type="range"
					min={0}
					max={Math.ceil(durationS)}
					step={1}
					value={end}
					onChange={(event) => move('end', Number(event.target.value))}
					data-testid="cut-end-slider"
				/>
			</label>
		</div>
	);
}
