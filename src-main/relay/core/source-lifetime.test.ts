import { describe, expect, it, vi } from 'vitest';
import { createMemoryLogger } from '../../platform/logger';
import type { Consumer } from './consumer';
import type { Codec, Media } from './media';
import type { ProducerConnection } from './producer';
import type { RtpPacket } from './rtp-packet';
import { createSchemeRegistry } from './scheme-registry';
import { Stream } from './stream';

/**
 * The GOP cache lives exactly as long as the source connection that filled it; the track (and
 * the RTP continuity consumers see) outlives it. The camera here is in memory: each dial is a
 * new connection announcing the SDP the test set.
 */
const h264 = (fmtp: string): Media => ({
  kind: 'video',
  direction: 'recvonly',
  codecs: [{ name: 'H264', clockRate: 90000, payloadType: 96, fmtp }],
});
const OLD = 'packetization-mode=1;sprop-parameter-sets=Z0IAHg==,aM4=';
const NEW = 'packetization-mode=1;sprop-parameter-sets=Z0IAKA==,aM4=';

function camera() {
  let medias = [h264(OLD)];
  let sink: ((i: number, p: RtpPacket) => void) | undefined;
  let end: ((error?: Error) => void) | undefined;
  let dials = 0;
  const schemes = createSchemeRegistry();
  schemes.register('cam', {
    dial: async () => {
      dials++;
      const connection: ProducerConnection = {
        medias,
        closed: new Promise((resolve) => (end = resolve)),
        start: (s) => void (sink = s),
        close: () => {
          sink = undefined;
          end?.();
        },
        info: () => ({}),
      };
      return connection;
    },
  });
  return {
    schemes,
    get dials() {
      return dials;
    },
    restartWith: (fmtp: string) => (medias = [h264(fmtp)]),
    /** The camera drops the connection (its viewers still want it: the relay redials). */
    drop: () => end?.(new Error('camera restarted')),
    /** SPS, PPS and IDR of one keyframe, then a P frame; `ssrc` changes with each connection. */
    sendGop(seq: number, ssrc: number) {
      const send = (n: number, ts: number, payload: number[]) =>
        sink!(0, { marker: true, payloadType: 96, sequenceNumber: n, timestamp: ts, ssrc, payload: Uint8Array.from(payload) });
      send(seq, seq * 3600, [0x67, 0x42]);
      send(seq + 1, seq * 3600, [0x68, 0xce]);
      send(seq + 2, seq * 3600, [0x65, 0x88]);
      send(seq + 3, (seq + 1) * 3600, [0x41, 0x9a]);
    },
  };
}

function viewer() {
  const got: RtpPacket[] = [];
  const codecs: Codec[] = [];
  const consumer: Consumer = {
    requests: [{ kind: 'video', codecs: ['H264'] }],
    attach: () => ({ write: (p) => (got.push(p), true), onDrain: () => undefined, onSourceChange: (codec) => void codecs.push(codec) }),
    info: () => ({}),
    close: () => undefined,
  };
  return { consumer, got, codecs };
}

/** One turn of the event loop: the relay has seen the camera's connection end (before its 5 ms redial delay). */
const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

function streamOf(cam: ReturnType<typeof camera>) {
  let id = 0;
  return new Stream({
    name: 'door',
    sources: ['cam://door'],
    schemes: cam.schemes,
    logger: createMemoryLogger(),
    track: { nextId: () => ++id },
    delay: () => 5,
  });
}

describe('the GOP cache and the source connection', () => {
  it('a new viewer of a live source starts at once from the cached GOP', async () => {
    const cam = camera();
    const stream = streamOf(cam);
    const first = viewer();
    await stream.addConsumer(first.consumer);
    cam.sendGop(10, 1);
    const second = viewer();
    await stream.addConsumer(second.consumer);
    expect(second.got.map((p) => p.sequenceNumber)).toEqual([10, 11, 12, 13]);
    stream.close();
  });

  it('an idle stream keeps no picture: the next viewer dials and waits for the new keyframe', async () => {
    const cam = camera();
    const stream = streamOf(cam);
    const first = viewer();
    await stream.addConsumer(first.consumer);
    cam.sendGop(10, 1);
    stream.removeConsumer(first.consumer); // idle: the connection closes
    const track = stream.runnerStates()[0]!.tracks[0]!;
    expect(track.cachedPackets).toBe(0);
    expect(track.connection).toBeUndefined();

    cam.restartWith(NEW);
    const second = viewer();
    await stream.addConsumer(second.consumer);
    expect(cam.dials).toBe(2);
    expect(second.got).toEqual([]); // nothing of the connection before
    cam.sendGop(500, 2);
    expect(second.got.map((p) => p.payload[0])).toEqual([0x67, 0x68, 0x65, 0x41]);
    expect(track.codec.fmtp).toBe(NEW);
    stream.close();
  });

  it('a reconnect keeps RTP continuous for the viewers, drops the cache and tells them the new codec', async () => {
    const cam = camera();
    const stream = streamOf(cam);
    const watching = viewer();
    await stream.addConsumer(watching.consumer);
    cam.sendGop(10, 1);
    const track = stream.runnerStates()[0]!.tracks[0]!;
    const before = track.connection;
    expect(before).toBeDefined();

    cam.restartWith(NEW);
    cam.drop();
    await nextTurn();
    expect(track.cachedPackets).toBe(0);
    expect(track.connection).toBeUndefined();
    await vi.waitFor(() => expect(track.connection).toBeDefined()); // the relay redials
    expect(cam.dials).toBe(2);
    expect(track.connection).not.toBe(before);
    expect(watching.codecs.map((c) => c.fmtp)).toEqual([NEW]);
    expect(stream.runnerStates()[0]!.tracks[0]).toBe(track); // the same track: viewers keep going

    const late = viewer();
    await stream.addConsumer(late.consumer);
    expect(late.got).toEqual([]); // the reconnected source has sent no keyframe yet
    cam.sendGop(500, 2);
    expect(watching.got.map((p) => p.sequenceNumber)).toEqual([10, 11, 12, 13, 14, 15, 16, 17]);
    expect(new Set(watching.got.map((p) => p.ssrc)).size).toBe(1);
    expect(late.got).toHaveLength(4);
    stream.close();
  });
});
