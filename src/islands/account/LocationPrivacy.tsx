import 'leaflet/dist/leaflet.css';
import L from 'leaflet';
import { type FormEvent, useCallback, useEffect, useRef, useState } from 'react';
import { api, ensureSession, errorData, loginPath } from '../../lib/api/client';
import { escapeHtml } from '../../lib/core/html';
import { type MapTileLayer, OSM_ATTRIBUTION } from '../../lib/core/map-types';
import {
	HIDE_ENDS_MAX_M,
	HIDE_ENDS_MIN_M,
	MAX_PRIVACY_ZONES,
	ZONE_RADIUS_MAX_M,
	ZONE_RADIUS_MIN_M,
} from '../../lib/workouts/privacy-zones';
import { addBaseLayer } from '../routes/map-layers';
import './location-privacy.scss';

type Zone = {
	id: number;
	name: string;
	radius: number;
	hidden_area: { lat: number; lng: number; radius: number };
};
type Point = { lat: number; lng: number };

const RADIUS_STEP_M = 100;
const HIDE_ENDS_CHOICES = [0, ...Array.from({ length: 9 }, (_, i) => HIDE_ENDS_MIN_M + i * 100)].filter(
	(value) => value <= HIDE_ENDS_MAX_M,
);

/** Metres as a member reads them, with miles beside for those who think in them. */
export function formatRadius(metres: number): string {
	const metric = metres >= 1000 ? `${(metres / 1000).toFixed(1)} km` : `${metres} m`;
	return `${metric} (${(metres / 1609.344).toFixed(2)} mi)`;
}

/** "lat, lng" typed into the address box is a point as it is. */
function parsePoint(text: string): Point | null {
	const match = /^\s*(-?\d{1,2}(?:\.\d+)?)\s*[, ]\s*(-?\d{1,3}(?:\.\d+)?)\s*$/.exec(text);
	if (!match) return null;
	const lat = Number(match[1]);
	const lng = Number(match[2]);
	return Math.abs(lat) <= 85 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

const messageOf = (error: unknown, fallback: string) => {
	const data = errorData(error);
	const failure = Object.values(data._diagnostics?.validation_failures?.[0] ?? {})[0]?.[0];
	return failure ?? data.message ?? fallback;
};

/**
 * The member's privacy zones and hidden workout ends: a zone is added around an address found with
 * the place search or a point clicked on the map, with a radius from 200 m to a mile; the map shows
 * the circles as stored (moved away from the address, so others cannot find it as their centre).
 */
export default function LocationPrivacy({ layers }: { layers: MapTileLayer[] }) {
	const [zones, setZones] = useState<Zone[] | null>(null);
	const [hideEnds, setHideEnds] = useState<number | null>(null);
	const [loadError, setLoadError] = useState('');
	const [point, setPoint] = useState<Point | null>(null);
	const [pointLabel, setPointLabel] = useState('');
	const [address, setAddress] = useState('');
	const [name, setName] = useState('');
	const [radius, setRadius] = useState(400);
	const [zoneStatus, setZoneStatus] = useState<{ text: string; error: boolean }>({ text: '', error: false });
	const [endsStatus, setEndsStatus] = useState<{ text: string; error: boolean }>({ text: '', error: false });
	const [busy, setBusy] = useState(false);
	const mapElement = useRef<HTMLDivElement>(null);
	const [map, setMap] = useState<L.Map | null>(null);

	const load = useCallback(async () => {
		const session = await ensureSession();
		if (!session) return window.location.assign(loginPath());
		try {
			const [zoneList, ends] = await Promise.all([
				api<{ _embedded: { privacy_zones: Zone[] } }>('/v7.1/privacy_zone/'),
				api<{ hide_ends: number }>('/v7.1/location_privacy/'),
			]);
			setZones(zoneList._embedded.privacy_zones);
			setHideEnds(ends.hide_ends);
		} catch {
			setLoadError('We could not load your location privacy. Please refresh and try again.');
		}
	}, []);
	useEffect(() => {
		load();
	}, [load]);

	useEffect(() => {
		if (!mapElement.current || !layers[0]) return;
		const created = L.map(mapElement.current, { scrollWheelZoom: false }).setView([20, 0], 2);
		created.attributionControl.addAttribution(escapeHtml(OSM_ATTRIBUTION));
		const removeBase = addBaseLayer(created, layers[0]);
		created.on('click', (event: L.LeafletMouseEvent) => {
			setPoint({ lat: event.latlng.lat, lng: event.latlng.lng });
			setPointLabel('the point you clicked on the map');
		});
		// Start where the built-in map has data, when nothing else says where to look.
		fetch('/tiles/regions.json')
			.then((response) => (response.ok ? response.json() : null))
			.then((found: { regions?: { bounds: [number, number, number, number] }[] } | null) => {
				const bounds = found?.regions?.[0]?.bounds;
				if (bounds && created.getZoom() === 2)
					created.fitBounds([
						[bounds[1], bounds[0]],
						[bounds[3], bounds[2]],
					]);
			})
			.catch(() => undefined);
		setMap(created);
		return () => {
			removeBase();
			created.remove();
			setMap(null);
		};
	}, [layers]);

	useEffect(() => {
		if (!map) return;
		const group = L.layerGroup().addTo(map);
		for (const zone of zones ?? [])
			L.circle([zone.hidden_area.lat, zone.hidden_area.lng], {
				radius: zone.hidden_area.radius,
				color: '#14213d',
				weight: 2,
				fillOpacity: 0.15,
			})
				.bindTooltip(zone.name || 'Privacy zone')
				.addTo(group);
		if (point) {
			L.circle([point.lat, point.lng], { radius, color: '#b42318', weight: 2, fillOpacity: 0.1 }).addTo(
				group,
			);
			L.circleMarker([point.lat, point.lng], {
				radius: 6,
				color: '#ffffff',
				weight: 2,
				fillColor: '#b42318',
				fillOpacity: 1,
			}).addTo(group);
		}
		return () => {
			group.remove();
		};
	}, [map, zones, point, radius]);

	async function findAddress() {
		const text = address.trim();
		if (!text) {
			setZoneStatus({ text: 'Type an address or place to look for.', error: true });
			return;
		}
		const typed = parsePoint(text);
		if (typed) {
			setPoint(typed);
			setPointLabel(text);
			map?.setView([typed.lat, typed.lng], 15);
			setZoneStatus({ text: '', error: false });
			return;
		}
		try {
			const response = await fetch(
				`/api/geocode/search?${new URLSearchParams({ q: text, format: 'geojson', limit: '1' })}`,
				{ signal: AbortSignal.timeout(10_000), headers: { accept: 'application/json' } },
			);
			const found = response.ok
				? ((await response.json()) as {
						features?: {
							geometry: { coordinates: [number, number] };
							properties: { display_name?: string };
						}[];
					})
				: null;
			const feature = found?.features?.[0];
			if (!feature) {
				setZoneStatus({
					text: `No place called "${text}" was found. Try another address or click the map.`,
					error: true,
				});
				return;
			}
			const [lng, lat] = feature.geometry.coordinates;
			setPoint({ lat, lng });
			setPointLabel(feature.properties.display_name || text);
			map?.setView([lat, lng], 15);
			setZoneStatus({ text: '', error: false });
		} catch {
			setZoneStatus({ text: 'The place search did not answer. Please try again.', error: true });
		}
	}

	async function addZone(event: FormEvent) {
		event.preventDefault();
		if (!point) {
			setZoneStatus({
				text: 'Choose the point to hide first: find an address or click the map.',
				error: true,
			});
			return;
		}
		setBusy(true);
		try {
			const zone = await api<Zone>('/v7.1/privacy_zone/', {
				method: 'POST',
				body: { name: name.trim(), lat: point.lat, lng: point.lng, radius },
			});
			setZones((current) => [...(current ?? []), zone]);
			setPoint(null);
			setPointLabel('');
			setAddress('');
			setName('');
			setZoneStatus({
				text: `Zone added. Workouts now hide everything within ${formatRadius(radius)} of it.`,
				error: false,
			});
		} catch (error) {
			setZoneStatus({
				text: messageOf(error, 'The zone could not be saved. Please try again.'),
				error: true,
			});
		} finally {
			setBusy(false);
		}
	}

	async function deleteZone(zone: Zone) {
		try {
			await api(`/v7.1/privacy_zone/${zone.id}/`, { method: 'DELETE' });
			setZones((current) => (current ?? []).filter((other) => other.id !== zone.id));
			setZoneStatus({ text: `Zone ${zone.name ? `"${zone.name}" ` : ''}deleted.`, error: false });
		} catch (error) {
			setZoneStatus({
				text: messageOf(error, 'The zone could not be deleted. Please try again.'),
				error: true,
			});
		}
	}

	async function saveEnds(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		const value = Number(new FormData(event.currentTarget).get('hide_ends'));
		try {
			const saved = await api<{ hide_ends: number }>('/v7.1/location_privacy/', {
				method: 'PUT',
				body: { hide_ends: value },
			});
			setHideEnds(saved.hide_ends);
			setEndsStatus({
				text:
					saved.hide_ends === 0
						? 'Saved. The start and end of your workouts are shown to those you share them with.'
						: `Saved. Others no longer see the first and last ${saved.hide_ends} m of your workouts.`,
				error: false,
			});
		} catch (error) {
			setEndsStatus({ text: messageOf(error, 'This could not be saved. Please try again.'), error: true });
		}
	}

	const full = (zones?.length ?? 0) >= MAX_PRIVACY_ZONES;
	return (
		<div className="location-privacy" data-testid="location-privacy">
			<p>
				Others never see the parts of your workouts inside a privacy zone, nor the start and end you choose to
				hide below. You always see your whole track.
			</p>
			{loadError && <p role="alert">{loadError}</p>}

			<section aria-labelledby="privacy-zones-heading">
				<h3 id="privacy-zones-heading">Privacy zones</h3>
				{zones === null ? (
					!loadError && <p role="status">Loading your privacy zones…</p>
				) : zones.length === 0 ? (
					<p>You have no privacy zones yet.</p>
				) : (
					<ul className="location-privacy__zones" aria-label="Your privacy zones">
						{zones.map((zone) => (
							<li key={zone.id}>
								<span>
									<strong>{zone.name || 'Privacy zone'}</strong> · radius {formatRadius(zone.radius)}
								</span>
								<button
									className="secondary"
									type="button"
									onClick={() => deleteZone(zone)}
									aria-label={`Delete ${zone.name || 'privacy zone'}`}
								>
									Delete
								</button>
							</li>
						))}
					</ul>
				)}

				<form className="auth-form location-privacy__add" onSubmit={addZone} aria-label="Add a privacy zone">
					<div className="field">
						<label htmlFor="zone-address">Address or place</label>
						<div className="location-privacy__search">
							<input
								id="zone-address"
								value={address}
								maxLength={200}
								autoComplete="street-address"
								onChange={(event) => setAddress(event.target.value)}
								onKeyDown={(event) => {
									if (event.key === 'Enter') {
										event.preventDefault();
										findAddress();
									}
								}}
							/>
							<button className="secondary" type="button" onClick={findAddress}>
								Find
							</button>
						</div>
						<small>Or click the map to choose the point.</small>
					</div>
					<div
						ref={mapElement}
						className="location-privacy__map"
						role="application"
						aria-label="Map: click to choose the point to hide"
					/>
					<p role="status" data-testid="zone-point">
						{point
							? `Point: ${pointLabel} (${point.lat.toFixed(5)}, ${point.lng.toFixed(5)})`
							: 'No point chosen yet.'}
					</p>
					<div className="field">
						<label htmlFor="zone-radius">Radius: {formatRadius(radius)}</label>
						<input
							id="zone-radius"
							type="range"
							min={ZONE_RADIUS_MIN_M}
							max={ZONE_RADIUS_MAX_M}
							step={RADIUS_STEP_M}
							value={radius}
							aria-valuetext={formatRadius(radius)}
							onChange={(event) => setRadius(Number(event.target.value))}
						/>
					</div>
					<div className="field">
						<label htmlFor="zone-name">Name (optional)</label>
						<input
							id="zone-name"
							value={name}
							maxLength={60}
							placeholder="Home"
							onChange={(event) => setName(event.target.value)}
						/>
					</div>
					{zoneStatus.text && (
						<p
							role={zoneStatus.error ? 'alert' : 'status'}
							className={zoneStatus.error ? 'field__error' : undefined}
						>
							{zoneStatus.text}
						</p>
					)}
					<button className="primary" type="submit" disabled={busy || full}>
						Add zone
					</button>
					{full && (
						<p>You have {MAX_PRIVACY_ZONES} zones, the most you can keep. Delete one to add another.</p>
					)}
				</form>
			</section>

			<section aria-labelledby="hide-ends-heading">
				<h3 id="hide-ends-heading">Start and end of every workout</h3>
				{hideEnds === null ? (
					!loadError && <p role="status">Loading…</p>
				) : (
					<form className="auth-form" onSubmit={saveEnds} aria-label="Hide the start and end">
						<div className="field">
							<label htmlFor="hide-ends">Hide from others</label>
							<select id="hide-ends" name="hide_ends" defaultValue={String(hideEnds)} key={hideEnds}>
								{HIDE_ENDS_CHOICES.map((value) => (
									<option key={value} value={value}>
										{value === 0 ? 'Nothing (show the whole track)' : `The first and last ${value} m`}
									</option>
								))}
							</select>
						</div>
						{endsStatus.text && (
							<p
								role={endsStatus.error ? 'alert' : 'status'}
								className={endsStatus.error ? 'field__error' : undefined}
							>
								{endsStatus.text}
							</p>
						)}
						<button className="primary" type="submit">
							Save
						</button>
					</form>
				)}
			</section>
		</div>
	);
}
