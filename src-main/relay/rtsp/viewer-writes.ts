import type { Socket } from 'node:net';
import { serializeRtpPacket, type RtpPacket } from '../core/rtp-packet';

/**
 * How the RTSP server writes to its TCP viewers, made for many viewers of one camera:
 *
 * - A packet's interleaved frame (`$`, channel, length, RTP) is built once and the same bytes go
 *   to every viewer with that channel and payload type (almost always all of them).
 * - A viewer's socket is corked at its first write of an event-loop turn and uncorked, all
 *   sockets at once, when the turn's I/O is done: the packets of a frame, which arrive together,
 *   leave in one writev per viewer instead of one write each. The wait is within the same turn.
 */
export function createViewerWrites() {
  // Per packet: the frame of the common (channel, payload type), and others if any viewer differs.
  const frames = new WeakMap<RtpPacket, { key: number; frame: Buffer; others?: Map<number, Buffer> }>();
  const corked = new Set<Socket>();
  let flushing = false;

  const uncorkAll = () => {
    flushing = false;
    for (const socket of corked) socket.uncork();
    corked.clear();
  };

  return {
    frame(packet: RtpPacket, channel: number, payloadType: number): Buffer {
      const key = (channel << 8) | payloadType;
      let entry = frames.get(packet);
      if (entry?.key === key) return entry.frame;
      const cached = entry?.others?.get(key);
      if (cached) return cached;
      const frame = serializeRtpPacket(packet, payloadType, packet.ssrc, 4);
      frame[0] = 0x24;
      frame[1] = channel;
      frame.writeUInt16BE(frame.length - 4, 2);
      if (!entry) {
        entry = { key, frame };
        frames.set(packet, entry);
      } else {
        (entry.others ??= new Map()).set(key, frame);
      }
      return frame;
    },

    /** Writes within the current turn's batch; false as `socket.write` says (wait for 'drain'). */
    write(socket: Socket, frame: Buffer): boolean {
      if (!corked.has(socket)) {
        socket.cork();
        corked.add(socket);
        if (!flushing) {
          flushing = true;
          setImmediate(uncorkAll);
        }
      }
      return socket.write(frame);
    },
  };
}

export type ViewerWrites = ReturnType<typeof createViewerWrites>;
