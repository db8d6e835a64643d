import { describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../platform/logger';
import type { Consumer } from './consumer';
import type { Media } from './media';
import type { ProducerConnection } from './producer';
import type { RtpPacket } from './rtp-packet';
import { createSchemeRegistry } from './scheme-registry';
import { redactSource } from './redact-source';
import { Stream } from './stream';

const video: Media = { kind: 'video', direction: 'recvonly', codecs: [{ name: 'H264', clockRate: 90000, payloadType: 96 }] };
const audio: Media = { kind: 'audio', direction: 'recvonly', codecs: [{ name: 'PCMA', clockRate: 8000, payloadType: 8 }] };

/** An in-memory source per URL: records dials and closes, and lets the test push packets. */
function fakeSources(medias: Record<string, Media[]>) {
  const log: string[] = [];
  const sinks = new Map<string, (i: number, p: RtpPacket) => void>();
  const schemes = createSchemeRegistry();
  schemes.register('fake', {
    dial: async (url) => {
      log.push(`dial ${url}`);
      let end!: (e?: Error) => void;
      const connection: ProducerConnection = {
        medias: medias[url]!,
        closed: new Promise((r) => (end = r)),
        start: (sink) => void sinks.set(url, sink),
        close: () => {
          log.push(`close ${url}`);
          sinks.delete(url);
          end();
        },
        info: () => ({ url }),
      };
      return connection;
    },
  });
  return { schemes, log, sinks };
}

const consumerOf = (kinds: Array<'video' | 'audio'>) => {
  const got: number[] = [];
  const consumer: Consumer = {
    requests: kinds.map((kind) => ({ kind, codecs: ['ANY'] })),
    attach: () => ({ write: (p) => (got.push(p.sequenceNumber), true), onDrain: () => undefined }),
    info: () => ({}),
    close: () => undefined,
  };
  return { consumer, got };
};

const packet = (seq: number): RtpPacket => ({
  marker: true,
  payloadType: 8,
  sequenceNumber: seq,
  timestamp: seq * 160,
  ssrc: 1,
  payload: new Uint8Array([1, 2]),
});

describe('stream', () => {
  const options = (schemes: ReturnType<typeof createSchemeRegistry>, sources: string[]) => ({
    name: 'door',
    sources,
    schemes,
    logger: createMemoryLogger(),
    track: {
      nextId: (() => {
        let n = 0;
        return () => ++n;
      })(),
    },
  });

  it('dials the sources in order and stops at the first that has what the consumer asked for, as go2rtc does', async () => {
    const { schemes, log } = fakeSources({ 'fake://cam': [video], 'fake://mic': [audio] });
    const stream = new Stream(options(schemes, ['fake://cam', 'fake://mic']));
    await stream.addConsumer(consumerOf(['video']).consumer);
    // The camera has the video: the second source is never started.
    expect(log).toEqual(['dial fake://cam']);
    // A consumer that wants audio too starts the next source, for the audio only.
    const both = consumerOf(['video', 'audio']);
    await stream.addConsumer(both.consumer);
    expect(log).toEqual(['dial fake://cam', 'dial fake://mic']);
    expect(stream.info().producers.map((p) => p.url)).toEqual(['fake://cam', 'fake://mic']);
    stream.close();
  });

  it('gives back the connection of a source it dialed but did not choose', async () => {
    // Home Assistant's stream: the camera, then ffmpeg making Opus of it, then MJPEG of it.
    const { schemes, log } = fakeSources({ 'fake://cam': [video], 'fake://mjpeg': [video], 'fake://opus': [audio] });
    const stream = new Stream(options(schemes, ['fake://cam', 'fake://mjpeg', 'fake://opus']));
    await stream.addConsumer(consumerOf(['video', 'audio']).consumer);
    // The audio was still missing after the camera, so the next sources were dialed in turn; the
    // one that added nothing hangs up.
    expect(log).toEqual(['dial fake://cam', 'dial fake://mjpeg', 'dial fake://opus', 'close fake://mjpeg']);
    stream.close();
  });

  it('tries a failing source once and goes on to the next at once; only the last one gets the retries', async () => {
    const attempts: string[] = [];
    const { schemes } = fakeSources({ 'fake://backup': [video] });
    schemes.register('down', {
      dial: async (url) => {
        attempts.push(url);
        throw new Error('connect ETIMEDOUT');
      },
    });
    const stream = new Stream({ ...options(schemes, ['down://cam', 'fake://backup']), firstDialBudgetMs: 60_000 });
    // Retries within the 60 s budget would outlast the test's time: the backup plays at once.
    await stream.addConsumer(consumerOf(['video']).consumer);
    expect(attempts).toEqual(['down://cam']);
    stream.close();
  });

  it('leaves nothing attached when an output cannot take one of the tracks it asked for', async () => {
    const { schemes, log, sinks } = fakeSources({ 'fake://cam': [video, audio] });
    const stream = new Stream(options(schemes, ['fake://cam']));
    const fussy = consumerOf(['video', 'audio']);
    let attached = 0;
    fussy.consumer.attach = () => {
      if (attached++ === 1) throw new Error('no depacketizer for PCMA');
      return { write: (p) => (fussy.got.push(p.sequenceNumber), true), onDrain: () => undefined };
    };
    await expect(stream.addConsumer(fussy.consumer)).rejects.toThrow(/no depacketizer for PCMA/);
    expect(stream.info().consumers).toEqual([]);
    expect(log).toEqual(['dial fake://cam', 'close fake://cam']);
    expect(sinks.size).toBe(0);
    stream.close();
  });

  it('starts lazily, stops after the last consumer, and dials again for the next one', async () => {
    const { schemes, log, sinks } = fakeSources({ 'fake://mic': [audio] });
    const stream = new Stream(options(schemes, ['fake://mic']));
    expect(log).toEqual([]);
    const first = consumerOf(['audio']);
    await stream.addConsumer(first.consumer);
    sinks.get('fake://mic')!(0, packet(1));
    expect(first.got).toEqual([1]);
    stream.removeConsumer(first.consumer);
    expect(log).toEqual(['dial fake://mic', 'close fake://mic']);
    const second = consumerOf(['audio']);
    await stream.addConsumer(second.consumer);
    await vi.waitFor(() => expect(sinks.has('fake://mic')).toBe(true)); // the source started again
    sinks.get('fake://mic')!(0, packet(2));
    expect(second.got).toEqual([2]);
    expect(log).toEqual(['dial fake://mic', 'close fake://mic', 'dial fake://mic']);
    stream.close();
    expect(log.at(-1)).toBe('close fake://mic');
  });

  it('fails a consumer with the offer and the request when nothing matches', async () => {
    const { schemes } = fakeSources({ 'fake://mic': [audio] });
    const stream = new Stream(options(schemes, ['fake://mic']));
    await expect(stream.addConsumer(consumerOf(['video']).consumer)).rejects.toThrow(
      'the source has audio PCMA; this output accepts video any codec',
    );
    stream.close();
  });
});

describe('redactSource', () => {
  it('masks credentials of every URL in a source, also inside an expression', () => {
    expect(redactSource('rtsp://admin:pw@10.0.0.2/live')).toBe('rtsp://***@10.0.0.2/live');
    expect(redactSource('expr: fetch("http://u:secret@cam/token").text + "rtsp://a:b@cam/x"')).toBe(
      'expr: fetch("http://***@cam/token").text + "rtsp://***@cam/x"',
    );
    expect(redactSource('ffmpeg:door#video=h264')).toBe('ffmpeg:door#video=h264');
  });
});
