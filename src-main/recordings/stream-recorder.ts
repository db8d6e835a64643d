import type { Logger } from '../platform/logger';
import { CodecMismatchError, type MediaRequest } from '../relay/core/negotiation';
import type { StreamRegistry } from '../relay/core/stream-registry';
import type { Stream } from '../relay/core/stream';
import type { TaskRegistry } from '../relay/core/task-registry';
import { createFrameConsumer, type FrameConsumer } from '../relay/media/frames/frame-consumer';
import { createRecordingRun, type RecordingRun } from './recording-run';
import type { RecordingWindowStatus } from '@shared/contract/recordings';
import type { CalendarFeed } from './calendar-feed';
import { planAt } from './recorder-plan';
import type { RecordingSettings } from './recordings-config';
import type { SpoolEntry, Spool } from './spool';

/** What a recording takes as it comes: H.264/H.265 video, AAC/Opus audio, G.711 (kept as FLAC, as stream.mp4 does). */
const RECORDING_REQUESTS: MediaRequest[] = [
  { kind: 'video', codecs: ['H264', 'H265'] },
  { kind: 'audio', codecs: ['MPEG4-GENERIC', 'OPUS', 'PCMA', 'PCMU'] },
];

/**
 * `off`: outside the schedule; `waiting`: wanted, but the stream or its source is not there
 * (tried again); `recording`: attached to the stream; `error`: cannot record as configured;
 * `inactive`: a schedule that cannot run (`calendar` with no calendar to follow).
 */
type RecorderState = 'off' | 'waiting' | 'recording' | 'error' | 'inactive';

interface RecorderStatus {
  state: RecorderState;
  message?: string;
  /** When the schedule changes the state next (ms). */
  nextChangeMs?: number;
  /** `schedule: calendar`: the window recording now or the next one. */
  calendarWindow?: RecordingWindowStatus;
}

export interface StreamRecorderDeps {
  streams: StreamRegistry;
  tasks: TaskRegistry;
  spool: Spool;
  logger: Logger;
  timeZone: string;
  /** The synced calendar, for `schedule: calendar` (undefined: there is none, the stream stays inactive). */
  calendar?: CalendarFeed;
  onSpooled(entry: SpoolEntry): void;
  onChange(): void;
  /** How long before trying again when the stream or its source is away (default 5 s). */
  retryMs?: number;
}

export interface StreamRecorder {
  readonly settings: RecordingSettings;
  status(): RecorderStatus;
  /** Closes the open segment (into the spool) and lets go of the stream. */
  stop(): Promise<void>;
}

/** The schedule's part of the status. */
type Planned = Pick<RecorderStatus, 'nextChangeMs' | 'calendarWindow'>;

const plannedOf = (plan: { until?: number; window?: RecordingWindowStatus }): Planned => ({
  ...(plan.until !== undefined ? { nextChangeMs: plan.until } : {}),
  ...(plan.window ? { calendarWindow: plan.window } : {}),
});

/** Tried again this long after the stream was missing, its source down, or the relay closed us. */
const RETRY_MS = 5_000;
/** A source silent this long has its open segment closed (it goes up while the source is away). */
const QUIET_MS = 5_000;
/** The schedule is looked at again at least this often (a clock change, a long sleep). */
const LONGEST_WAIT_MS = 3_600_000;

/**
 * One stream's recording: follows its schedule, attaches a frame consumer to the stream while
 * recording is wanted (the GOP cache comes first, so a window's first segment starts at the
 * cached keyframe), and keeps trying while the stream or its source is away.
 */
export function createStreamRecorder(settings: RecordingSettings, deps: StreamRecorderDeps): StreamRecorder {
  const name = settings.stream;
  const log = deps.logger;
  let status: Omit<RecorderStatus, keyof Planned> = { state: 'off' };
  let planned: Planned = {};
  let wanted = false;
  let stopped = false;
  let scheduleTimer: NodeJS.Timeout | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  let attached: { stream: Stream; consumer: FrameConsumer; untrack: () => void } | undefined;
  let attaching = false;
  let run: RecordingRun | undefined;
  let ending: Promise<void> = Promise.resolve();

  const set = (next: Omit<RecorderStatus, keyof Planned>) => {
    status = next;
    deps.onChange();
  };

  function endRun(): Promise<void> {
    const closing = run;
    run = undefined;
    if (closing) ending = ending.then(() => closing.end());
    return ending;
  }

  const quiet = setInterval(() => {
    if (run && Date.now() - run.lastFrameAt > QUIET_MS) {
      log.info('recording: the source sent nothing for a while; its open segment is closed', { stream: name });
      void endRun();
    }
  }, 1_000);
  quiet.unref();

  function retryLater(): void {
    clearTimeout(retryTimer);
    retryTimer = setTimeout(() => {
      retryTimer = undefined;
      if (wanted && !attached && !stopped) void attach();
    }, deps.retryMs ?? RETRY_MS);
    retryTimer.unref();
  }

  function onFrame(consumer: FrameConsumer, track: FrameConsumer['tracks'][number], frame: Parameters<RecordingRun['push']>[1]): void {
    if (attached?.consumer !== consumer) return;
    if (run && !run.matches(track)) void endRun();
    run ??= createRecordingRun(consumer.tracks, {
      settings,
      spool: deps.spool,
      onSpooled: deps.onSpooled,
      onSpoolError: (error) => {
        log.error('recording: a segment could not be written to the spool', { stream: name, error: error.message });
        set({ state: 'error', message: `the spool in data_dir cannot be written: ${error.message}` });
      },
    });
    run.push(track, frame, Date.now());
  }

  async function attach(): Promise<void> {
    if (attaching || attached || stopped) return;
    const stream = deps.streams.get(name);
    if (!stream) {
      set({ state: 'waiting', message: `there is no stream ${name} in streams: (recording starts when it is added)` });
      return retryLater();
    }
    attaching = true;
    const consumer: FrameConsumer = createFrameConsumer({
      requests: RECORDING_REQUESTS,
      label: { format_name: 'recording', protocol: 'kodo', remote_addr: `${settings.account}/${settings.bucket}/${settings.prefix}` },
      onFrame: (track, frame) => onFrame(consumer, track, frame),
      onClose: (reason) => {
        if (attached?.consumer !== consumer) return;
        detach();
        log.info('recording: the relay closed the stream; attaching again', { stream: name, reason });
        set({ state: 'waiting', message: `the stream ended (${reason}); trying again` });
        if (wanted) retryLater();
      },
    });
    attached = { stream, consumer, untrack: deps.tasks.add('consumer', `recording ${name}`) };
    try {
      await stream.addConsumer(consumer);
      if (!wanted || stopped || attached?.consumer !== consumer) return void stream.removeConsumer(consumer);
      set({ state: 'recording' });
    } catch (error) {
      detach();
      const message = (error as Error).message;
      const fatal = error instanceof CodecMismatchError;
      set({
        state: fatal ? 'error' : 'waiting',
        message: fatal ? `the stream has nothing a recording takes (H.264/H.265 video, AAC/Opus/G.711 audio): ${message}` : message,
      });
      retryLater();
    } finally {
      attaching = false;
    }
  }

  function detach(): void {
    void endRun();
    if (!attached) return;
    attached.stream.removeConsumer(attached.consumer);
    attached.untrack();
    attached = undefined;
  }

  function evaluate(): void {
    clearTimeout(scheduleTimer);
    if (stopped) return;
    const now = Date.now();
    const plan = planAt(settings, now, { timeZone: deps.timeZone, calendar: deps.calendar });
    if ('inactive' in plan) {
      // Said once in the log; the status keeps saying it.
      if (status.state !== 'inactive') log.warn(`recordings.${name}: ${plan.inactive}`, { stream: name });
      wanted = false;
      planned = {};
      detach();
      if (status.message !== plan.inactive) set({ state: 'inactive', message: plan.inactive });
      return;
    }
    planned = plannedOf(plan);
    if (plan.recording !== wanted) {
      wanted = plan.recording;
      if (wanted) {
        log.info('recording starts', { stream: name, bucket: settings.bucket, prefix: settings.prefix });
        void attach();
      } else {
        log.info('recording stops: outside its schedule', { stream: name });
        detach();
      }
    }
    if (!wanted && (status.state !== 'off' || status.message !== plan.offMessage))
      set({ state: 'off', ...(plan.offMessage ? { message: plan.offMessage } : {}) });
    else if (settings.schedule.kind === 'calendar') deps.onChange(); // a meeting may have moved: the status shows it
    if (plan.until !== undefined) {
      scheduleTimer = setTimeout(evaluate, Math.max(0, Math.min(LONGEST_WAIT_MS, plan.until - now)));
      scheduleTimer.unref();
    }
  }

  const unfollow = settings.schedule.kind === 'calendar' ? deps.calendar?.onChange(evaluate) : undefined;
  evaluate();
  if (!wanted && status.state === 'off') deps.onChange();

  return {
    settings,
    status: () => ({ ...status, ...planned }),
    async stop() {
      stopped = true;
      unfollow?.();
      wanted = false;
      clearTimeout(scheduleTimer);
      clearTimeout(retryTimer);
      clearInterval(quiet);
      detach();
      await ending;
    },
  };
}
