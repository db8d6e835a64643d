import type { Codec, MediaFrame } from '@main/relay/core/media';
import { splitAnnexB, toAvcc } from '../../codecs/h264/nal';
import { aacCodec, audioSpecificConfigFromAdts } from '../../frames/codec-description';
import { isKeyframeUnits, videoCodecFromUnits } from '../../frames/video-codec-from-units';
import { ByteQueue, DemuxError, type DemuxedTrack, type Demuxer, type DemuxSink } from '../demuxer';
import { parsePat, parsePesHeader, parsePmt, parseTsPacket, SYNC_BYTE, TS_PACKET_SIZE } from './ts-packets';

const STREAM_TYPES: Record<number, 'H264' | 'H265' | 'AAC'> = { 0x1b: 'H264', 0x24: 'H265', 0x0f: 'AAC' };
/** Bytes to wait for every stream's codec config before going on with the streams that have one. */
const CONFIG_PATIENCE_BYTES = 4 * 1024 * 1024;
const MAX_PES_BYTES = 8 * 1024 * 1024;
const AUD_H264 = 9;
const AUD_H265 = 35;

interface Elementary {
  pid: number;
  type: 'H264' | 'H265' | 'AAC';
  pes: Uint8Array[];
  pesBytes: number;
  codec?: Codec;
  track?: number;
  /** Frames read before the tracks were announced, replayed after (bounded). */
  early: MediaFrame[];
}

/**
 * MPEG-TS (as ffmpeg, cameras and HLS segments carry it): H.264, H.265 and ADTS AAC of the
 * first program. A PES is complete when the next one starts (video PES have no length), so
 * video comes out one frame late, as in every live TS reader. Tracks are announced once each
 * stream's codec config has been seen (parameter sets of a keyframe, an ADTS header).
 */
export function createTsDemuxer(sink: DemuxSink): Demuxer {
  const queue = new ByteQueue();
  let offset = 0;
  let pmtPid: number | undefined;
  let streams: Elementary[] | undefined;
  let announced = false;
  let bytesRead = 0;
  let bytesReceived = 0;

  function announce(force: boolean): void {
    if (announced || !streams) return;
    const known = streams.filter((s) => s.codec);
    if (!force && known.length < streams.length && bytesRead < CONFIG_PATIENCE_BYTES) return;
    if (known.length === 0) {
      if (force) throw new DemuxError('MPEG-TS: no H.264, H.265 or AAC stream with its codec config was found');
      return;
    }
    const tracks: DemuxedTrack[] = known.map((s, index) => {
      s.track = index;
      return { kind: s.type === 'AAC' ? 'audio' : 'video', codec: s.codec! };
    });
    announced = true;
    sink.tracks(tracks);
    for (const s of known) for (const frame of s.early.splice(0)) sink.frame(s.track!, frame);
  }

  function emit(stream: Elementary, frame: MediaFrame): void {
    if (announced) {
      if (stream.track !== undefined) sink.frame(stream.track, frame);
    } else if (stream.codec && stream.early.length < 300) {
      stream.early.push(frame);
    }
  }

  function flushPes(stream: Elementary): void {
    if (stream.pes.length === 0) return;
    const pes = Buffer.concat(stream.pes);
    stream.pes = [];
    stream.pesBytes = 0;
    const { pts, dataStart } = parsePesHeader(pes);
    if (pts === undefined) return;
    const data = pes.subarray(dataStart);
    if (stream.type === 'AAC') readAdts(stream, data, pts);
    else readVideo(stream, data, pts);
  }

  function readVideo(stream: Elementary, data: Uint8Array, pts: number): void {
    const name = stream.type as 'H264' | 'H265';
    const aud = name === 'H264' ? AUD_H264 : AUD_H265;
    const units = splitAnnexB(data).filter((u) => (name === 'H264' ? u[0]! & 0x1f : (u[0]! >> 1) & 0x3f) !== aud);
    if (units.length === 0) return;
    const keyframe = isKeyframeUnits(name, units);
    if (keyframe && !stream.codec) stream.codec = videoCodecFromUnits(name, units);
    if (!stream.codec) return; // nothing is decodable before the first keyframe with parameter sets
    emit(stream, { codec: name, timestamp: pts % 2 ** 32, keyframe, data: toAvcc(units) });
  }

  function readAdts(stream: Elementary, data: Uint8Array, pts: number): void {
    let at = 0;
    let index = 0;
    while (at + 7 <= data.length) {
      if (data[at] !== 0xff || (data[at + 1]! & 0xf6) !== 0xf0)
        throw new DemuxError(`MPEG-TS: AAC stream on PID ${stream.pid} is not ADTS`);
      const protectionAbsent = data[at + 1]! & 0x01;
      const length = ((data[at + 3]! & 0x03) << 11) | (data[at + 4]! << 3) | (data[at + 5]! >> 5);
      const headerLength = protectionAbsent ? 7 : 9;
      if (length < headerLength || at + length > data.length)
        throw new DemuxError(`MPEG-TS: ADTS frame of ${length} bytes runs past its PES`);
      if (!stream.codec) {
        // A damaged header can name a sample rate AAC does not have: a demux error, not a crash.
        try {
          stream.codec = aacCodec(audioSpecificConfigFromAdts(data.subarray(at, at + 7)));
        } catch (error) {
          throw new DemuxError(`MPEG-TS: AAC stream on PID ${stream.pid}: ${(error as Error).message}`);
        }
      }
      const rate = stream.codec.clockRate;
      // PES time is 90 kHz; the track's clock is the sample rate, 1024 samples per frame.
      const timestamp = (Math.round((pts * rate) / 90000) + index * 1024) % 2 ** 32;
      emit(stream, {
        codec: 'MPEG4-GENERIC',
        timestamp,
        keyframe: true,
        data: Uint8Array.from(data.subarray(at + headerLength, at + length)),
      });
      at += length;
      index++;
    }
  }

  function readPacket(bytes: Uint8Array): void {
    const packet = parseTsPacket(bytes, offset);
    if (packet.pid === 0 && packet.payloadStart) {
      pmtPid = parsePat(packet.payload);
      return;
    }
    if (packet.pid === pmtPid && packet.payloadStart && !streams) {
      const found = parsePmt(packet.payload).filter((s) => STREAM_TYPES[s.streamType]);
      if (found.length === 0) throw new DemuxError('MPEG-TS: the program has no H.264, H.265 or AAC stream');
      streams = found.map((s) => ({ pid: s.pid, type: STREAM_TYPES[s.streamType]!, pes: [], pesBytes: 0, early: [] }));
      return;
    }
    const stream = streams?.find((s) => s.pid === packet.pid);
    if (!stream || packet.payload.length === 0) return;
    if (packet.payloadStart) flushPes(stream);
    else if (stream.pes.length === 0) return; // joined mid-PES
    stream.pes.push(Uint8Array.from(packet.payload));
    stream.pesBytes += packet.payload.length;
    if (stream.pesBytes > MAX_PES_BYTES) throw new DemuxError(`MPEG-TS: a PES on PID ${stream.pid} grew past ${MAX_PES_BYTES} bytes`);
    if (stream.type === 'AAC') tryFlushComplete(stream);
  }

  // Audio PES carry their length, so a complete one goes out at once instead of a frame late.
  function tryFlushComplete(stream: Elementary): void {
    const first = stream.pes[0]!;
    if (first.length < 6) return;
    const declared = (first[4]! << 8) | first[5]!;
    if (declared > 0 && stream.pesBytes >= declared + 6) flushPes(stream);
  }

  return {
    format: 'mpegts',
    push(chunk) {
      queue.append(chunk);
      bytesReceived += chunk.length;
      for (;;) {
        const head = queue.peek(1);
        if (!head) break;
        if (head[0] !== SYNC_BYTE)
          throw new DemuxError(`MPEG-TS: lost sync at byte ${offset} (0x${head[0]!.toString(16)} instead of 0x47)`);
        const packet = queue.take(TS_PACKET_SIZE);
        if (!packet) break;
        readPacket(packet);
        offset += TS_PACKET_SIZE;
        bytesRead += TS_PACKET_SIZE;
      }
      announce(false);
    },
    end() {
      if (streams) for (const s of streams) flushPes(s);
      if (!streams)
        throw new DemuxError(
          bytesReceived === 0 ? 'MPEG-TS: the body is empty' : `MPEG-TS: no program table (PAT/PMT) in the ${bytesReceived} bytes received`,
        );
      announce(true);
    },
  };
}
