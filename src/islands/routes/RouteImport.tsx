import { type FormEvent, useState } from 'react';
import { api, ensureSession, errorData, loginPath } from '../../lib/api/client';

/**
 * Imports a GPX file from a watch, bike computer or another app as a new private route, then
 * opens it.
 */
export default function RouteImport() {
	const [status, setStatus] = useState<'idle' | 'uploading' | 'failed'>('idle');
	const [message, setMessage] = useState('');

	async function submit(event: FormEvent<HTMLFormElement>) {
		event.preventDefault();
		const file = new FormData(event.currentTarget).get('file');
		if (!(file instanceof File) || file.size === 0) {
			setStatus('failed');
			setMessage('Choose a GPX file first.');
			return;
		}
		if (!(await ensureSession())) return window.location.assign(loginPath());
		setStatus('uploading');
		const form = new FormData();
		form.append('file', file);
		try {
			const route = await api<{ id: number }>('/v7.1/route/upload/', { method: 'POST', body: form });
			window.location.assign(`/routes/view/${route.id}`);
		} catch (error) {
			setStatus('failed');
			setMessage(errorData(error).message ?? 'The file could not be imported. Please try another GPX file.');
		}
	}

	return (
		<form className="route-import" onSubmit={submit} noValidate>
			<label htmlFor="route-import-file">Import a route from a GPX file</label>
			<input id="route-import-file" name="file" type="file" accept=".gpx,application/gpx+xml" />
			<button type="submit" disabled={status === 'uploading'}>
				{status === 'uploading' ? 'Importing…' : 'Import route'}
			</button>
			<p role="status">{status === 'uploading' ? 'Importing your route…' : ''}</p>
			{status === 'failed' && <p role="alert">{message}</p>}
		</form>
	);
}
