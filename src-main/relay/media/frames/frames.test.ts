import { describe, expect, it } from 'vitest';
import { createMemoryLogger } from '@main/platform/logger';
import { createSchemeRegistry } from '../../core/scheme-registry';
import { createStreamRegistry } from '../../core/stream-registry';
import { createTaskRegistry } from '../../core/task-registry';
import type { MediaFrame } from '../../core/media';
import { toAvcc } from '../codecs/h264/nal';
import { aacCodec, audioSpecificConfigFromAdts, h264Codec } from './codec-description';
import { createFrameProducer } from './frame-producer';
import { attachFrameOutput } from './attach-output';
import { createTimestampUnwrapper } from './timestamp-unwrapper';

// An SPS and PPS of libx264 (640x360, High profile), and slices large enough to be fragmented.
const sps = Buffer.from('Z2QAHqzZQKAv+WEAAAMAAQAAAwAyDxYtlg==', 'base64');
const pps = Buffer.from('aOvjyyLA', 'base64');
const idr = new Uint8Array(5000).fill(0xab);
idr[0] = 0x65;
const slice = new Uint8Array(300).fill(0xcd);
slice[0] = 0x41;

function setup() {
  const tasks = createTaskRegistry();
  const streams = createStreamRegistry({ schemes: createSchemeRegistry(), logger: createMemoryLogger(), tasks });
  return { tasks, streams };
}

describe('frames: producer to consumer through a stream', () => {
  it('hands an output the cached keyframe first, then live frames, byte for byte', async () => {
    const { tasks, streams } = setup();
    const stream = streams.set('cam', []);
    const asc = Uint8Array.of(0x11, 0x90); // AAC-LC 48 kHz stereo
    const producer = createFrameProducer({
      tracks: [
        { kind: 'video', codec: h264Codec(sps, pps) },
        { kind: 'audio', codec: aacCodec(asc) },
      ],
      label: { format_name: 'test' },
    });
    stream.addPushed('test://upload', producer.connection);

    const got: Array<{ kind: string; frame: MediaFrame }> = [];
    // The first output starts the producer; the keyframe pushed after that fills the GOP cache.
    const first = await attachFrameOutput(
      { streams, tasks, callersAuthenticated: false },
      { src: 'cam', format: 'test', requests: [{ kind: 'video', codecs: ['H264'] }], onFrame: () => undefined, onClose: () => undefined },
    );
    producer.push(0, { codec: 'H264', timestamp: 1000, keyframe: true, data: toAvcc([sps, pps, idr]) });
    producer.push(0, { codec: 'H264', timestamp: 4600, keyframe: false, data: toAvcc([slice]) });

    const second = await attachFrameOutput(
      { streams, tasks, callersAuthenticated: false },
      {
        src: 'cam',
        format: 'test',
        requests: [
          { kind: 'video', codecs: ['H264'] },
          { kind: 'audio', codecs: ['MPEG4-GENERIC'] },
        ],
        onFrame: (track, frame) => got.push({ kind: track.kind, frame }),
        onClose: () => undefined,
      },
    );
    expect(second.consumer.tracks.map((t) => t.codec.name)).toEqual(['H264', 'MPEG4-GENERIC']);
    // The cached GOP (the keyframe and what followed it) arrives at once, before any new frame.
    expect(got.map((g) => g.frame.timestamp)).toEqual([1000, 4600]);
    expect(got[0]!.frame.keyframe).toBe(true);
    expect(Buffer.from(got[0]!.frame.data).equals(Buffer.from(toAvcc([sps, pps, idr])))).toBe(true);

    producer.push(1, { codec: 'MPEG4-GENERIC', timestamp: 2048, keyframe: true, data: Uint8Array.of(1, 2, 3) });
    producer.push(0, { codec: 'H264', timestamp: 8200, keyframe: false, data: toAvcc([slice]) });
    producer.push(0, { codec: 'H264', timestamp: 11800, keyframe: false, data: toAvcc([slice]) });
    expect(got.map((g) => `${g.kind}@${g.frame.timestamp}`)).toEqual([
      'video@1000',
      'video@4600',
      'audio@2048',
      'video@8200',
      'video@11800',
    ]);
    expect(Buffer.from(got[3]!.frame.data).equals(Buffer.from(toAvcc([slice])))).toBe(true);

    first.release();
    second.release();
    expect(tasks.count('consumer')).toBe(0);
    producer.end();
    streams.close();
  });

  it('answers 404 for an unknown stream, 400 without src or for a source the API may not run, 503 when nothing answers', async () => {
    const { tasks, streams } = setup();
    const attach = (src: string | null) =>
      attachFrameOutput(
        { streams, tasks, callersAuthenticated: false },
        { src, format: 'test', requests: [], onFrame: () => undefined, onClose: () => undefined },
      );
    await expect(attach(null)).rejects.toMatchObject({ status: 400 });
    await expect(attach('nope')).rejects.toMatchObject({ status: 404, message: 'stream not found: nope' });
    await expect(attach('exec:ffmpeg -i x')).rejects.toMatchObject({ status: 400 });
    streams.set('empty', []);
    await expect(attach('empty')).rejects.toMatchObject({ status: 503 });
    expect(tasks.count('consumer')).toBe(0);
    streams.close();
  });
});

describe('codec descriptions and timestamps', () => {
  it('describes H.264 and AAC as an SDP would', () => {
    expect(h264Codec(sps, pps).fmtp).toBe(
      `packetization-mode=1;sprop-parameter-sets=${sps.toString('base64')},aOvjyyLA;profile-level-id=64001e`,
    );
    const aac = aacCodec(Uint8Array.of(0x11, 0x90));
    expect([aac.clockRate, aac.channels]).toEqual([48000, 2]);
    // ADTS header of AAC-LC 44.1 kHz stereo (as ffmpeg writes it).
    expect(Buffer.from(audioSpecificConfigFromAdts(Uint8Array.of(0xff, 0xf1, 0x50, 0x80, 0x2e, 0x7f, 0xfc))).toString('hex')).toBe('1210');
  });

  it('keeps time growing across the 32-bit wrap, and lets a reordered frame go back', () => {
    const unwrap = createTimestampUnwrapper();
    expect(unwrap(0xffffff00)).toBe(0xffffff00);
    expect(unwrap(0x100)).toBe(0x100000100);
    expect(unwrap(0xfffffff0)).toBe(0xfffffff0);
    expect(unwrap(0x200)).toBe(0x100000200);
  });
});
