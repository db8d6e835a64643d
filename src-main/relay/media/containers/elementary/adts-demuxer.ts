import { aacCodec, audioSpecificConfigFromAdts } from '../../frames/codec-description';
import { ByteQueue, DemuxError, type Demuxer, type DemuxSink } from '../demuxer';

/** AAC samples per ADTS raw data block. */
const SAMPLES_PER_FRAME = 1024;

/**
 * An ADTS AAC elementary stream (an `audio/aac` URL, a TCP socket): each frame behind its 7-byte
 * header (9 with CRC) becomes a raw AAC frame; the track is announced from the first header;
 * timestamps count samples (1024 a frame) at the stream's rate.
 */
export function createAdtsDemuxer(sink: DemuxSink): Demuxer {
  const queue = new ByteQueue();
  let announced = false;
  let timestamp = 0;
  return {
    format: 'adts',
    push(chunk) {
      queue.append(chunk);
      for (;;) {
        const header = queue.peek(7);
        if (!header) return;
        if (header[0] !== 0xff || (header[1]! & 0xf6) !== 0xf0)
          throw new DemuxError(`ADTS: lost sync (0x${header.subarray(0, 2).toString('hex')} where a frame header should start)`);
        const length = ((header[3]! & 0x03) << 11) | (header[4]! << 3) | (header[5]! >> 5);
        const headerLength = header[1]! & 0x01 ? 7 : 9;
        if (length <= headerLength) throw new DemuxError(`ADTS: frame length ${length} is shorter than its header`);
        const frame = queue.take(length);
        if (!frame) return;
        if (!announced) {
          let codec;
          try {
            codec = aacCodec(audioSpecificConfigFromAdts(frame));
          } catch (error) {
            throw new DemuxError(`ADTS: ${(error as Error).message}`);
          }
          announced = true;
          sink.tracks([{ kind: 'audio', codec }]);
        }
        sink.frame(0, { codec: 'MPEG4-GENERIC', timestamp, keyframe: true, data: Uint8Array.from(frame.subarray(headerLength)) });
        timestamp = (timestamp + SAMPLES_PER_FRAME) >>> 0;
      }
    },
    end() {
      if (!announced) throw new DemuxError('ADTS: the input ended before a whole AAC frame');
    },
  };
}
