import type { Codec } from '@main/relay/core/media';
import { ByteQueue, DemuxError, type Demuxer, type DemuxSink } from '../demuxer';

/** Payload bytes per frame at most, so one frame is one RTP packet under a typical MTU. */
const MAX_FRAME_BYTES = 1152;

interface WavFormat {
  codec: Codec;
  /** Bytes of one sample of all channels. */
  blockAlign: number;
  /** Little-endian 16-bit PCM becomes RTP's L16, which is big-endian. */
  swap: boolean;
}

function formatOf(fmt: Buffer): WavFormat {
  if (fmt.length < 16) throw new DemuxError(`WAV: the fmt chunk is ${fmt.length} bytes, shorter than 16`);
  // WAVE_FORMAT_EXTENSIBLE names the real format in the first two bytes of its sub-format GUID.
  const tag = fmt.readUInt16LE(0);
  const audioFormat = tag === 0xfffe && fmt.length >= 26 ? fmt.readUInt16LE(24) : tag;
  const channels = fmt.readUInt16LE(2);
  const rate = fmt.readUInt32LE(4);
  const blockAlign = fmt.readUInt16LE(12);
  const bits = fmt.readUInt16LE(14);
  if (channels < 1 || rate < 1 || blockAlign !== (channels * bits) / 8)
    throw new DemuxError(`WAV: inconsistent format (${channels} channels, ${rate} Hz, ${bits} bits, block ${blockAlign})`);
  if (audioFormat === 1 && bits === 16)
    return {
      codec: {
        name: 'L16',
        clockRate: rate,
        channels,
        payloadType: channels === 2 && rate === 44100 ? 10 : channels === 1 && rate === 44100 ? 11 : 98,
      },
      blockAlign,
      swap: true,
    };
  if ((audioFormat === 6 || audioFormat === 7) && bits === 8) {
    const name = audioFormat === 6 ? 'PCMA' : 'PCMU';
    const payloadType = rate === 8000 && channels === 1 ? (name === 'PCMA' ? 8 : 0) : 98;
    return { codec: { name, clockRate: rate, channels, payloadType }, blockAlign, swap: false };
  }
  throw new DemuxError(`WAV: format ${audioFormat} with ${bits}-bit samples is not supported (16-bit PCM, A-law or μ-law)`);
}

/**
 * A WAV stream (RIFF/WAVE: a microphone over HTTP, a file): the `fmt ` chunk names the codec
 * (16-bit PCM as L16, A-law as PCMA, μ-law as PCMU), the `data` chunk is cut into frames of
 * whole samples that fit one RTP packet; timestamps count samples. A live source may send a
 * data chunk of any (or no real) size: it is read until the input ends.
 */
export function createWavDemuxer(sink: DemuxSink): Demuxer {
  const queue = new ByteQueue();
  let stage: 'riff' | 'chunks' | 'data' = 'riff';
  let format: WavFormat | undefined;
  let timestamp = 0;

  const emit = (bytes: Buffer) => {
    const data = Uint8Array.from(bytes);
    if (format!.swap) for (let i = 0; i + 1 < data.length; i += 2) [data[i], data[i + 1]] = [data[i + 1]!, data[i]!];
    sink.frame(0, { codec: format!.codec.name, timestamp, keyframe: true, data });
    timestamp = (timestamp + bytes.length / format!.blockAlign) >>> 0;
  };

  return {
    format: 'wav',
    push(chunk) {
      queue.append(chunk);
      for (;;) {
        if (stage === 'riff') {
          const head = queue.take(12);
          if (!head) return;
          if (head.toString('latin1', 0, 4) !== 'RIFF' || head.toString('latin1', 8, 12) !== 'WAVE')
            throw new DemuxError('WAV: not a RIFF/WAVE stream');
          stage = 'chunks';
        }
        if (stage === 'chunks') {
          const header = queue.peek(8);
          if (!header) return;
          const id = header.toString('latin1', 0, 4);
          const size = header.readUInt32LE(4);
          if (id === 'data') {
            if (!format) throw new DemuxError('WAV: the data chunk comes before the fmt chunk');
            queue.take(8);
            stage = 'data';
            sink.tracks([{ kind: 'audio', codec: format.codec }]);
            continue;
          }
          const whole = queue.take(8 + size + (size & 1));
          if (!whole) return;
          if (id === 'fmt ') format = formatOf(whole.subarray(8, 8 + size));
          continue;
        }
        const frameBytes = Math.max(1, Math.floor(MAX_FRAME_BYTES / format!.blockAlign)) * format!.blockAlign;
        const bytes = queue.take(frameBytes);
        if (!bytes) return;
        emit(bytes);
      }
    },
    end() {
      if (stage !== 'data') throw new DemuxError('WAV: the input ended before its data chunk');
      const rest = queue.take(queue.length - (queue.length % format!.blockAlign));
      if (rest && rest.length > 0) emit(rest);
    },
  };
}
