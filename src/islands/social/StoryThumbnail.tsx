/** A story's line drawn small, from the points the server chose for this viewer (never the hidden ones). */
export function StoryThumbnail({ points, label }: { points: [number, number][]; label: string }) {
	if (points.length < 2) return null;
	const meanLat = points.reduce((sum, [lat]) => sum + lat, 0) / points.length;
	const squeeze = Math.cos((meanLat * Math.PI) / 180);
	const xs = points.map(([, lng]) => lng * squeeze);
	const ys = points.map(([lat]) => -lat);
	const [minX, maxX, minY, maxY] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
	const width = 160;
	const height = 100;
	const pad = 8;
	const scale = Math.min(
		(width - 2 * pad) / (maxX - minX || 1e-9),
		(height - 2 * pad) / (maxY - minY || 1e-9),
	);
	const offsetX = (width - (maxX - minX) * scale) / 2;
	const offsetY = (height - (maxY - minY) * scale) / 2;
	const line = xs
		.map(
			(x, index) =>
				`${((x - minX) * scale + offsetX).toFixed(1)},${((ys[index] - minY) * scale + offsetY).toFixed(1)}`,
		)
		.join(' ');
	return (
		<svg
			className="story__thumbnail"
			viewBox={`0 0 ${width} ${height}`}
			width={width}
			height={height}
			role="img"
			aria-label={label}
			data-testid="story-thumbnail"
		>
			<rect width={width} height={height} rx="6" className="story__thumbnail-ground" />
			<polyline points={line} fill="none" className="story__thumbnail-line" />
		</svg>
	);
}
