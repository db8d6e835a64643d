import { concatBytes } from '../bytes';
import { BitWriter } from './bit-writer';
import { crc16, crc8 } from './crc';

/** What a FLAC stream carries: the encoder takes 16-bit samples, 1 to 8 channels. */
export interface FlacFormat {
  sampleRate: number;
  channels: number;
}

const BITS_PER_SAMPLE = 16;
/** The longest block this encoder writes (a frame per RTP packet, a longer packet split); decoders size buffers by it. */
export const FLAC_MAX_BLOCK = 4608;

function checkFormat({ sampleRate, channels }: FlacFormat): void {
  if (!Number.isInteger(sampleRate) || sampleRate < 1 || sampleRate > 655350)
    throw new RangeError(`FLAC cannot carry a sample rate of ${sampleRate} Hz`);
  if (!Number.isInteger(channels) || channels < 1 || channels > 8) throw new RangeError(`FLAC carries 1 to 8 channels, not ${channels}`);
}

/**
 * The 34-byte STREAMINFO block (FLAC format, METADATA_BLOCK_STREAMINFO): block sizes, sample
 * rate, channels, bits per sample; frame sizes, length and MD5 are 0 (unknown), as for a live
 * stream. MP4's `dfLa` box and a `.flac` file both start with it. The minimum block size is
 * written equal to the maximum: Apple's decoders (Safari, iOS, QuickTime) refuse FLAC in MP4
 * whose two sizes differ, as go2rtc found; the frame headers say each block's real size and
 * that block sizes vary, which is what decoders go by.
 */
export function flacStreamInfo(format: FlacFormat): Uint8Array {
  checkFormat(format);
  const w = new BitWriter(34);
  w.bits(FLAC_MAX_BLOCK, 16);
  w.bits(FLAC_MAX_BLOCK, 16);
  w.bits(0, 24); // minimum frame size: unknown
  w.bits(0, 24); // maximum frame size: unknown
  w.bits(format.sampleRate, 20);
  w.bits(format.channels - 1, 3);
  w.bits(BITS_PER_SAMPLE - 1, 5);
  w.bits(0, 4); // total samples (36 bits): unknown
  w.bits(0, 32);
  for (let i = 0; i < 4; i++) w.bits(0, 32); // MD5 of the audio: not computed
  return w.finish();
}

/** A `.flac` file: the marker, STREAMINFO as the last metadata block, then the frames. */
export function flacFile(format: FlacFormat, frames: readonly Uint8Array[]): Uint8Array {
  const info = flacStreamInfo(format);
  return concatBytes([Uint8Array.from([0x66, 0x4c, 0x61, 0x43, 0x80, 0, 0, info.length]), info, ...frames]);
}

/**
 * One FLAC frame from 16-bit samples, one array per channel (independent channels). It uses the
 * variable block-size strategy, so the header numbers its first sample: RTP packets do not all
 * hold the same number of samples. Each channel is the smallest of CONSTANT, FIXED (orders 0-4,
 * Rice-coded residual) and VERBATIM.
 */
export function encodeFlacFrame(channels: readonly Int32Array[], format: FlacFormat, firstSample: number): Uint8Array {
  checkFormat(format);
  const blockSize = channels[0]?.length ?? 0;
  if (channels.length !== format.channels)
    throw new RangeError(`FLAC frame has ${channels.length} channels, the stream ${format.channels}`);
  if (blockSize < 1 || blockSize > FLAC_MAX_BLOCK) throw new RangeError(`FLAC block of ${blockSize} samples: 1 to ${FLAC_MAX_BLOCK} fit`);
  if (channels.some((c) => c.length !== blockSize)) throw new RangeError('FLAC channels of one frame must have the same length');
  const w = new BitWriter(64 + blockSize * channels.length * 3);
  writeHeader(w, blockSize, format, firstSample);
  for (const samples of channels) writeSubframe(w, samples);
  w.align();
  const body = w.finish();
  const crc = crc16(body);
  const out = new Uint8Array(body.length + 2);
  out.set(body);
  out[body.length] = crc >> 8;
  out[body.length + 1] = crc & 0xff;
  return out;
}

function blockSizeCode(size: number): { code: number; extra?: { value: number; bits: number } } {
  if (size === 192) return { code: 1 };
  for (let i = 0; i < 4; i++) if (size === 576 << i) return { code: 2 + i };
  for (let i = 0; i < 8; i++) if (size === 256 << i) return { code: 8 + i };
  return size <= 256 ? { code: 6, extra: { value: size - 1, bits: 8 } } : { code: 7, extra: { value: size - 1, bits: 16 } };
}

const RATE_CODES: Record<number, number> = {
  88200: 1,
  176400: 2,
  192000: 3,
  8000: 4,
  16000: 5,
  22050: 6,
  24000: 7,
  32000: 8,
  44100: 9,
  48000: 10,
  96000: 11,
};

function sampleRateCode(rate: number): { code: number; extra?: { value: number; bits: number } } {
  const code = RATE_CODES[rate];
  if (code !== undefined) return { code };
  if (rate % 1000 === 0 && rate / 1000 <= 255) return { code: 12, extra: { value: rate / 1000, bits: 8 } };
  if (rate <= 0xffff) return { code: 13, extra: { value: rate, bits: 16 } };
  if (rate % 10 === 0 && rate / 10 <= 0xffff) return { code: 14, extra: { value: rate / 10, bits: 16 } };
  return { code: 0 }; // as in STREAMINFO
}

/** The frame or sample number in FLAC's extended UTF-8 coding (up to 36 bits, 7 bytes). */
function writeCodedNumber(w: BitWriter, value: number): void {
  if (value < 0x80) return w.bits(value, 8);
  const limits = [0x800, 0x10000, 0x200000, 0x4000000, 0x80000000];
  const index = limits.findIndex((limit) => value < limit);
  const count = index < 0 ? 7 : index + 2;
  const continuation = (i: number) => Math.floor(value / 2 ** (6 * i)) % 64;
  const lead = count === 7 ? 0xfe : ((0xff << (8 - count)) & 0xff) | continuation(count - 1);
  w.bits(lead, 8);
  for (let i = count - 2; i >= 0; i--) w.bits(0x80 | continuation(i), 8);
}

function writeHeader(w: BitWriter, blockSize: number, format: FlacFormat, firstSample: number): void {
  const size = blockSizeCode(blockSize);
  const rate = sampleRateCode(format.sampleRate);
  w.bits(0x3ffe, 14); // sync code
  w.bits(0, 1);
  w.bits(1, 1); // variable block size: the header carries the first sample's number
  w.bits(size.code, 4);
  w.bits(rate.code, 4);
  w.bits(format.channels - 1, 4); // independent channels
  w.bits(0b100, 3); // 16 bits per sample
  w.bits(0, 1);
  writeCodedNumber(w, firstSample);
  if (size.extra) w.bits(size.extra.value, size.extra.bits);
  if (rate.extra) w.bits(rate.extra.value, rate.extra.bits);
  const header = w.finish();
  w.bits(crc8(header), 8);
}

/** Fixed predictors of order 0-4 (FLAC format, SUBFRAME_FIXED): the residual each leaves. */
function fixedResidual(samples: Int32Array, order: number): Int32Array {
  const out = new Int32Array(samples.length - order);
  const s = samples;
  for (let i = order; i < s.length; i++) {
    let predicted = 0;
    if (order === 1) predicted = s[i - 1]!;
    else if (order === 2) predicted = 2 * s[i - 1]! - s[i - 2]!;
    else if (order === 3) predicted = 3 * s[i - 1]! - 3 * s[i - 2]! + s[i - 3]!;
    else if (order === 4) predicted = 4 * s[i - 1]! - 6 * s[i - 2]! + 4 * s[i - 3]! - s[i - 4]!;
    out[i - order] = s[i]! - predicted;
  }
  return out;
}

const zigzag = (r: number) => (r >= 0 ? r * 2 : -r * 2 - 1);
const MAX_RICE = 14; // 4-bit parameters; 15 is the escape code, which this encoder does not use

/** The cheapest Rice parameter for a run of residuals, and its cost in bits. */
function bestRice(residual: Int32Array, start: number, end: number): { k: number; bits: number } {
  let sum = 0;
  for (let i = start; i < end; i++) sum += zigzag(residual[i]!);
  const count = end - start;
  const mean = count > 0 ? sum / count : 0;
  const guess = mean > 1 ? Math.min(MAX_RICE, Math.floor(Math.log2(mean))) : 0;
  let best = { k: 0, bits: Infinity };
  for (let k = Math.max(0, guess - 1); k <= Math.min(MAX_RICE, guess + 1); k++) {
    let bits = 4 + count * (k + 1);
    for (let i = start; i < end; i++) bits += Math.floor(zigzag(residual[i]!) / 2 ** k);
    if (bits < best.bits) best = { k, bits };
  }
  return best;
}

interface ResidualPlan {
  order: number;
  residual: Int32Array;
  partitionOrder: number;
  parameters: number[];
  bits: number;
}

/** Tries partition orders 0-8 (each partition with its own Rice parameter) and keeps the cheapest. */
function planResidual(residual: Int32Array, blockSize: number, order: number): ResidualPlan {
  let best: ResidualPlan | undefined;
  for (let p = 0; p <= 8; p++) {
    const partitions = 1 << p;
    if (blockSize % partitions !== 0 || blockSize / partitions <= order) break;
    const perPartition = blockSize / partitions;
    const parameters: number[] = [];
    let bits = 2 + 4 + order * BITS_PER_SAMPLE;
    for (let i = 0; i < partitions; i++) {
      const start = i === 0 ? 0 : i * perPartition - order;
      const end = (i + 1) * perPartition - order;
      const rice = bestRice(residual, start, end);
      parameters.push(rice.k);
      bits += rice.bits;
    }
    if (!best || bits < best.bits) best = { order, residual, partitionOrder: p, parameters, bits };
  }
  return best ?? { order, residual, partitionOrder: 0, parameters: [bestRice(residual, 0, residual.length).k], bits: Infinity };
}

function writeSubframe(w: BitWriter, samples: Int32Array): void {
  const n = samples.length;
  if (samples.every((s) => s === samples[0])) {
    w.bits(0b00000000, 8); // CONSTANT
    w.bits(samples[0]!, BITS_PER_SAMPLE);
    return;
  }
  let best: ResidualPlan | undefined;
  for (let order = 0; order <= Math.min(4, n - 1); order++) {
    const plan = planResidual(fixedResidual(samples, order), n, order);
    if (!best || plan.bits < best.bits) best = plan;
  }
  if (!best || best.bits >= n * BITS_PER_SAMPLE) {
    w.bits(0b00000010, 8); // VERBATIM
    for (const s of samples) w.bits(s, BITS_PER_SAMPLE);
    return;
  }
  w.bits((0b001000 | best.order) << 1, 8); // FIXED, no wasted bits
  for (let i = 0; i < best.order; i++) w.bits(samples[i]!, BITS_PER_SAMPLE);
  w.bits(0, 2); // Rice coding with 4-bit parameters
  w.bits(best.partitionOrder, 4);
  const partitions = 1 << best.partitionOrder;
  const perPartition = n / partitions;
  for (let i = 0; i < partitions; i++) {
    const k = best.parameters[i]!;
    w.bits(k, 4);
    const start = i === 0 ? 0 : i * perPartition - best.order;
    const end = (i + 1) * perPartition - best.order;
    for (let j = start; j < end; j++) {
      const u = zigzag(best.residual[j]!);
      w.unary(Math.floor(u / 2 ** k));
      if (k > 0) w.bits(u, k);
    }
  }
}
