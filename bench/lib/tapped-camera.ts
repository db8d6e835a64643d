import type { ChildProcess } from 'node:child_process';
import { connect, type Socket } from 'node:net';
import { createMemoryLogger } from '../../src-main/platform/logger';
import { serializeRtpPacket } from '../../src-main/relay/core/rtp-packet';
import { createSchemeRegistry } from '../../src-main/relay/core/scheme-registry';
import { createStreamRegistry } from '../../src-main/relay/core/stream-registry';
import { createTaskRegistry } from '../../src-main/relay/core/task-registry';
import { interleavedFrame } from '../../src-main/relay/protocols/rtsp/rtsp-parser';
import { startRtspServer } from '../../src-main/relay/protocols/rtsp/rtsp-server';
import { buildSdp } from '../../src-main/relay/protocols/rtsp/sdp';
import { encodeCameraClip, publishLoopedClip } from './looped-clip';

/**
 * A 720p H264 camera (~2 Mbit/s, 25 fps, a keyframe every 2 s) whose every picture this process
 * hands to the relays itself, noting when: ffmpeg sends a clip encoded beforehand in real time
 * (looped) into a tap in this process, which writes each packet on to every relay it publishes
 * into. An encoder running beside the relays would take most of a core and blur their figures.
 */
export interface TappedCamera {
  /** Publishes the camera into `rtsp://127.0.0.1:<port>/<path>` (ANNOUNCE, SETUP, RECORD over TCP) from now on. */
  publishTo(port: number, path: string): Promise<void>;
  /** Serves the camera on the tap as `path` too, for a peer that pulls it (GStreamer's rtspsrc). */
  serve(path: string): Promise<string>;
  /** Each picture's RTP timestamp and when its last packet went out to the relays (wall clock, ms). */
  pictureSentAt: ReadonlyMap<number, number>;
  close(): Promise<void>;
}

const wallNow = () => performance.timeOrigin + performance.now();
/** The pictures remembered: ten minutes at 25 fps. */
const PICTURES_KEPT = 15_000;

function rtspRequest(socket: Socket, lines: string[], body = ''): Promise<string> {
  return new Promise((resolve) => {
    socket.once('data', (d) => resolve(d.toString()));
    socket.write(lines.join('\r\n') + (body ? `\r\nContent-Length: ${Buffer.byteLength(body)}` : '') + '\r\n\r\n' + body);
  });
}

/** Starts the camera; `dir` holds its clip. */
export async function startTappedCamera(dir: string): Promise<TappedCamera> {
  const clip = await encodeCameraClip(dir);
  const logger = createMemoryLogger('error');
  const tasks = createTaskRegistry();
  const tapStreams = createStreamRegistry({ schemes: createSchemeRegistry(), logger, tasks });
  const tap = await startRtspServer({ host: '127.0.0.1', port: 0, streams: tapStreams, tasks, logger, defaultQuery: 'video' });
  const published = tap.expectPublish('camera', 20_000);
  const ffmpeg: ChildProcess = publishLoopedClip(clip, `rtsp://127.0.0.1:${tap.port}/camera`);
  const source = await published;
  const sdp = buildSdp(
    source.medias.map((m) => ({ kind: m.kind, codec: m.codecs[0]! })),
    { sessionName: 'bench' },
  );
  const outputs: Socket[] = [];
  const pictureSentAt = new Map<number, number>();
  source.start((index, packet) => {
    if (index !== 0) return;
    if (packet.marker) pictureSentAt.set(packet.timestamp, wallNow());
    if (pictureSentAt.size > PICTURES_KEPT) pictureSentAt.delete(pictureSentAt.keys().next().value!);
    const frame = interleavedFrame(0, serializeRtpPacket(packet));
    for (const output of outputs) output.write(frame);
  });

  const publishTo = async (port: number, path: string) => {
    const target = `rtsp://127.0.0.1:${port}/${path}`;
    const socket = connect(port, '127.0.0.1');
    socket.setNoDelay(true);
    await new Promise((r) => socket.once('connect', r));
    await rtspRequest(socket, [`ANNOUNCE ${target} RTSP/1.0`, 'CSeq: 1', 'Content-Type: application/sdp'], sdp);
    await rtspRequest(socket, [
      `SETUP ${target}/trackID=0 RTSP/1.0`,
      'CSeq: 2',
      'Transport: RTP/AVP/TCP;unicast;interleaved=0-1;mode=record',
    ]);
    await rtspRequest(socket, [`RECORD ${target} RTSP/1.0`, 'CSeq: 3']);
    outputs.push(socket);
  };
  return {
    publishTo,
    async serve(path) {
      tapStreams.set(path, []);
      await publishTo(tap.port, path);
      return `rtsp://127.0.0.1:${tap.port}/${path}`;
    },
    pictureSentAt,
    async close() {
      ffmpeg.kill('SIGKILL');
      source.close();
      for (const output of outputs) output.destroy();
      await tap.close();
    },
  };
}
