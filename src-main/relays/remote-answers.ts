import type { CodecInfo, StreamSummary } from '@shared/contract/relay';
import type { RelayHealth } from '@shared/contract/relays';
import { redactSource } from '@main/relay/core/redact-source';

/**
 * What a remote relay answers on `/api` and `/api/streams`, read defensively: the remote may be
 * this app, go2rtc (any release since 1.0) or the go2rtc inside Frigate, or something that only
 * looks like one. Anything off-shape is left out or refused with a RemoteAnswerError, never
 * trusted: these values reach the console and the logs.
 */
export class RemoteAnswerError extends Error {
  override name = 'RemoteAnswerError';
}

/** Caps on what one answer may hold, so a hostile or broken relay cannot fill the console. */
const MAX_STREAMS = 5_000;
const MAX_CONNECTIONS = 256;
const MAX_TEXT = 1_024;
const PRODUCER_STATES = ['idle', 'dialing', 'running', 'waiting', 'closed'] as const;

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
/** Every text a relay sends is shown or logged: any login in it is masked (go2rtc shows its sources' passwords). */
const text = (value: unknown): string | undefined => (typeof value === 'string' ? redactSource(value.slice(0, MAX_TEXT)) : undefined);
// A count past 2^53 is no byte count a relay made; capped, the sums over a relay stay finite.
const count = (value: unknown): number =>
  typeof value === 'number' && Number.isFinite(value) && value > 0 ? Math.min(value, Number.MAX_SAFE_INTEGER) : 0;
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value.slice(0, MAX_CONNECTIONS) : []);
const texts = (value: unknown): string[] =>
  list(value).flatMap((item) => (typeof item === 'string' ? [redactSource(item.slice(0, MAX_TEXT))] : []));

/** go2rtc's receiver codec (`{codec: {codec_name, codec_type, ...}}`) in the contract's shape, or nothing. */
function codecOf(receiver: unknown): CodecInfo[] {
  const codec = isObject(receiver) ? receiver.codec : undefined;
  if (!isObject(codec)) return [];
  const kind = codec.codec_type;
  const name = text(codec.codec_name);
  if ((kind !== 'video' && kind !== 'audio') || !name) return [];
  const positive = (value: unknown) => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : undefined);
  const width = positive(codec.width);
  const height = positive(codec.height);
  const sampleRate = positive(codec.sample_rate);
  const channels = positive(codec.channels);
  const profile = text(codec.profile);
  return [
    {
      kind,
      name,
      ...(profile ? { profile } : {}),
      ...(width && height ? { width, height } : {}),
      ...(sampleRate ? { sampleRate, ...(channels ? { channels } : {}) } : {}),
    },
  ];
}

/** Bytes a connection counted: `bytes_recv`/`bytes_send` since go2rtc 1.8, `recv`/`send` before. */
const bytesIn = (c: Json) => count(c.bytes_recv ?? c.recv);
const bytesOut = (c: Json) => count(c.bytes_send ?? c.send);

function producerOf(value: unknown): StreamSummary['producers'][number] | undefined {
  if (!isObject(value)) return undefined;
  const medias = texts(value.medias);
  const state = PRODUCER_STATES.find((s) => s === value.state) ?? (medias.length > 0 ? 'running' : 'idle');
  const error = text(value.error);
  return {
    // go2rtc names a producer's source `url` (older releases `source` for some): masked either way.
    url: text(value.url) ?? text(value.source) ?? '',
    state,
    medias,
    codecs: list(value.receivers).flatMap(codecOf),
    bytesReceived: bytesIn(value),
    ...(error ? { error } : {}),
  };
}

function consumerOf(value: unknown): StreamSummary['consumers'][number] | undefined {
  if (!isObject(value)) return undefined;
  const drops = list(value.senders).reduce<number>((sum, s) => sum + (isObject(s) ? count(s.drops) : 0), 0);
  return {
    protocol: text(value.protocol) ?? text(value.format_name) ?? 'unknown',
    remote: text(value.remote_addr) ?? '',
    medias: texts(value.medias),
    bytesSent: bytesOut(value),
    drops,
  };
}

const defined = <T>(value: T | undefined): value is T => value !== undefined;

/**
 * `/api/streams` (`{name: {producers: [...], consumers: [...]}}`, lists may be null) as the
 * console's stream summaries, sorted by name. A stream's sources are its producers' URLs,
 * masked: go2rtc lists its configured sources as producers.
 */
export function parseRemoteStreams(json: unknown): StreamSummary[] {
  if (!isObject(json)) throw new RemoteAnswerError('its /api/streams is not a JSON object of streams');
  const names = Object.keys(json);
  if (names.length > MAX_STREAMS) throw new RemoteAnswerError(`its /api/streams lists more than ${MAX_STREAMS} streams`);
  const streams: StreamSummary[] = [];
  for (const name of names.sort()) {
    const value = json[name];
    if (name === '' || name.length > MAX_TEXT || (value !== null && !isObject(value))) continue;
    const producers = list(value?.producers).map(producerOf).filter(defined);
    const consumers = list(value?.consumers).map(consumerOf).filter(defined);
    // go2rtc names a temporary stream by its URL, login included.
    streams.push({ name: redactSource(name), sources: producers.map((p) => p.url).filter((url) => url !== ''), producers, consumers });
  }
  return streams;
}

/** The parts of `/api` the console shows and the relay:// dialer needs. */
export interface RemoteInfo {
  version?: string;
  uptimeSeconds?: number;
  /** Absent when `rtsp.listen` is empty (its RTSP server is off); 8554 when `/api` does not say. */
  rtspPort?: number;
}

const DEFAULT_RTSP_PORT = 8554;

/** `rtsp.listen` of go2rtc (`:8554`, `0.0.0.0:8554`, `[::]:8554`, empty when off). */
function rtspPortOf(rtsp: unknown): number | undefined {
  if (!isObject(rtsp) || !('listen' in rtsp)) return DEFAULT_RTSP_PORT;
  const listen = rtsp.listen;
  if (typeof listen !== 'string') return DEFAULT_RTSP_PORT;
  if (listen.trim() === '') return undefined;
  const match = /:(\d{1,5})$/.exec(listen.trim());
  const port = match ? Number(match[1]) : NaN;
  return port > 0 && port < 65_536 ? port : DEFAULT_RTSP_PORT;
}

/** go2rtc's `/api`: `{version, config_path, host, rtsp: {listen, default_query}, ...}`. */
export function parseRemoteInfo(json: unknown): RemoteInfo {
  if (!isObject(json)) throw new RemoteAnswerError('its /api is not a JSON object');
  const version = text(json.version);
  const uptime = json.uptime_seconds ?? json.uptime;
  const port = rtspPortOf(json.rtsp);
  return {
    ...(version ? { version } : {}),
    ...(typeof uptime === 'number' && Number.isFinite(uptime) && uptime >= 0 ? { uptimeSeconds: uptime } : {}),
    ...(port ? { rtspPort: port } : {}),
  };
}

/** The relay's health: what `/api` says of it and the counts and bytes of its streams. */
export function relayHealth(info: RemoteInfo, streams: readonly StreamSummary[]): RelayHealth {
  let producers = 0;
  let consumers = 0;
  let bytesInSum = 0;
  let bytesOutSum = 0;
  for (const stream of streams) {
    producers += stream.producers.length;
    consumers += stream.consumers.length;
    for (const p of stream.producers) bytesInSum += p.bytesReceived;
    for (const c of stream.consumers) bytesOutSum += c.bytesSent;
  }
  return {
    ...(info.version ? { version: info.version } : {}),
    ...(info.uptimeSeconds !== undefined ? { uptimeSeconds: info.uptimeSeconds } : {}),
    streams: streams.length,
    producers,
    consumers,
    bytesIn: bytesInSum,
    bytesOut: bytesOutSum,
    ...(info.rtspPort ? { rtspPort: info.rtspPort } : {}),
  };
}

/** A probe's answer (`GET /api/streams?src=<name>&video=all&audio=all`): the medias its producers found. */
export function probedMedias(json: unknown): { medias: string[]; error?: string } {
  if (!isObject(json)) throw new RemoteAnswerError('its probe answer is not a JSON object');
  const producers = list(json.producers).map(producerOf).filter(defined);
  const medias = producers.flatMap((p) => p.medias);
  const error = producers.find((p) => p.error)?.error;
  return { medias, ...(error ? { error } : medias.length === 0 ? { error: 'the source answered with no media' } : {}) };
}
