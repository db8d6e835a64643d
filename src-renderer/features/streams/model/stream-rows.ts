import type { CodecInfo, StreamSummary } from '@shared/contract/relay';
import { LOCAL_RELAY, remoteStreamSource, type RelayInfo, type RelayStreams } from '@shared/contract/relays';
import { formatResolution } from '@renderer/ui/format';

/** What a stream is doing, as the list shows it: one word and a colour, the reason on hover. */
export type StreamState = 'live' | 'connecting' | 'error' | 'on demand' | 'no source';

export interface StreamRow {
  /** The stream's name on the embedded relay, `relay://<relay>/<stream>` for a remote relay's. */
  id: string;
  /** `local`, or the remote relay it is on. */
  relay: string;
  /** Its name on its relay. */
  name: string;
  /** How actions name it: "door", or "yard on north". */
  label: string;
  /** Its relay's state in words, while that relay is not reachable ("unreachable since 10:04: refused"). */
  relayProblem?: string;
  state: StreamState;
  /** The first producer error, when the stream has no working producer. */
  problem?: string;
  codecs: string;
  consumers: number;
  bytesIn: number;
  bytesOut: number;
}

const SAMPLE_RATE = (hz: number) => (hz % 1000 === 0 ? `${hz / 1000} kHz` : `${(hz / 1000).toFixed(1)} kHz`);
const CHANNELS: Record<number, string> = { 1: 'mono', 2: 'stereo' };

/** `H264 1280×720`, `AAC 44.1 kHz stereo`, `PCMA 8 kHz`. */
export function describeCodec(codec: CodecInfo): string {
  const parts = [codec.name.toUpperCase()];
  const size = formatResolution(codec.width, codec.height);
  if (size) parts.push(size);
  if (codec.sampleRate) parts.push(SAMPLE_RATE(codec.sampleRate));
  if (codec.channels && codec.kind === 'audio') parts.push(CHANNELS[codec.channels] ?? `${codec.channels} ch`);
  return parts.join(' ');
}

/**
 * A stream's state from its producers. go2rtc dials a source only while someone watches, so a
 * stream with no viewers and no error is "on demand", not broken.
 */
export function streamState(stream: StreamSummary): { state: StreamState; problem?: string } {
  const { producers } = stream;
  if (producers.length === 0) return { state: 'no source' };
  if (producers.some((p) => p.state === 'running' && p.medias.length > 0)) return { state: 'live' };
  const problem = producers.find((p) => p.error)?.error;
  if (producers.some((p) => p.state === 'dialing' || (p.state === 'waiting' && !p.error)))
    return { state: 'connecting', ...(problem ? { problem } : {}) };
  if (problem) return { state: 'error', problem };
  return { state: 'on demand' };
}

/** A stream of the embedded relay (no `relay`) or of a remote one, as a row of the list. */
export function streamRow(stream: StreamSummary, relay: string = LOCAL_RELAY): StreamRow {
  const codecs = stream.producers.flatMap((p) => p.codecs).map(describeCodec);
  const local = relay === LOCAL_RELAY;
  return {
    id: local ? stream.name : remoteStreamSource(relay, stream.name),
    relay,
    name: stream.name,
    label: local ? stream.name : `${stream.name} on ${relay}`,
    ...streamState(stream),
    codecs: [...new Set(codecs)].join(', '),
    consumers: stream.consumers.length,
    bytesIn: stream.producers.reduce((sum, p) => sum + p.bytesReceived, 0),
    bytesOut: stream.consumers.reduce((sum, c) => sum + c.bytesSent, 0),
  };
}

/**
 * Every row: the embedded relay's streams, then each remote relay's; the rows of a relay that is
 * not reachable (its last known streams) say so through `relayProblem`.
 */
export function allStreamRows(
  local: readonly StreamSummary[],
  remote: readonly RelayStreams[],
  relays: readonly RelayInfo[],
  stateText: (relay: RelayInfo) => string,
): StreamRow[] {
  const byName = new Map(relays.map((relay) => [relay.name, relay]));
  const remoteRows = remote.flatMap((entry) => {
    const relay = byName.get(entry.relay);
    const problem = relay && relay.state !== 'reachable' ? { relayProblem: stateText(relay) } : {};
    return entry.streams.map((stream) => ({ ...streamRow(stream, entry.relay), ...problem }));
  });
  // A local stream named `relay://…` is the embedded relay pulling that remote stream for a
  // viewer here (a source used as a name, as go2rtc lists it): the row is the remote stream's.
  const remoteIds = new Set(remoteRows.map((row) => row.id));
  return [...local.filter((stream) => !remoteIds.has(stream.name)).map((stream) => streamRow(stream)), ...remoteRows];
}

/** Case-insensitive match on name, relay, codecs and state (what the filter box searches), within one relay unless `all`. */
export function matchesFilter(row: StreamRow, filter: string, relay = 'all'): boolean {
  if (relay !== 'all' && row.relay !== relay) return false;
  const needle = filter.trim().toLowerCase();
  if (!needle) return true;
  return [row.name, row.relay, row.codecs, row.state].some((text) => text.toLowerCase().includes(needle));
}
