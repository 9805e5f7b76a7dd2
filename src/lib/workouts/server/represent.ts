import { link } from '../../api/hal';
import { formatApiDateTime } from '../../core/dates';
import type { ActivityTypeView } from '../contract';
import { canEdit } from '../policy';
import { toApiTimeSeries } from '../series';
import type { ActivityType } from './activity-types';
import type { ViewerRecording } from './recording';
import { aggregatesOf, type WorkoutWithOwner } from './service';

/**
 * A workout as the v7.1 API shows it; with its recording as the viewer may have it
 * (`recordingForViewer`), the `time_series` field set adds the samples (seconds since the start) and laps.
 */
export function representWorkout(
	workout: WorkoutWithOwner,
	viewer: { id: number } | null,
	recording?: Pick<ViewerRecording, 'samples' | 'laps'> | null,
) {
	const body: Record<string, unknown> = {
		id: workout.id,
		name: workout.name,
		notes: workout.notes,
		start_datetime: formatApiDateTime(workout.startDatetime),
		start_locale_timezone: workout.startLocaleTimezone,
		created_datetime: formatApiDateTime(workout.createdAt),
		updated_datetime: formatApiDateTime(workout.updatedAt),
		source: workout.source,
		activity_type: workout.activityTypeId,
		privacy: workout.privacy,
		has_time_series: workout.sampleCount > 0,
		version: workout.version,
		aggregates: aggregatesOf(workout),
		user_display_name: workout.ownerDisplayName || workout.ownerUsername,
		_links: {
			self: link('workout', workout.id),
			user: link('user', workout.ownerId),
			activity_type: link('activity_type', workout.activityTypeId),
			privacy: link('privacy_option', workout.privacy),
		},
	};
	if (workout.attribution && canEdit(viewer, workout)) body.attribution = workout.attribution;
	// Gear and how hard it felt are the owner's own business, like attribution.
	if (canEdit(viewer, workout)) {
		// What waits for the owner's consent (precise_location, health_data), so a client can say so.
		if (workout.heldBack.length) body.held_back = workout.heldBack;
		body.gear = workout.gearId;
		body.perceived_effort = workout.perceivedEffort;
		if (workout.gearId !== null)
			(body._links as Record<string, unknown>).gear = link('usergear', workout.gearId);
	}
	if (recording) {
		body.time_series = toApiTimeSeries(recording.samples);
		body.laps = recording.laps;
	}
	return body;
}

export function representActivityType(type: ActivityType): ActivityTypeView {
	const links: ActivityTypeView['_links'] = { self: link('activity_type', type.id) };
	if (type.parent !== null) {
		links.parent = link('activity_type', type.parent);
		links.root = link('activity_type', type.ancestors.at(-1) as number);
	} else {
		links.root = link('activity_type', type.id);
	}
	return { id: type.id, name: type.name, has_children: type.hasChildren, group: type.group, _links: links };
}
