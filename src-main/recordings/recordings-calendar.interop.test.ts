import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CalendarSyncStatus } from '@shared/contract/directory';
import type { RecordedSegmentInfo, RecordingStatus } from '@shared/contract/recordings';
import { createGraphClient, type GraphClient } from '../directory/client/graph-client';
import { createPasswordTokenProvider, GRAPH_DEFAULT_SCOPE } from '../directory/client/oauth-token-provider';
import { createDirectoryModule } from '../directory/directory-module';
import { demoAccountPath } from '../directory/directory-connection';
import { directoryEmulatorModule } from '../directory/emulator/directory-emulator-module';
import { startTestEngine, type TestEngine } from '../engine/test-engine';
import { startGstCamera, type GstCamera } from '../relay/protocols/rtsp/test-support/gst-camera';
import { relayModule } from '../relay/relay-module';
import { createStorageClientModule } from '../storage/client/storage-client-module';
import { storageEmulatorModule } from '../storage/emulator/storage-emulator-module';
import { waitUntil } from '../test-support/time';
import { recordingsModule } from './recordings-module';

// The whole app in one engine: a GStreamer camera as stream `boardroom`, recorded with
// `schedule: calendar` into the embedded storage emulator while the embedded Graph emulator's
// calendar (synced every 2 s) holds a meeting in the Boardroom. Meetings are made, moved and
// cancelled through Graph as the demo user, as Outlook would.

const SEGMENT_MS = 2_000;
const PRE_ROLL_MS = 2_000;
const POST_ROLL_MS = 2_000;
const INTERVAL_MS = 2_000;

let camera: GstCamera;
let running: TestEngine;
let graph: GraphClient;

const call = async <T>(service: string, method: string, input?: unknown): Promise<T> => {
  const answer = await running.engine.services.call(service, method, input);
  if (!answer.ok) throw new Error(`${service}.${method}: ${JSON.stringify(answer.error)}`);
  return answer.value as T;
};
const recording = async () => (await call<RecordingStatus[]>('recordings', 'status')).find((s) => s.stream === 'boardroom')!;
const calendarRounds = async () => (await call<CalendarSyncStatus>('calendarSync', 'status')).rounds;
const segmentsBetween = async (startMs: number, endMs: number) =>
  (await call<{ segments: RecordedSegmentInfo[] }>('recordings', 'list', { stream: 'boardroom', startMs, endMs })).segments;
const stateIs = (state: RecordingStatus['state'], what: string, timeout = 20_000) =>
  waitUntil(async () => ((await recording()).state === state ? recording() : false), { timeout, interval: 100, what });

/** Graph's dateTimeTimeZone in UTC, to the second. */
const utc = (ms: number) => ({ dateTime: new Date(ms).toISOString().slice(0, 19), timeZone: 'UTC' });
const wholeSecond = (ms: number) => Math.ceil(ms / 1000) * 1000;

async function createMeeting(subject: string, startMs: number, endMs: number): Promise<string> {
  const { body } = await graph.request<{ id: string }>({
    method: 'POST',
    path: '/me/events',
    body: { subject, location: { displayName: 'Boardroom' }, start: utc(startMs), end: utc(endMs) },
  });
  return body.id;
}

/**
 * Records a meeting running now, changes it through Graph, and checks the recording stops
 * within one round of the sync; what was recorded of it is in the bucket, ending by then.
 */
async function stopsWithinOneRound(change: (id: string) => Promise<unknown>, subject: string): Promise<RecordingStatus> {
  const id = await createMeeting(subject, wholeSecond(Date.now()) - 60_000, wholeSecond(Date.now()) + 120_000);
  const recorded = await stateIs('recording', `recording of ${subject}`);
  expect(recorded.calendarWindow).toMatchObject({ current: true, meetings: [{ subject }] });
  const roundsBefore = await calendarRounds();
  const changedAt = Date.now();
  await change(id);
  const off = await stateIs('off', `the recording stopping after ${subject} changed`, 4 * INTERVAL_MS + 5_000);
  const offAt = Date.now();
  // The round running while the change was made may have read the calendar before it: the next one saw it.
  expect(await calendarRounds()).toBeLessThanOrEqual(roundsBefore + 2);
  expect(offAt - changedAt).toBeLessThan(2 * INTERVAL_MS + 3_000);
  const segments = await waitUntil(async () => (await recording()).spooled === 0 && segmentsBetween(changedAt - 30_000, offAt + 30_000), {
    timeout: 30_000,
    interval: 200,
    what: `the segments of ${subject}`,
  });
  expect(segments.length).toBeGreaterThan(0);
  // Dated from the frames' arrival: the last one ends when the recording let go (a frame's worth of slack).
  expect(segments.at(-1)!.endMs).toBeLessThanOrEqual(offAt + 500);
  return off;
}

beforeAll(async () => {
  camera = await startGstCamera({ size: '640x360' });
  running = await startTestEngine({
    modules: [
      relayModule,
      storageEmulatorModule,
      createStorageClientModule(),
      directoryEmulatorModule,
      createDirectoryModule(),
      recordingsModule,
    ],
    config: [
      'data_dir: ./data',
      'api:\n  listen: 127.0.0.1:0',
      'rtsp:\n  listen: ""',
      'webrtc:\n  listen: 127.0.0.1:0',
      'log:\n  level: info',
      'storage:\n  emulator:\n    listen: 127.0.0.1:0\n    accounts:',
      '      - access_key: cal-ak\n        secret_key: cal-sk-secret\n        buckets:\n          - name: rec\n            domains: [rec.test]',
      'directory:\n  emulator:\n    listen: 127.0.0.1:0',
      `streams:\n  boardroom: ${camera.url}`,
      'recordings:\n  boardroom:\n    bucket: rec\n    segment: 2s\n    schedule: calendar',
      `    pre_roll: ${PRE_ROLL_MS}ms\n    post_roll: ${POST_ROLL_MS}ms\n    calendar_interval: ${INTERVAL_MS}ms`,
      '',
    ].join('\n'),
  });
  const account = JSON.parse(await readFile(demoAccountPath(join(running.dir, 'data')), 'utf8')) as {
    tenant: string;
    client_id: string;
    client_secret: string;
    user: { userPrincipalName: string; password: string };
  };
  const url = running.engine.context.addresses.get('directory-emulator')!;
  graph = createGraphClient({
    baseUrl: `${url}/v1.0`,
    tokens: createPasswordTokenProvider({
      tokenUrl: `${url}/${account.tenant}/oauth2/v2.0/token`,
      clientId: account.client_id,
      clientSecret: account.client_secret,
      username: account.user.userPrincipalName,
      password: account.user.password,
      scopes: [GRAPH_DEFAULT_SCOPE, 'offline_access'],
    }),
  });
}, 60_000);

afterAll(async () => {
  await running?.stop();
  await camera?.stop();
});

describe('schedule: calendar with the embedded Graph emulator and a GStreamer camera', () => {
  it('starts the calendar sync and stays off while no meeting names the stream', async () => {
    const status = await waitUntil(async () => (await calendarRounds()) > 0 && recording(), {
      timeout: 30_000,
      interval: 100,
      what: 'the first calendar round',
    });
    expect(status).toMatchObject({ state: 'off', message: expect.stringMatching(/^no meeting ahead names boardroom/) });
    expect(await call<CalendarSyncStatus>('calendarSync', 'status')).toMatchObject({ intervalSeconds: 2, lastError: null });
  }, 40_000);

  it('records only around a meeting made for now+10 s to now+40 s in the Boardroom', async () => {
    const startMs = wholeSecond(Date.now() + 10_000);
    const endMs = startMs + 30_000;
    await createMeeting('Quarterly review', startMs, endMs);
    const waiting = await waitUntil(async () => (await recording()).calendarWindow, {
      timeout: 10_000,
      interval: 100,
      what: 'the meeting',
    });
    expect(waiting).toEqual({
      current: false,
      fromMs: startMs - PRE_ROLL_MS,
      untilMs: endMs + POST_ROLL_MS,
      meetings: [{ subject: 'Quarterly review', startMs, endMs }],
    });
    expect(await recording()).toMatchObject({
      state: 'off',
      nextChangeMs: startMs - PRE_ROLL_MS,
      message: /^next meeting: Quarterly review/,
    });
    await stateIs('recording', 'the recording to start', 20_000);
    expect(Date.now()).toBeGreaterThanOrEqual(startMs - PRE_ROLL_MS);
    await stateIs('off', 'the recording to stop', 45_000);
    expect(Date.now()).toBeGreaterThanOrEqual(endMs + POST_ROLL_MS);
    const segments = await waitUntil(
      async () => {
        const listed = await segmentsBetween(startMs - 60_000, endMs + 60_000);
        return (await recording()).spooled === 0 && listed.at(-1)!.endMs >= endMs && listed;
      },
      { timeout: 30_000, interval: 200, what: 'the segments in the bucket' },
    );
    // The meeting is recorded from before its start to after its end, and nothing more.
    expect(segments[0]!.startMs).toBeGreaterThanOrEqual(startMs - PRE_ROLL_MS - SEGMENT_MS);
    expect(segments[0]!.startMs).toBeLessThanOrEqual(startMs);
    expect(segments.at(-1)!.endMs).toBeLessThanOrEqual(endMs + POST_ROLL_MS + SEGMENT_MS);
    for (let i = 1; i < segments.length; i++) expect(segments[i]!.startMs - segments[i - 1]!.endMs).toBeLessThan(500);
    expect(segments.length).toBeGreaterThanOrEqual(15);
    expect(segments[0]!.codecs).toMatch(/^avc1\./);
  }, 90_000);

  it('goes on within one round when the meeting is extended', async () => {
    const id = await createMeeting('Planning', wholeSecond(Date.now()) - 60_000, wholeSecond(Date.now()) + 60_000);
    await stateIs('recording', 'recording of Planning');
    const roundsBefore = await calendarRounds();
    const endMs = wholeSecond(Date.now()) + 600_000;
    await graph.request({ method: 'PATCH', path: `/me/events/${id}`, body: { end: utc(endMs) } });
    const extended = await waitUntil(async () => (await recording()).calendarWindow?.untilMs === endMs + POST_ROLL_MS && recording(), {
      timeout: 4 * INTERVAL_MS + 5_000,
      interval: 100,
      what: 'the window to follow the new end',
    });
    expect(await calendarRounds()).toBeLessThanOrEqual(roundsBefore + 2);
    expect(extended).toMatchObject({ state: 'recording', nextChangeMs: endMs + POST_ROLL_MS });
    await graph.request({ method: 'DELETE', path: `/me/events/${id}` });
    await stateIs('off', 'the recording to stop once Planning is gone');
  }, 60_000);

  it('stops within one round when the meeting is moved to end earlier', async () => {
    const off = await stopsWithinOneRound(
      (id) => graph.request({ method: 'PATCH', path: `/me/events/${id}`, body: { end: utc(wholeSecond(Date.now()) - 10_000) } }),
      'Design review',
    );
    expect(off.calendarWindow).toBeUndefined();
  }, 60_000);

  it('stops within one round when the meeting is cancelled', async () => {
    const off = await stopsWithinOneRound((id) => graph.request({ method: 'DELETE', path: `/me/events/${id}` }), 'Budget');
    expect(off.message).toMatch(/^no meeting ahead names boardroom/);
  }, 60_000);
});
