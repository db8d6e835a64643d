/**
 * One buffer kept for reuse: a batch's buffer given back once all its datagrams have left is
 * written again by the next batch that fits, instead of a new one per turn (which the collector
 * freed late: tens of MiB of them waited for a full collection with 25 viewers).
 */
export class SpareBuffer {
  private spare: ArrayBuffer | undefined;

  /**
   * `bytes` of the spare buffer, which is then no longer spare, or of a new one of its own (not a
   * slice of Node's shared pool: kept from turn to turn, a slice would keep the whole pool).
   */
  take(bytes: number): Buffer {
    const spare = this.spare;
    if (spare && spare.byteLength >= bytes) {
      this.spare = undefined;
      return Buffer.from(spare, 0, bytes);
    }
    return Buffer.allocUnsafeSlow(bytes);
  }

  /** Gives back the buffer a view lies in (the larger one is kept). Nothing else may hold its bytes. */
  give(view: Buffer): void {
    const buffer = view.buffer;
    if (!(buffer instanceof ArrayBuffer) || buffer === this.spare) return;
    if (!this.spare || this.spare.byteLength <= buffer.byteLength) this.spare = buffer;
  }
}
