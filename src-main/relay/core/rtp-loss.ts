/**
 * Packets lost on one RTP stream as its receiver counts them (RFC 3550 A.3): expected from the
 * extended highest sequence number, less what arrived. Duplicates and late packets can make the
 * count briefly negative, as the RFC allows; it is shown as 0.
 */
export class RtpLossCounter {
  private base?: number;
  private cycles = 0;
  private max = 0;
  private received = 0;

  note(sequenceNumber: number): void {
    this.received++;
    if (this.base === undefined) {
      this.base = sequenceNumber;
      this.max = sequenceNumber;
      return;
    }
    const delta = (sequenceNumber - this.max) & 0xffff;
    // Ahead by less than half the space: newer (wrapping past 65535 adds a cycle); else late.
    if (delta !== 0 && delta < 0x8000) {
      if (sequenceNumber < this.max) this.cycles += 0x10000;
      this.max = sequenceNumber;
    }
  }

  get lost(): number {
    if (this.base === undefined) return 0;
    return Math.max(0, this.cycles + this.max - this.base + 1 - this.received);
  }
}
