import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../platform/logger';
import { createSchemeRegistry } from '../relay/core/scheme-registry';
import { createStreamRegistry } from '../relay/core/stream-registry';
import { createTaskRegistry } from '../relay/core/task-registry';
import { fromAvcc } from '../relay/media/codecs/h264/nal';
import { h264Codec } from '../relay/media/frames/codec-description';
import { createFrameProducer } from '../relay/media/frames/frame-producer';
import { segmentParts } from './fmp4-parts';
import { createCalendarFeed, type CalendarFeed } from './calendar-feed';
import { recordingWindows, type WindowEvent } from './calendar-windows';
import { readRecordingsSection } from './recordings-config';
import { openSpool, type Spool } from './spool';
import { createStreamRecorder } from './stream-recorder';
import { cameraFrames } from './test-support/camera-frames';

// A stream recorder on a relay's registries in this process, fed by a producer of recorded
// frames (as an upload feeds the relay): what reaches the spool, and what the stream sees.

const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function setup(recording: Record<string, unknown>, calendar?: CalendarFeed) {
  const dir = await mkdtemp(join(tmpdir(), 'stream-recorder-'));
  dirs.push(dir);
  const logger = createMemoryLogger('warn');
  const tasks = createTaskRegistry();
  const streams = createStreamRegistry({ schemes: createSchemeRegistry(), logger, tasks });
  const spool: Spool = await openSpool(dir);
  const settings = readRecordingsSection({ cam: { bucket: 'b', ...recording } }).settings[0]!;
  const spooled: string[] = [];
  const recorder = createStreamRecorder(settings, {
    streams,
    tasks,
    spool,
    logger,
    timeZone: 'UTC',
    calendar,
    onSpooled: (entry) => spooled.push(entry.target.key),
    onChange: () => undefined,
    retryMs: 50,
  });
  return { streams, tasks, spool, recorder, spooled, logger };
}

const logger0 = () => createMemoryLogger('warn');

/** A pushed source with the fixture camera's H.264 (its SPS and PPS in the SDP) and no audio. */
function pushedCamera(streams: ReturnType<typeof createStreamRegistry>) {
  const { frames } = cameraFrames(10, { audio: false });
  const units = fromAvcc(frames[0]!.frame.data);
  const [sps, pps] = [7, 8].map((type) => units.find((u) => (u[0]! & 0x1f) === type)!);
  const producer = createFrameProducer({ tracks: [{ kind: 'video', codec: h264Codec(sps!, pps!) }], label: { format_name: 'test' } });
  streams.set('cam', []).addPushed('test://cam', producer.connection);
  return { producer, frames };
}

describe('stream recorder', () => {
  it('waits for a stream that is not there, then records it into the spool and lets it go when stopped', async () => {
    const { streams, tasks, spool, recorder, spooled } = await setup({ segment: '4s' });
    expect(recorder.status()).toMatchObject({ state: 'waiting', message: expect.stringMatching(/there is no stream cam in streams/) });
    const { producer, frames } = pushedCamera(streams);
    await vi.waitFor(() => expect(recorder.status().state).toBe('recording'), { timeout: 10_000, interval: 50 });
    expect(streams.get('cam')!.info().consumers).toEqual([
      expect.objectContaining({ format_name: 'recording', medias: ['video, sendonly, H264'] }),
    ]);
    for (const { frame } of frames) producer.push(0, frame);
    await recorder.stop();
    expect(spooled).toHaveLength(3);
    const durations = spool.entries('cam').map((e) => e.target.durationMs);
    expect(durations).toEqual([4000, 4000, 2000]);
    for (const entry of spool.entries('cam')) {
      expect(entry.target.key).toMatch(/^recordings\/cam\/\d{4}-\d{2}-\d{2}\/\d{2}-\d{2}-\d{2}\.\d{3}Z\.mp4$/);
      const parts = segmentParts(await readFile(entry.file));
      expect(parts.fragments[0]!.keyframe).toBe(true);
    }
    expect(streams.get('cam')!.info().consumers).toEqual([]);
    expect(tasks.count('consumer')).toBe(0);
    producer.end();
  }, 20_000);

  it('attaches nothing outside its weekly windows, and says when it starts', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(Date.parse('2026-11-28T12:00:00Z')); // a Saturday
    try {
      const { streams, recorder } = await setup({ schedule: 'mon-fri 08:00-18:00', pre_roll: '5s' });
      pushedCamera(streams);
      expect(recorder.status()).toEqual({ state: 'off', nextChangeMs: Date.parse('2026-11-30T07:59:55Z') });
      expect(streams.get('cam')!.info().consumers).toEqual([]);
      await recorder.stop();
    } finally {
      vi.useRealTimers();
    }
  });

  it('with no calendar to follow, a calendar schedule is inactive: the status says why, the log says it once', async () => {
    const { recorder, logger } = await setup({ schedule: 'calendar' }, createCalendarFeed(undefined, logger0()));
    expect(recorder.status()).toEqual({
      state: 'inactive',
      message: expect.stringMatching(/^schedule: calendar needs the synced calendar, and there is none: .*directory\.graph/),
    });
    expect(logger.lines.filter((line) => line.includes('needs the synced calendar'))).toHaveLength(1);
    await recorder.stop();
  });

  it('follows the calendar: records during a meeting naming the stream, and stops when a round cancels it', async () => {
    const now = Date.now();
    let events: WindowEvent[] = [
      { id: 'm', subject: 'Board', location: 'Room CAM', startMs: now - 1_000, endMs: now + 60_000, isCancelled: false },
    ];
    const rounds = new Set<() => void>();
    const feed: CalendarFeed = {
      read: (stream, rolls) => ({ windows: recordingWindows(events, stream, rolls) }),
      onChange: (listener) => (rounds.add(listener), () => rounds.delete(listener)),
      want: () => undefined,
    };
    const { streams, recorder } = await setup({ schedule: 'calendar', post_roll: '2s' }, feed);
    const { producer } = pushedCamera(streams);
    await vi.waitFor(() => expect(recorder.status().state).toBe('recording'), { timeout: 10_000, interval: 50 });
    expect(recorder.status()).toMatchObject({
      nextChangeMs: now + 62_000,
      calendarWindow: { current: true, untilMs: now + 62_000, meetings: [{ subject: 'Board' }] },
    });
    expect(streams.get('cam')!.info().consumers).toHaveLength(1);
    // The meeting is cancelled: the next round's end stops the recording at once.
    events = [{ ...events[0]!, isCancelled: true }];
    for (const listener of rounds) listener();
    expect(recorder.status()).toEqual({ state: 'off', message: expect.stringMatching(/^no meeting ahead names cam/) });
    expect(streams.get('cam')!.info().consumers).toEqual([]);
    await recorder.stop();
    expect(rounds.size).toBe(0);
    producer.end();
  });
});
