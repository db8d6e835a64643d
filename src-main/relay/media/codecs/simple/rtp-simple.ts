import type { MediaFrame } from '@main/relay/core/media';
import type { RtpPacket } from '@main/relay/core/rtp-packet';

/**
 * Codecs whose RTP payload is the frame itself: Opus (RFC 7587), G.711 PCMA/PCMU (RFC 3551; a
 * payload is a run of 8 kHz samples, one byte each) and L16 (big-endian 16-bit samples).
 * Packetizing is the identity too.
 */
export function createPassthroughDepacketizer(codec: 'OPUS' | 'PCMA' | 'PCMU' | 'L16') {
  const stats = { packets: 0, frames: 0, errors: 0 };
  return {
    stats,
    push(packet: RtpPacket): MediaFrame[] {
      stats.packets++;
      if (packet.payload.length === 0) {
        stats.errors++;
        return [];
      }
      stats.frames++;
      return [{ codec, timestamp: packet.timestamp, keyframe: true, data: packet.payload }];
    },
  };
}
