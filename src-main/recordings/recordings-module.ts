import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { recordingsService, type RecordedSegmentInfo, type RecordingStatus } from '../../src-shared/contract/recordings';
import { ContractFailure } from '../../src-shared/contract/result';
import type { EngineContext, EngineModule } from '../engine/engine-context';
import { directoryCalendar } from '../directory/calendar/calendar-capability';
import { relayStreams, type RelayStreams } from '../relay/relay-capability';
import { storageAccounts, transferUploads, type StorageAccounts } from '../storage/client/storage-capability';
import { prepareBucket } from './bucket-setup';
import { createCalendarFeed } from './calendar-feed';
import { liveToBucket } from './live-to-bucket';
import { readRecordingsSection, recordingsSectionSchema, type RecordingSettings } from './recordings-config';
import { recordingsReads } from './recordings-reads';
import { recordingsRoutes } from './recordings-routes';
import { createPlaybackTickets } from './playback-tickets';
import { createSegmentCatalog, type SegmentPlace } from './segment-catalog';
import { createSegmentUploader, type SegmentUploader, type UploaderDeps } from './segment-uploader';
import { openSpool, type UploadTarget } from './spool';
import { createStreamRecorder, type StreamRecorder } from './stream-recorder';
import { systemTimeZone } from './zone-time';

const unavailable = async (): Promise<never> => {
  throw new ContractFailure('unavailable', 'recordings need the relay and the storage client');
};

/** A clean stop waits this long for the last segments to reach the bucket. */
const DRAIN_ON_CLOSE_MS = 3_000;

/** `recordings:` of the config, read here and nowhere else (the engine's unknown-key warnings use it). */
export const recordingsConfigSchema = z.object({ recordings: recordingsSectionSchema });

/** Settings compared as written: a Set of weekdays compares by its days. */
const sameSettings = (a: RecordingSettings, b: RecordingSettings) => {
  const plain = (s: RecordingSettings) =>
    JSON.stringify(s, (_key, value: unknown) => (value instanceof Set ? [...(value as Set<number>)] : value));
  return plain(a) === plain(b);
};

/**
 * Cameras recorded into Kodo buckets: per stream in `recordings:`, a recorder that follows its
 * schedule and writes segments into the spool in `data_dir/recordings`, an uploader that
 * empties the spool into the bucket, and the recordings API on the relay's HTTP API. Needs the
 * relay and the storage client, listed before it in modules.ts; `schedule: calendar` follows
 * the directory module's calendar sync (listed before it too, optional).
 */
export const recordingsModule: EngineModule = {
  name: 'recordings',
  async init(ctx) {
    const log = ctx.logger.child('recordings');
    const read = readRecordingsSection(ctx.config.section('recordings'));
    for (const problem of read.problems) log.error(`${problem.message}; this stream is not recorded`);
    const relay = ctx.capabilities.get(relayStreams);
    const storage = ctx.capabilities.get(storageAccounts);
    if (!relay || !storage) {
      if (read.settings.length > 0) log.error('recordings need the relay and the storage client; nothing is recorded');
      ctx.services.bind(recordingsService, {
        status: async () => [],
        list: unavailable,
        liveBuffer: unavailable,
        snapshotToBucket: unavailable,
        clipToBucket: unavailable,
        playbackTicket: unavailable,
        usage: unavailable,
      });
      return;
    }
    await startRecordings(ctx, read.settings, { relay, storage, log });
  },
};

async function startRecordings(
  ctx: EngineContext,
  initial: RecordingSettings[],
  deps: { relay: RelayStreams; storage: StorageAccounts; log: ReturnType<EngineContext['logger']['child']> },
): Promise<void> {
  const { relay, storage, log } = deps;
  const dir = join(ctx.settings.dataDir, 'recordings');
  const spool = await openSpool(join(dir, 'spool'));
  // A snapshot or clip left by a crash before the transfer queue took it: nobody will upload it.
  await rm(join(dir, 'outbox'), { recursive: true, force: true });
  const catalog = createSegmentCatalog();
  const recorders = new Map<string, StreamRecorder>();
  const lastSegments = new Map<string, RecordedSegmentInfo>();

  const { accountOf, clientFor, placeOf } = storagePlaces(storage);
  const calendar = createCalendarFeed(ctx.capabilities.get(directoryCalendar), log);

  let statusTimer: NodeJS.Timeout | undefined;
  const statuses = (): RecordingStatus[] =>
    [...recorders.values()].map((recorder) => statusOf(recorder, uploader, lastSegments.get(recorder.settings.stream)));
  // Changes come in bursts (an upload, a state): the console hears of them a few times a second at most.
  // With no console listening, nothing is made (a console that opens asks for the status first).
  const changed = () => {
    if (!ctx.services.listening(recordingsService.name, 'onStatus')) return;
    statusTimer ??= setTimeout(() => {
      statusTimer = undefined;
      emit('onStatus', statuses());
    }, 200);
  };

  const uploader = createSegmentUploader({
    spool,
    clientFor,
    resumeDir: join(dir, 'resume'),
    prepare: bucketPreparer((stream) => recorders.get(stream)?.settings, accountOf, log),
    onUploaded: ({ target, bytes }) => {
      catalog.remember({ account: target.account, bucket: target.bucket }, target.key, target);
      lastSegments.set(target.stream, {
        key: target.key,
        startMs: target.startMs,
        endMs: target.endMs,
        durationMs: target.durationMs,
        bytes,
        codecs: target.codecs,
      });
    },
    onChange: changed,
    logger: log,
  });

  const recorderDeps = (settings: RecordingSettings) => ({
    streams: relay.streams,
    tasks: relay.tasks,
    spool,
    logger: log,
    timeZone: systemTimeZone(),
    ...(settings.schedule.kind === 'calendar' ? { calendar } : {}),
    onSpooled: () => {
      uploader.kick(settings.stream);
      void uploader.trim(settings.stream, settings.spool_max);
      changed();
    },
    onChange: changed,
  });

  async function sync(wanted: RecordingSettings[]): Promise<void> {
    const byStream = new Map(wanted.map((s) => [s.stream, s]));
    for (const [stream, recorder] of [...recorders]) {
      const next = byStream.get(stream);
      if (next && sameSettings(next, recorder.settings)) continue;
      recorders.delete(stream);
      await recorder.stop();
    }
    // The calendar sync starts (when stopped) for the first calendar recording, at the shortest interval asked.
    const intervals = wanted.filter((s) => s.schedule.kind === 'calendar').map((s) => s.calendar_interval);
    if (intervals.length > 0) calendar.want(Math.min(...intervals));
    for (const settings of wanted) {
      if (recorders.has(settings.stream)) continue;
      log.info('recording configured', {
        stream: settings.stream,
        account: settings.account,
        bucket: settings.bucket,
        prefix: settings.prefix,
        segment_s: settings.segment / 1000,
        schedule: settings.schedule.kind,
      });
      recorders.set(settings.stream, createStreamRecorder(settings, recorderDeps(settings)));
    }
    changed();
  }

  let syncing = sync(initial);
  await syncing;
  // What the last run left in the spool goes up now, whatever the config says of its stream.
  for (const stream of spool.streams()) uploader.kick(stream);
  const unsubscribe = ctx.config.onChange((config) => {
    const read = readRecordingsSection(config.section('recordings'));
    for (const problem of read.problems) log.error(`${problem.message}; this stream is not recorded`);
    syncing = syncing.then(() => sync(read.settings));
  });

  const tickets = createPlaybackTickets();
  ctx.http.add(
    recordingsRoutes({
      settingsOf: (stream) => recorders.get(stream)?.settings,
      placeOf,
      catalog,
      allowedOrigins: ctx.settings.api.origins,
      ticketStream: (ticket) => tickets.streamOf(ticket),
    }),
  );
  const live = liveToBucket({
    relay,
    storage,
    uploads: ctx.capabilities.get(transferUploads),
    snapshots: { apiUrl: ctx.server.url, ...apiCredentials(ctx) },
    settingsOf: (stream) => recorders.get(stream)?.settings,
    placeOf,
    accountIdOf: async (account) => (await accountOf(account)).id,
    catalog,
    spool,
    outbox: join(dir, 'outbox'),
  });

  const emit = ctx.services.bind(recordingsService, {
    status: async () => statuses(),
    ...recordingsReads({ settingsOf: (stream) => recorders.get(stream)?.settings, placeOf, catalog, tickets }),
    ...live,
  });

  ctx.onClose(async () => {
    unsubscribe();
    clearTimeout(statusTimer);
    await syncing;
    // The open segments are closed into the spool first and get a moment to go up (the storage
    // modules close after this one); then the uploads stop, and the spool keeps what is left.
    await Promise.all([...recorders.values()].map((recorder) => recorder.stop()));
    recorders.clear();
    await uploader.drain(DRAIN_ON_CLOSE_MS);
    await uploader.close();
  });
}

/** The API's login, for asking the relay's own API (a snapshot is what /api/frame.jpeg answers). */
function apiCredentials(ctx: EngineContext) {
  const { username, password } = ctx.settings.api;
  return username ? { credentials: { username, password: password ?? '' } } : {};
}

/** Where a recording's segments live: its storage account (by id or name), a client, the bucket and prefix. */
function storagePlaces(storage: StorageAccounts) {
  const accountOf = async (account: string) => {
    const accounts = await storage.listAccounts();
    const found = accounts.find((a) => a.id === account) ?? accounts.find((a) => a.name === account);
    if (!found)
      throw new ContractFailure(
        'not_found',
        `there is no storage account ${account}: recordings name one by its id or name (local is the embedded emulator, when it runs)`,
      );
    return found;
  };
  const clientFor = async (account: string) => storage.clientFor((await accountOf(account)).id);
  const placeOf = async (settings: RecordingSettings): Promise<SegmentPlace> => ({
    client: await clientFor(settings.account),
    account: settings.account,
    bucket: settings.bucket,
    prefix: settings.prefix,
  });
  return { accountOf, clientFor, placeOf };
}

/** What the console shows of one recording: the recorder's state, its uploads and its last segment. */
function statusOf(recorder: StreamRecorder, uploader: SegmentUploader, last: RecordedSegmentInfo | undefined): RecordingStatus {
  const { settings } = recorder;
  const uploads = uploader.state(settings.stream);
  return {
    stream: settings.stream,
    ...recorder.status(),
    schedule: settings.schedule.kind,
    account: settings.account,
    bucket: settings.bucket,
    prefix: settings.prefix,
    spooled: uploads.spooled,
    spooledBytes: uploads.spooledBytes,
    uploaded: uploads.uploaded,
    dropped: uploads.dropped,
    ...(uploads.error ? { uploadError: uploads.error, failingSinceMs: uploads.failingSince } : {}),
    ...(last ? { lastSegment: last } : {}),
  };
}

/**
 * Readies a recording's bucket before its first upload (created in the local emulator, the
 * retention rule on the prefix): once per bucket and retention as the config says them now, so
 * a changed retain_days is saved again.
 */
function bucketPreparer(
  settingsOf: (stream: string) => RecordingSettings | undefined,
  accountOf: ReturnType<typeof storagePlaces>['accountOf'],
  log: ReturnType<EngineContext['logger']['child']>,
): UploaderDeps['prepare'] {
  const prepared = new Set<string>();
  return async (target: UploadTarget, client) => {
    const current = settingsOf(target.stream);
    const same = current && current.account === target.account && current.bucket === target.bucket;
    const wanted = {
      stream: target.stream,
      account: target.account,
      bucket: target.bucket,
      prefix: current?.prefix ?? '',
      retain_days: same ? current.retain_days : undefined,
    };
    const key = JSON.stringify(wanted);
    if (prepared.has(key)) return;
    const account = await accountOf(target.account);
    await prepareBucket(client, wanted, { local: account.kind === 'emulator', logger: log });
    prepared.add(key);
  };
}
