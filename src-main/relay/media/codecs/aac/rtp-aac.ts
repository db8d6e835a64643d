import type { MediaFrame } from '@main/relay/core/media';
import type { RtpPacket } from '@main/relay/core/rtp-packet';

/**
 * RTP → AAC frames for `MPEG4-GENERIC` in AAC-hbr mode (RFC 3640): a 16-bit AU-headers length
 * in bits, then one 16-bit header per frame (13-bit size, 3-bit index), then the frames.
 * Timestamps advance 1024 samples a frame.
 */
export function createAacDepacketizer() {
  const stats = { packets: 0, frames: 0, errors: 0 };
  return {
    stats,
    push(packet: RtpPacket): MediaFrame[] {
      stats.packets++;
      const p = packet.payload;
      if (p.length < 4) {
        stats.errors++;
        return [];
      }
      const headerBits = (p[0]! << 8) | p[1]!;
      const count = Math.floor(headerBits / 16);
      const headersEnd = 2 + Math.ceil(headerBits / 8);
      if (count === 0 || headersEnd > p.length) {
        stats.errors++;
        return [];
      }
      const frames: MediaFrame[] = [];
      let offset = headersEnd;
      for (let i = 0; i < count; i++) {
        const size = ((p[2 + i * 2]! << 8) | p[3 + i * 2]!) >> 3;
        if (offset + size > p.length) {
          stats.errors++;
          break;
        }
        frames.push({
          codec: 'MPEG4-GENERIC',
          timestamp: (packet.timestamp + i * 1024) >>> 0,
          keyframe: true,
          data: p.subarray(offset, offset + size),
        });
        offset += size;
      }
      stats.frames += frames.length;
      return frames;
    },
  };
}

/** One AAC frame → an AAC-hbr RTP payload (one AU header). */
export function packetizeAac(frame: Uint8Array): Uint8Array {
  if (frame.length >= 8192) throw new RangeError(`AAC frame of ${frame.length} bytes does not fit a 13-bit AU size`);
  const out = new Uint8Array(4 + frame.length);
  out[0] = 0;
  out[1] = 16;
  out[2] = frame.length >> 5;
  out[3] = (frame.length & 0x1f) << 3;
  out.set(frame, 4);
  return out;
}

/** AudioSpecificConfig (the `config=` of the SDP, hex) → object type, sample rate, channels. */
export function parseAudioSpecificConfig(hex: string): { objectType: number; sampleRate: number; channels: number } {
  const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
  if (!/^[0-9a-f]{4,}$/i.test(hex)) throw new Error(`AAC config ${hex} is not hex`);
  const bits = parseInt(hex.slice(0, 4), 16);
  const objectType = bits >> 11;
  const rateIndex = (bits >> 7) & 0x0f;
  const channels = (bits >> 3) & 0x0f;
  const sampleRate = RATES[rateIndex];
  if (sampleRate === undefined) throw new Error(`AAC config ${hex} has an explicit or unknown sample rate`);
  return { objectType, sampleRate, channels };
}
