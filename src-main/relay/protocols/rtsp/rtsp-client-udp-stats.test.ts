import { describe, expect, it } from 'vitest';
import { RtpReceiveStats, type Verdict } from './rtsp-client-udp-stats';

const SSRC = 0x1234_5678;

/** Feeds sequence numbers (timestamps 160 apart, 20 ms apart: a steady 8 kHz stream) and returns the verdicts. */
function feed(stats: RtpReceiveStats, seqs: number[], start = 0): Verdict[] {
  return seqs.map((seq, i) => stats.accept(seq, (start + i) * 160, SSRC, (start + i) * 20));
}

describe('RTP receive statistics (RFC 3550 A.1, A.3, A.8)', () => {
  it('passes late packets on, drops duplicates, and counts a lost one', () => {
    const stats = new RtpReceiveStats(8000);
    expect(feed(stats, [1, 2, 2, 4, 3, 5, 7])).toEqual(['new', 'new', 'duplicate', 'new', 'late', 'new', 'new']);
    expect(stats.duplicates).toBe(1);
    // Expected 1..7 = 7, received 6 (the duplicate is not counted): one lost, 1/7 of 256.
    expect(stats.reportBlock(1_000)).toEqual({
      ssrc: SSRC,
      fractionLost: 36,
      cumulativeLost: 1,
      highestSeq: 7,
      jitter: 0,
      lastSr: 0,
      delaySinceLastSr: 0,
    });
    // A quiet interval loses nothing more; a late copy of a counted packet stays a duplicate.
    expect(feed(stats, [3])).toEqual(['duplicate']);
    expect(stats.reportBlock(2_000)).toMatchObject({ fractionLost: 0, cumulativeLost: 1 });
  });

  it('says nothing before the first packet', () => {
    expect(new RtpReceiveStats(90000).reportBlock(0)).toBeUndefined();
  });

  it('follows the sequence across its wrap, in the cycle count of the highest number', () => {
    const stats = new RtpReceiveStats(8000);
    expect(feed(stats, [65533, 65534, 0, 65535, 1])).toEqual(['new', 'new', 'new', 'late', 'new']);
    expect(feed(stats, [65535])).toEqual(['duplicate']);
    expect(stats.reportBlock(0)).toMatchObject({ highestSeq: 0x1_0001, cumulativeLost: 0, fractionLost: 0 });
  });

  it('drops a stray far from the sequence, and follows a sender that restarted its numbering', () => {
    const stats = new RtpReceiveStats(8000);
    feed(stats, [100, 101, 102]);
    expect(feed(stats, [40_000], 3)).toEqual(['out-of-range']);
    expect(feed(stats, [103], 4)).toEqual(['new']);
    // Two in sequence on the far side: a restart. Counting begins again there.
    expect(feed(stats, [9_000, 9_001, 9_002], 5)).toEqual(['out-of-range', 'new', 'new']);
    expect(stats.reportBlock(0)).toMatchObject({ highestSeq: 9_002, cumulativeLost: 0 });
  });

  it('starts over for a new SSRC', () => {
    const stats = new RtpReceiveStats(8000);
    feed(stats, [10, 11, 15]);
    expect(stats.accept(500, 0, 0xabcd, 100)).toBe('new');
    expect(stats.reportBlock(0)).toMatchObject({ ssrc: 0xabcd, highestSeq: 500, cumulativeLost: 0 });
  });

  it('measures interarrival jitter in timestamp units', () => {
    const stats = new RtpReceiveStats(8000);
    // Sent every 160 units (20 ms); the second arrives 10 ms late = 80 units: J = 80/16 = 5.
    stats.accept(1, 0, SSRC, 0);
    stats.accept(2, 160, SSRC, 30);
    expect(stats.reportBlock(0)!.jitter).toBe(5);
    // A timestamp wrap is no jump.
    const wrapping = new RtpReceiveStats(8000);
    wrapping.accept(1, 0xffff_ffa0, SSRC, 0);
    wrapping.accept(2, 0x40, SSRC, 20); // 160 units later, modulo 2^32
    expect(wrapping.reportBlock(0)!.jitter).toBe(0);
  });

  it('reports the last sender report and the delay since, in 1/65536 s', () => {
    const stats = new RtpReceiveStats(8000);
    stats.accept(1, 0, SSRC, 0);
    stats.noteSenderReport(0xdead, 0x1111_2222, 0); // another source's report is not ours
    expect(stats.reportBlock(0)).toMatchObject({ lastSr: 0, delaySinceLastSr: 0 });
    stats.noteSenderReport(SSRC, 0xaabb_ccdd, 1_000);
    expect(stats.reportBlock(1_500)).toMatchObject({ lastSr: 0xaabb_ccdd, delaySinceLastSr: 32_768 });
  });

  it('keeps the 24-bit cumulative loss within its range', () => {
    const stats = new RtpReceiveStats(8000);
    // 3100 jumps of 2800 (2799 lost each) pass 2^23 - 1 lost; the field stops at its maximum.
    let seq = 0;
    for (let i = 0; i < 3_100; i++, seq = (seq + 2_800) % 65536) stats.accept(seq, 0, SSRC, 0);
    expect(stats.reportBlock(0)!.cumulativeLost).toBe(0x7f_ffff);
  });
});
