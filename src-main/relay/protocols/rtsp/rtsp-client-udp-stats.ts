/** RFC 3550 appendix A.1: how far ahead a packet may jump, and how late it may arrive, and still count as the same sequence. */
const MAX_DROPOUT = 3000;
const MAX_MISORDER = 100;
const SEQ_MOD = 0x1_0000;
/** Sequence numbers remembered to tell a duplicate from a late packet (more than MAX_MISORDER). */
const SEEN_WINDOW = 512;

/** One report block of an RTCP receiver report (RFC 3550 6.4.1). */
export interface ReportBlock {
  ssrc: number;
  /** Packets lost since the previous report, as a fraction of 256. */
  fractionLost: number;
  /** Packets lost since the start, 24-bit signed. */
  cumulativeLost: number;
  /** Cycles of 65536 in the high 16 bits, the highest sequence number in the low 16. */
  highestSeq: number;
  /** Interarrival jitter in RTP timestamp units. */
  jitter: number;
  /** Middle 32 bits of the NTP time of the source's last sender report (0: none yet). */
  lastSr: number;
  /** Time since that sender report, in 1/65536 s (0: none yet). */
  delaySinceLastSr: number;
}

export type Verdict = 'new' | 'late' | 'duplicate' | 'out-of-range';

/**
 * What one receiver knows about one RTP source over UDP: which packets it passes on (a duplicate
 * is dropped, a late or lost one is not waited for), and the counts its receiver reports carry.
 * Pure: the caller gives arrival times in milliseconds of a monotonic clock.
 */
export class RtpReceiveStats {
  private source?: number;
  private baseSeq = 0;
  private maxSeq = 0;
  private cycles = 0;
  private badSeq = -1;
  private received = 0;
  private expectedPrior = 0;
  private receivedPrior = 0;
  private jitter = 0;
  private lastArrival?: { at: number; timestamp: number };
  private lastSr?: { ssrc: number; middle: number; at: number };
  private readonly seen = new Float64Array(SEEN_WINDOW).fill(-1);
  duplicates = 0;

  constructor(private readonly clockRate: number) {}

  /** Whether to pass the packet on: 'new' and 'late' go on, a 'duplicate' or a stray far from the sequence does not. */
  accept(sequenceNumber: number, timestamp: number, ssrc: number, arrivalMs: number): Verdict {
    const seq = sequenceNumber & 0xffff;
    let verdict: Verdict = 'new';
    if (this.source !== ssrc) {
      this.restart(ssrc, seq); // the first packet, or the sender changed its SSRC
    } else {
      const ahead = (seq - this.maxSeq + SEQ_MOD) % SEQ_MOD;
      if (ahead < MAX_DROPOUT) {
        if (seq < this.maxSeq) this.cycles += SEQ_MOD;
        this.maxSeq = seq;
      } else if (ahead <= SEQ_MOD - MAX_MISORDER) {
        // A big jump: a stray packet, or the sender restarted its numbering. Two packets in
        // sequence on the far side mean the latter.
        if (seq !== this.badSeq) {
          this.badSeq = (seq + 1) % SEQ_MOD;
          return 'out-of-range';
        }
        this.restart(ssrc, seq);
      } else {
        verdict = 'late';
      }
    }
    const highest = this.cycles + this.maxSeq;
    const extended = verdict === 'late' ? highest - ((this.maxSeq - seq + SEQ_MOD) % SEQ_MOD) : highest;
    const slot = ((extended % SEEN_WINDOW) + SEEN_WINDOW) % SEEN_WINDOW; // late packets from before the first one are negative
    if (this.seen[slot] === extended) {
      this.duplicates++;
      return 'duplicate';
    }
    this.seen[slot] = extended;
    this.received++;
    this.updateJitter(timestamp, arrivalMs);
    return verdict;
  }

  /** Remembers a sender report of `ssrc` (its NTP time's middle 32 bits) for LSR/DLSR. */
  noteSenderReport(ssrc: number, ntpMiddle: number, arrivalMs: number): void {
    this.lastSr = { ssrc, middle: ntpMiddle >>> 0, at: arrivalMs };
  }

  /** The block for the next receiver report (undefined before the first packet); starts a new interval. */
  reportBlock(nowMs: number): ReportBlock | undefined {
    if (this.source === undefined) return undefined;
    const extendedMax = this.cycles + this.maxSeq;
    const expected = extendedMax - this.baseSeq + 1;
    const expectedInterval = expected - this.expectedPrior;
    const receivedInterval = this.received - this.receivedPrior;
    this.expectedPrior = expected;
    this.receivedPrior = this.received;
    const lostInterval = expectedInterval - receivedInterval;
    const fractionLost =
      expectedInterval <= 0 || lostInterval <= 0 ? 0 : Math.min(255, Math.floor((lostInterval * 256) / expectedInterval));
    const sr = this.lastSr?.ssrc === this.source ? this.lastSr : undefined;
    return {
      ssrc: this.source,
      fractionLost,
      cumulativeLost: Math.max(-0x80_0000, Math.min(0x7f_ffff, expected - this.received)),
      highestSeq: extendedMax >>> 0,
      jitter: Math.floor(this.jitter) >>> 0,
      lastSr: sr?.middle ?? 0,
      delaySinceLastSr: sr ? Math.floor(((nowMs - sr.at) / 1000) * 65536) >>> 0 : 0,
    };
  }

  private restart(ssrc: number, seq: number): void {
    this.source = ssrc;
    this.baseSeq = seq;
    this.maxSeq = seq;
    this.cycles = 0;
    this.badSeq = -1;
    this.received = 0;
    this.expectedPrior = 0;
    this.receivedPrior = 0;
    this.lastArrival = undefined;
    this.seen.fill(-1);
  }

  /** RFC 3550 A.8, on the difference of RTP timestamps modulo 2^32 so a wrap is no jump. */
  private updateJitter(timestamp: number, arrivalMs: number): void {
    if (this.clockRate <= 0) return;
    const last = this.lastArrival;
    this.lastArrival = { at: arrivalMs, timestamp };
    if (!last) return;
    const arrivalUnits = ((arrivalMs - last.at) * this.clockRate) / 1000;
    const sentUnits = (timestamp - last.timestamp) | 0;
    this.jitter += (Math.abs(arrivalUnits - sentUnits) - this.jitter) / 16;
  }
}
