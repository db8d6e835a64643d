import { toAvcc } from '../../codecs/h264/nal';
import { aacCodec, h264Codec } from '../../frames/codec-description';
import { ByteQueue, DemuxError, type DemuxedTrack, type Demuxer, type DemuxSink } from '../demuxer';

const TAG_AUDIO = 8;
const TAG_VIDEO = 9;
const TAG_SCRIPT = 18;
const CODEC_AVC = 7;
const SOUND_AAC = 10;
/** Tags to wait for a codec config the header promised before going on without it. */
const CONFIG_PATIENCE_TAGS = 200;

interface AvcConfig {
  sps: Uint8Array;
  pps: Uint8Array;
  lengthSize: number;
}

/**
 * FLV (as ffmpeg, OBS and cameras push it over HTTP): H.264 and AAC. Tags are read as they
 * arrive; the tracks are announced once the sequence headers the FLV header promised are in.
 * Video timestamps become 90 kHz presentation times (DTS + composition offset); AAC counts
 * 1024 samples a frame from the first tag's time, resyncing only on a real gap.
 */
export function createFlvDemuxer(sink: DemuxSink): Demuxer {
  const queue = new ByteQueue();
  let headerRead = false;
  let expectAudio = true;
  let expectVideo = true;
  let avc: AvcConfig | undefined;
  let aac: Uint8Array | undefined;
  let aacRate = 0;
  let trackIndex: { video?: number; audio?: number } | undefined;
  let tagsSeen = 0;
  let offset = 0;
  let nextAudioTimestamp: number | undefined;
  const pending: Array<() => void> = [];

  const fail = (message: string): never => {
    throw new DemuxError(`FLV: ${message} (at byte ${offset})`);
  };

  function announce(): void {
    if (trackIndex) return;
    const ready = (!expectVideo || avc) && (!expectAudio || aac);
    if (!ready && tagsSeen < CONFIG_PATIENCE_TAGS) return;
    const tracks: DemuxedTrack[] = [];
    trackIndex = {};
    if (avc) {
      trackIndex.video = tracks.length;
      tracks.push({ kind: 'video', codec: h264Codec(avc.sps, avc.pps) });
    }
    if (aac) {
      trackIndex.audio = tracks.length;
      tracks.push({ kind: 'audio', codec: aacCodec(aac) });
    }
    if (tracks.length === 0) fail(`no H.264 or AAC sequence header in the first ${tagsSeen} tags`);
    sink.tracks(tracks);
    for (const run of pending.splice(0)) run();
  }

  function whenAnnounced(run: () => void): void {
    if (trackIndex) run();
    else if (pending.length < 500) pending.push(run);
  }

  function readVideo(body: Buffer, timestampMs: number): void {
    if (body.length < 1) fail('empty video tag');
    const frameType = body[0]! >> 4;
    const codecId = body[0]! & 0x0f;
    if (frameType === 5) return; // video info/command frame
    if (codecId !== CODEC_AVC) fail(`video codec id ${codecId} is not H.264 (7); FLV carries only H.264 here`);
    if (body.length < 5) fail('truncated AVC video tag');
    const packetType = body[1]!;
    const composition = (body.readUIntBE(2, 3) << 8) >> 8; // signed 24-bit
    const payload = body.subarray(5);
    if (packetType === 0) {
      avc = parseAvcConfig(payload, fail);
      return announce();
    }
    if (packetType === 2) return; // end of sequence
    if (packetType !== 1) fail(`unknown AVC packet type ${packetType}`);
    if (!avc) return; // frames before the sequence header cannot be decoded
    const units = splitLengthPrefixed(payload, avc.lengthSize, fail);
    if (units.length === 0) return;
    const keyframe = frameType === 1 || units.some((u) => (u[0]! & 0x1f) === 5);
    const data = toAvcc(keyframe && !units.some((u) => (u[0]! & 0x1f) === 7) ? [avc.sps, avc.pps, ...units] : units);
    const timestamp = ((timestampMs + composition) * 90) % 2 ** 32;
    whenAnnounced(() => trackIndex!.video !== undefined && sink.frame(trackIndex!.video, { codec: 'H264', timestamp, keyframe, data }));
  }

  function readAudio(body: Buffer, timestampMs: number): void {
    if (body.length < 2) fail('truncated audio tag');
    const format = body[0]! >> 4;
    if (format !== SOUND_AAC) fail(`audio format ${format} is not AAC (10); FLV carries only AAC here`);
    const payload = body.subarray(2);
    if (body[1] === 0) {
      if (payload.length < 2) fail('AAC sequence header shorter than an AudioSpecificConfig');
      aac = Uint8Array.from(payload);
      try {
        aacRate = aacCodec(aac).clockRate;
      } catch (error) {
        fail((error as Error).message);
      }
      return announce();
    }
    if (!aac || payload.length === 0) return;
    const fromClock = Math.round((timestampMs * aacRate) / 1000);
    if (nextAudioTimestamp === undefined || Math.abs(fromClock - nextAudioTimestamp) > 2048) nextAudioTimestamp = fromClock;
    const timestamp = nextAudioTimestamp % 2 ** 32;
    nextAudioTimestamp += 1024;
    const data = Uint8Array.from(payload);
    whenAnnounced(
      () => trackIndex!.audio !== undefined && sink.frame(trackIndex!.audio, { codec: 'MPEG4-GENERIC', timestamp, keyframe: true, data }),
    );
  }

  function readTags(): void {
    for (;;) {
      // Each tag: 11-byte header, body, then the 4-byte size of the tag just read.
      const header = queue.peek(11);
      if (!header) return;
      const type = header[0]! & 0x1f;
      const size = header.readUIntBE(1, 3);
      if (type !== TAG_AUDIO && type !== TAG_VIDEO && type !== TAG_SCRIPT) fail(`unknown tag type ${header[0]}`);
      if (size > 16 * 1024 * 1024) fail(`tag of ${size} bytes is larger than any real frame`);
      const whole = queue.take(11 + size + 4);
      if (!whole) return;
      const timestampMs = (header.readUIntBE(4, 3) | (header[7]! << 24)) >>> 0;
      const body = whole.subarray(11, 11 + size);
      const previousSize = whole.readUInt32BE(11 + size);
      if (previousSize !== 11 + size && previousSize !== 0) fail(`tag size ${previousSize} does not match the tag of ${11 + size} bytes`);
      tagsSeen++;
      if (type === TAG_VIDEO) readVideo(body, timestampMs);
      else if (type === TAG_AUDIO) readAudio(body, timestampMs);
      offset += whole.length;
      if (!trackIndex && tagsSeen >= CONFIG_PATIENCE_TAGS) announce();
    }
  }

  return {
    format: 'flv',
    push(chunk) {
      queue.append(chunk);
      if (!headerRead) {
        const head = queue.peek(9);
        if (!head) {
          if (queue.length >= 3 && queue.peek(3)!.toString('latin1') !== 'FLV') fail('not FLV: the body does not start with "FLV"');
          return;
        }
        if (head.toString('latin1', 0, 3) !== 'FLV') fail('not FLV: the body does not start with "FLV"');
        const dataOffset = head.readUInt32BE(5);
        if (dataOffset < 9 || dataOffset > 1024) fail(`FLV header size ${dataOffset} is not valid`);
        expectAudio = (head[4]! & 0x04) !== 0;
        expectVideo = (head[4]! & 0x01) !== 0;
        if (!queue.take(dataOffset + 4)) return;
        offset = dataOffset + 4;
        headerRead = true;
      }
      readTags();
    },
    end() {
      if (!headerRead) fail('the body ended before the FLV header');
      if (!trackIndex) announce();
      if (queue.length > 0 && queue.length < 11) fail('the body ended inside a tag header');
    },
  };
}

function parseAvcConfig(record: Buffer, fail: (message: string) => never): AvcConfig {
  if (record.length < 7 || record[0] !== 1) fail('AVC sequence header is not an AVCDecoderConfigurationRecord');
  const lengthSize = (record[4]! & 0x03) + 1;
  let at = 5;
  const readSets = (count: number): Uint8Array[] => {
    const sets: Uint8Array[] = [];
    for (let i = 0; i < count; i++) {
      if (at + 2 > record.length) fail('truncated parameter set in the AVC sequence header');
      const size = record.readUInt16BE(at);
      if (at + 2 + size > record.length) fail('truncated parameter set in the AVC sequence header');
      sets.push(Uint8Array.from(record.subarray(at + 2, at + 2 + size)));
      at += 2 + size;
    }
    return sets;
  };
  const spss = readSets(record[at++]! & 0x1f);
  if (at >= record.length) fail('AVC sequence header has no PPS count');
  const ppss = readSets(record[at++]!);
  if (!spss[0] || !ppss[0]) fail('AVC sequence header without SPS or PPS');
  return { sps: spss[0], pps: ppss[0], lengthSize };
}

function splitLengthPrefixed(data: Buffer, lengthSize: number, fail: (message: string) => never): Uint8Array[] {
  const units: Uint8Array[] = [];
  let at = 0;
  while (at < data.length) {
    if (at + lengthSize > data.length) fail('truncated NAL unit length');
    const size = data.readUIntBE(at, lengthSize);
    if (size === 0 || at + lengthSize + size > data.length) fail(`NAL unit of ${size} bytes runs past its tag`);
    units.push(Uint8Array.from(data.subarray(at + lengthSize, at + lengthSize + size)));
    at += lengthSize + size;
  }
  return units;
}
