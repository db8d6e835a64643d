import { describe, expect, it } from 'vitest';
import type { StreamSummary } from '@shared/contract/relay';
import type { RelayInfo } from '@shared/contract/relays';
import { allStreamRows, describeCodec, matchesFilter, streamRow, streamState } from './stream-rows';

type Producer = StreamSummary['producers'][number];
const producer = (over: Partial<Producer>): Producer => ({
  url: 'rtsp://cam/1',
  state: 'idle',
  medias: [],
  codecs: [],
  bytesReceived: 0,
  ...over,
});
const stream = (producers: Producer[], consumers: StreamSummary['consumers'] = []): StreamSummary => ({
  name: 'door',
  sources: producers.map((p) => p.url),
  producers,
  consumers,
});

describe('stream rows', () => {
  it('describes codecs the way a camera datasheet does', () => {
    expect(describeCodec({ kind: 'video', name: 'h264', width: 1280, height: 720 })).toBe('H264 1280×720');
    expect(describeCodec({ kind: 'audio', name: 'aac', sampleRate: 44100, channels: 2 })).toBe('AAC 44.1 kHz stereo');
    expect(describeCodec({ kind: 'audio', name: 'pcma', sampleRate: 8000, channels: 1 })).toBe('PCMA 8 kHz mono');
  });

  it('tells live, connecting, failing, on-demand and empty streams apart', () => {
    expect(streamState(stream([]))).toEqual({ state: 'no source' });
    expect(streamState(stream([producer({})]))).toEqual({ state: 'on demand' });
    expect(streamState(stream([producer({ state: 'dialing' })]))).toEqual({ state: 'connecting' });
    expect(streamState(stream([producer({ state: 'waiting', error: 'dial tcp: refused' })]))).toEqual({
      state: 'error',
      problem: 'dial tcp: refused',
    });
    expect(streamState(stream([producer({ error: 'timeout' }), producer({ state: 'running', medias: ['video'] })]))).toEqual({
      state: 'live',
    });
  });

  it('sums bytes and lists each codec once', () => {
    const h264 = { kind: 'video' as const, name: 'h264', width: 320, height: 240 };
    const row = streamRow(
      stream(
        [
          producer({ state: 'running', medias: ['video'], codecs: [h264], bytesReceived: 1000 }),
          producer({ codecs: [h264], bytesReceived: 24 }),
        ],
        [
          { protocol: 'rtsp', remote: '127.0.0.1:5000', medias: [], bytesSent: 10, drops: 0 },
          { protocol: 'mse', remote: '127.0.0.1:5001', medias: [], bytesSent: 5, drops: 2 },
        ],
      ),
    );
    expect(row).toEqual({
      id: 'door',
      relay: 'local',
      name: 'door',
      label: 'door',
      state: 'live',
      codecs: 'H264 320×240',
      consumers: 2,
      bytesIn: 1024,
      bytesOut: 15,
    });
    expect(matchesFilter(row, 'H264')).toBe(true);
    expect(matchesFilter(row, ' live ')).toBe(true);
    expect(matchesFilter(row, 'yard')).toBe(false);
  });

  it('lists every relay’s streams, a remote one by its relay:// id, and says when its relay is away', () => {
    const relays: RelayInfo[] = [
      { name: 'north', url: 'http://n:1984', hasLogin: false, origin: 'console', state: 'unreachable', reason: 'refused', sinceMs: 1 },
      { name: 'south', url: 'http://s:1984', hasLogin: false, origin: 'config', state: 'reachable', sinceMs: 1 },
    ];
    const yard = { ...stream([]), name: 'yard' };
    // The embedded relay's pull of north's yard for a viewer here is listed under its source.
    const pulled = { ...stream([]), name: 'relay://north/yard' };
    const rows = allStreamRows(
      [stream([]), pulled],
      [
        { relay: 'north', streams: [yard] },
        { relay: 'south', streams: [yard] },
      ],
      relays,
      (relay) => `${relay.state}: ${relay.reason}`,
    );
    expect(rows.map((row) => [row.id, row.relay, row.label, row.relayProblem])).toEqual([
      ['door', 'local', 'door', undefined],
      ['relay://north/yard', 'north', 'yard on north', 'unreachable: refused'],
      ['relay://south/yard', 'south', 'yard on south', undefined],
    ]);
    expect(rows.filter((row) => matchesFilter(row, '', 'south')).map((row) => row.id)).toEqual(['relay://south/yard']);
    expect(rows.filter((row) => matchesFilter(row, 'north')).map((row) => row.id)).toEqual(['relay://north/yard']);
    expect(rows.filter((row) => matchesFilter(row, 'yard', 'local'))).toEqual([]);
  });
});
