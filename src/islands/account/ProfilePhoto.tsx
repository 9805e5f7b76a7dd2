import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { PHOTO_MAX_BYTES, type SelfUser } from '../../lib/account/contract';
import { $avatarVersion, announceNewAvatar, withAvatarVersion } from '../../lib/account/store';
import { api, errorData } from '../../lib/api/client';
import { avatarUrl } from '../../lib/site/navigation';

type Upload =
	| { state: 'idle' }
	| { state: 'uploading' }
	| { state: 'done' }
	| { state: 'failed'; message: string };

/**
 * The member's photo and a way to change it: progress while it uploads, a confirmation when it is
 * saved, and the new photo here and in the header at once.
 */
export function ProfilePhoto(props: { user: SelfUser }) {
	const [upload, setUpload] = useState<Upload>({ state: 'idle' });
	const version = useStore($avatarVersion);

	async function send(file: File | undefined) {
		if (!file) return;
		if (file.size > PHOTO_MAX_BYTES)
			return setUpload({ state: 'failed', message: 'The image is too big (at most 1,000,000 bytes).' });
		setUpload({ state: 'uploading' });
		const form = new FormData();
		form.append('image', file);
		try {
			await api(`/v7.1/user_profile_photo/${props.user.id}/`, { method: 'PUT', body: form });
			announceNewAvatar();
			setUpload({ state: 'done' });
		} catch (error) {
			const data = errorData(error);
			setUpload({
				state: 'failed',
				message:
					data.error === 'too-big'
						? 'The image is too big (at most 1,000,000 bytes).'
						: data.error === 'invalid-image-type'
							? 'Use a PNG, JPEG or GIF image.'
							: data.error === 'storage_full' && data.message
								? data.message
								: 'The photo could not be saved. Please try again.',
			});
		}
	}

	return (
		<div className="field">
			<img
				src={withAvatarVersion(avatarUrl(props.user.username, 'Medium'), version)}
				alt={props.user.display_name}
				width={128}
				height={128}
			/>
			<label htmlFor="photo-upload">Change photo (PNG, JPEG or GIF, at most 1 MB)</label>
			<input
				id="photo-upload"
				type="file"
				accept="image/png,image/jpeg,image/gif"
				disabled={upload.state === 'uploading'}
				onChange={(event) => send(event.target.files?.[0])}
			/>
			<div role="status">
				{upload.state === 'uploading' && (
					<>
						<progress aria-label="Uploading your photo" /> Uploading your photo…
					</>
				)}
				{upload.state === 'done' && <p className="form-success">Your new photo is saved.</p>}
			</div>
			{upload.state === 'failed' && (
				<p className="field__error" role="alert">
					{upload.message}
				</p>
			)}
		</div>
	);
}
