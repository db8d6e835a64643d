import type { MediaFrame } from '../../core/media';
import type { RtpPacket } from '../../core/rtp-packet';
import { createFrameSlab } from './frame-slab';
import { fromAvcc, toAvcc } from './h264/nal';

/** What a codec's payload reader reports for one RTP payload. */
export interface PayloadSink {
  unit(nal: Uint8Array): void;
  fragmentStart(header: readonly number[], body: Uint8Array): void;
  fragmentPart(body: Uint8Array): void;
  fragmentEnd(): void;
  error(): void;
}

export interface AccessUnitCodec {
  name: string;
  /** Reads one payload (single NAL, aggregation or fragment) into the sink. */
  read(payload: Uint8Array, sink: PayloadSink): void;
  /**
   * Completes an access unit: decides keyframe, and names units to put before it (parameter
   * sets a keyframe came without). The units are views the depacketizer reuses: one kept past
   * the call (parameter sets) must be copied.
   */
  finish(units: readonly Uint8Array[]): { keyframe: boolean; before?: readonly Uint8Array[] };
}

interface DepacketizerStats {
  packets: number;
  frames: number;
  lost: number;
  errors: number;
}

/**
 * RTP → access units for NAL-based video (H.264, H.265). A unit ends at the marker bit or when
 * the timestamp changes; a fragment that lost a packet is dropped and counted, never passed on
 * broken; sequence gaps are counted across the 16-bit wrap.
 *
 * Each NAL unit is written once, as it arrives, into the frame's AVCC bytes (a length, then the
 * unit) in a slab shared by the frames that follow (`frame-slab.ts`): the frame handed on is a
 * view of it. Joining a fragmented unit first and then copying the frame into AVCC read and wrote
 * every byte of the picture twice more, and each frame was an allocation of its own.
 */
export function createAccessUnitDepacketizer(codec: AccessUnitCodec) {
  const stats: DepacketizerStats = { packets: 0, frames: 0, lost: 0, errors: 0 };
  const slab = createFrameSlab();
  /** The frame's units so far, as views of the slab (what `finish` looks at). */
  let units: Uint8Array[] = [];
  /** Where the fragmented unit being read began in the frame (its length field), or -1. */
  let fragmentAt = -1;
  let broken = false;
  let timestamp: number | undefined;
  let lastSeq: number | undefined;

  /** Forgets a fragmented unit that will never end (lost packets, a new unit or frame began). */
  const dropFragment = () => {
    if (fragmentAt >= 0) slab.truncate(fragmentAt);
    fragmentAt = -1;
  };

  const flush = (): MediaFrame[] => {
    dropFragment();
    if (units.length === 0 || timestamp === undefined) {
      slab.discard();
      return [];
    }
    const done = codec.finish(units);
    units = [];
    stats.frames++;
    const written = slab.take();
    // Rare (a keyframe without its parameter sets): the frame is built again with them first.
    const data = done.before && done.before.length > 0 ? toAvcc([...done.before, ...fromAvcc(written)]) : written;
    return [{ codec: codec.name, timestamp, keyframe: done.keyframe, data }];
  };

  const sink: PayloadSink = {
    unit: (nal) => {
      dropFragment();
      const at = slab.beginUnit();
      slab.append(nal);
      units.push(slab.endUnit(at));
    },
    fragmentStart: (header, body) => {
      dropFragment();
      fragmentAt = slab.beginUnit();
      for (const byte of header) slab.appendByte(byte);
      slab.append(body);
      broken = false;
    },
    fragmentPart: (body) => {
      if (fragmentAt >= 0) slab.append(body);
    },
    fragmentEnd: () => {
      if (fragmentAt < 0) return;
      if (broken) return dropFragment();
      units.push(slab.endUnit(fragmentAt));
      fragmentAt = -1;
    },
    error: () => void stats.errors++,
  };

  return {
    stats,
    push(packet: RtpPacket): readonly MediaFrame[] {
      stats.packets++;
      let out: MediaFrame[] | undefined;
      if (lastSeq !== undefined && ((lastSeq + 1) & 0xffff) !== packet.sequenceNumber) {
        stats.lost += (packet.sequenceNumber - lastSeq - 1 + 0x10000) & 0xffff;
        if (fragmentAt >= 0) broken = true;
      }
      lastSeq = packet.sequenceNumber;
      if (timestamp !== undefined && packet.timestamp !== timestamp) out = flush();
      timestamp = packet.timestamp;
      codec.read(packet.payload, sink);
      if (packet.marker) out = out ? [...out, ...flush()] : flush();
      return out ?? NO_FRAMES;
    },
  };
}

/** Most packets end no frame: one empty answer for all of them. */
const NO_FRAMES: readonly MediaFrame[] = Object.freeze([]);

/** Splits an aggregation packet's 16-bit-length-prefixed units, starting at `offset`. */
export function readAggregated(p: Uint8Array, offset: number, sink: PayloadSink): void {
  while (offset + 2 <= p.length) {
    const size = (p[offset]! << 8) | p[offset + 1]!;
    if (size === 0 || offset + 2 + size > p.length) return sink.error();
    sink.unit(p.subarray(offset + 2, offset + 2 + size));
    offset += 2 + size;
  }
}
