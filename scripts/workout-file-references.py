#!/usr/bin/python3
"""Moving time and climb of the real workout fixtures as independent tools count them.

Writes tests/fixtures/workouts/references.json, which tests/unit/workout-files/references.test.ts compares
our figures with. Run from the repository root with Debian's gpxpy (apt-get install python3-gpxpy; the
figures in the fixture came from gpxpy 1.5.0):

    /usr/bin/python3 scripts/workout-file-references.py

GPX files are read by gpxpy itself. TCX and FIT files are first written out as GPX by our own CLI
(`npm run workout-file -- convert <file> --to gpx`: one trkseg per segment, every point with its time and
height), so gpxpy sees the same points and segments we do; the figures are gpxpy's, not ours.

Per file:
- gpxpy_moving_s: GPX.get_moving_data().moving_time — every interval faster than 1 km/h, per segment
  (gpxpy measures an interval in 3D when both points have a height).
- gpxpy_moving_2d_s: the same with the heights removed first, so intervals are measured on the ground as
  ours are (it differs only where heights jump, as on swim_activity_1.tcx's GPS heights).
- gpxpy_up_m / gpxpy_down_m: GPX.get_uphill_downhill() — heights smoothed 0.3/0.4/0.3 over three points,
  every rise summed, per segment (nothing across the jump between segments).
- kind: 'track'; or 'no_track_points' (waypoints only: gpxpy finds no track point, and we refuse the file),
  or 'no_positions' (a FIT without positions, such as an indoor ride: GPX cannot hold it, so gpxpy has no
  figures to give; the test checks those files against the FIT SDK's decoding instead).
- hysteresis5_up_m / hysteresis5_down_m: the recorded heights read with a 5 m dead band, per segment: the
  reference level moves (and the rise or drop counts) only once a height is 5 m above or below it.
"""

import json
import os
import subprocess
import sys

import gpxpy

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIXTURES = os.path.join(ROOT, 'tests', 'fixtures', 'workouts')
OUT = os.path.join(FIXTURES, 'references.json')

# Every file of ../shared/data/workouts (the larger TCX files gzipped here).
FILES = [
    'gpx/Mojstrovka.gpx',
    'gpx/cerknicko-jezero-with-elevations-zero.gpx',
    'gpx/gpx1.0_with_all_fields.gpx',
    'gpx/gpx1.1_with_all_fields.gpx',
    'gpx/gpx_with_garmin_extension.gpx',
    'gpx/route.gpx',
    'gpx/track-with-empty-segment.gpx',
    'gpx/track-with-extremes.gpx',
    'gpx/unicode_with_bom.gpx',
    'tcx/brighton-beach.tcx.gz',
    'tcx/cross-country-skiing_activity_1.tcx',
    'tcx/multiple_running_activities.tcx.gz',
    'tcx/running_activity_2.tcx.gz',
    'tcx/sup_activity_2.tcx',
    'tcx/swim_activity_1.tcx.gz',
    'tcx/walking_activity_1.tcx',
    'fit/Edge810-Vector-2013-08-16-15-35-10.fit',
    'fit/activity-large-fenxi2-multisport.fit',
    'fit/activity-settings-corruptheader.fit',
    'fit/compressed-speed-distance.fit',
    'fit/developer-types-sample.fit',
    'fit/event_timestamp.fit',
    'fit/garmin-edge-820-bike.fit',
    'fit/garmin-fenix-5-bike.fit',
    'fit/garmin-fenix-5-walk.fit',
    'fit/null_compressed_speed_dist.fit',
    'fit/sample-activity-indoor-trainer.fit',
    'fit/sample_mulitple_header.fit',
    'fit/strava-android-app-201.10-b1218918.fit',
]

BAND_M = 5.0


def hysteresis(heights, band):
    up = down = 0.0
    ref = None
    for h in heights:
        if h is None:
            continue
        if ref is None:
            ref = h
        elif h - ref >= band:
            up += h - ref
            ref = h
        elif ref - h >= band:
            down += ref - h
            ref = h
    return up, down


def load(path):
    """The file as gpxpy reads it; None when it holds no positions (GPX cannot carry such points)."""
    full = os.path.join(FIXTURES, path)
    if path.startswith('gpx/'):
        with open(full, encoding='utf-8-sig') as f:
            gpx = gpxpy.parse(f)
        if not any(s.points for t in gpx.tracks for s in t.segments) and gpx.routes:
            # A planned route: we read its points as one track segment, so gpxpy is given the same.
            track = gpxpy.gpx.GPXTrack()
            segment = gpxpy.gpx.GPXTrackSegment()
            for route in gpx.routes:
                for p in route.points:
                    segment.points.append(
                        gpxpy.gpx.GPXTrackPoint(p.latitude, p.longitude, elevation=p.elevation, time=p.time))
            track.segments.append(segment)
            gpx.tracks.append(track)
        return gpx
    converted = subprocess.run(
        ['npx', 'tsx', 'src/lib/workout-files/cli.ts', 'convert', full, '--to', 'gpx'],
        cwd=ROOT, capture_output=True, text=True,
    )
    if converted.returncode != 0:
        if 'cannot_write' in converted.stderr:
            return None
        raise RuntimeError(f'{path}: {converted.stderr.strip()}')
    return gpxpy.parse(converted.stdout)


def main():
    out = {
        'tool': 'gpxpy ' + gpxpy.__version__ + ' (Debian python3-gpxpy)',
        'generated_by': 'scripts/workout-file-references.py',
        'files': {},
    }
    for path in FILES:
        gpx = load(path)
        if gpx is None:
            out['files'][path] = {'kind': 'no_positions'}
            print(path, out['files'][path], file=sys.stderr)
            continue
        segments = [s for t in gpx.tracks for s in t.segments if s.points]  # as we read: empty ones dropped
        if not segments:
            # Waypoints only: gpxpy finds no track point either.
            out['files'][path] = {'kind': 'no_track_points'}
            print(path, out['files'][path], file=sys.stderr)
            continue
        timed = any(p.time is not None for s in segments for p in s.points)
        moving = gpx.get_moving_data()
        up, down = gpx.get_uphill_downhill()
        heights = [[p.elevation for p in s.points] for s in segments]
        for s in segments:
            for p in s.points:
                p.elevation = None
        moving_2d = gpx.get_moving_data()
        for s, hs in zip(segments, heights):
            for p, h in zip(s.points, hs):
                p.elevation = h
        h_up = h_down = 0.0
        for s in segments:
            u, d = hysteresis([p.elevation for p in s.points], BAND_M)
            h_up += u
            h_down += d
        out['files'][path] = {
            'kind': 'track',
            'segments': len(segments),
            'points': sum(len(s.points) for s in segments),
            'gpxpy_moving_s': round(moving.moving_time, 1) if timed and moving else None,
            'gpxpy_moving_2d_s': round(moving_2d.moving_time, 1) if timed and moving_2d else None,
            'gpxpy_up_m': round(up, 1),
            'gpxpy_down_m': round(down, 1),
            'hysteresis5_up_m': round(h_up, 1),
            'hysteresis5_down_m': round(h_down, 1),
        }
        print(path, out['files'][path], file=sys.stderr)
    with open(OUT, 'w', encoding='utf-8') as f:
        json.dump(out, f, indent='\t')
        f.write('\n')


if __name__ == '__main__':
    main()
