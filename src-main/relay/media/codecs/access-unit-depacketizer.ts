import type { MediaFrame } from '../../core/media';
import type { RtpPacket } from '../../core/rtp-packet';
import { unfilledBytes } from './bytes';
import { toAvcc } from './h264/nal';

/** What a codec's payload reader reports for one RTP payload. */
export interface PayloadSink {
  unit(nal: Uint8Array): void;
  fragmentStart(header: number[], body: Uint8Array): void;
  fragmentPart(body: Uint8Array): void;
  fragmentEnd(): void;
  error(): void;
}

export interface AccessUnitCodec {
  name: string;
  /** Reads one payload (single NAL, aggregation or fragment) into the sink. */
  read(payload: Uint8Array, sink: PayloadSink): void;
  /**
   * Completes an access unit: decides keyframe and may add parameter sets. The units are valid
   * until the next packet: one kept past that (parameter sets) must be copied.
   */
  finish(units: Uint8Array[]): { units: Uint8Array[]; keyframe: boolean };
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
 */
export function createAccessUnitDepacketizer(codec: AccessUnitCodec) {
  const stats: DepacketizerStats = { packets: 0, frames: 0, lost: 0, errors: 0 };
  let units: Uint8Array[] = [];
  /** The pieces of the fragmented unit being read: views of the packets, joined once at its end. */
  let fragment: Uint8Array[] | undefined;
  /**
   * Where fragmented units are joined: one buffer reused from frame to frame (the frame's AVCC
   * is copied out of it at once), instead of an allocation per unit that lives a moment.
   */
  let scratch: Uint8Array | undefined;
  let scratchUsed = 0;
  const join = (pieces: readonly Uint8Array[]): Uint8Array => {
    const size = pieces.reduce((n, p) => n + p.length, 0);
    // Made at the first fragmented unit; a new, larger one when full (units joined earlier keep
    // the old one until the flush).
    if (!scratch || scratchUsed + size > scratch.length) {
      scratch = unfilledBytes(Math.max(2 * (scratch?.length ?? 32 * 1024), size));
      scratchUsed = 0;
    }
    const start = scratchUsed;
    for (const piece of pieces) {
      scratch.set(piece, scratchUsed);
      scratchUsed += piece.length;
    }
    return scratch.subarray(start, scratchUsed);
  };
  let broken = false;
  let timestamp: number | undefined;
  let lastSeq: number | undefined;

  const flush = (): MediaFrame[] => {
    if (units.length === 0 || timestamp === undefined) return [];
    const done = codec.finish(units);
    units = [];
    stats.frames++;
    const data = toAvcc(done.units);
    scratchUsed = 0;
    return [{ codec: codec.name, timestamp, keyframe: done.keyframe, data }];
  };

  const sink: PayloadSink = {
    unit: (nal) => void units.push(nal),
    fragmentStart: (header, body) => {
      // Views, not copies: a unit's pieces live as long as the unit's single NALs above do.
      fragment = [Uint8Array.from(header), body];
      broken = false;
    },
    fragmentPart: (body) => {
      fragment?.push(body);
    },
    fragmentEnd: () => {
      if (fragment && !broken) units.push(join(fragment));
      fragment = undefined;
    },
    error: () => void stats.errors++,
  };

  return {
    stats,
    push(packet: RtpPacket): MediaFrame[] {
      stats.packets++;
      const out: MediaFrame[] = [];
      if (lastSeq !== undefined && ((lastSeq + 1) & 0xffff) !== packet.sequenceNumber) {
        stats.lost += (packet.sequenceNumber - lastSeq - 1 + 0x10000) & 0xffff;
        if (fragment) broken = true;
      }
      lastSeq = packet.sequenceNumber;
      if (timestamp !== undefined && packet.timestamp !== timestamp) {
        fragment = undefined;
        out.push(...flush());
      }
      timestamp = packet.timestamp;
      codec.read(packet.payload, sink);
      if (packet.marker) out.push(...flush());
      return out;
    },
  };
}

/** Splits an aggregation packet's 16-bit-length-prefixed units, starting at `offset`. */
export function readAggregated(p: Uint8Array, offset: number, sink: PayloadSink): void {
  while (offset + 2 <= p.length) {
    const size = (p[offset]! << 8) | p[offset + 1]!;
    if (size === 0 || offset + 2 + size > p.length) return sink.error();
    sink.unit(p.subarray(offset + 2, offset + 2 + size));
    offset += 2 + size;
  }
}
