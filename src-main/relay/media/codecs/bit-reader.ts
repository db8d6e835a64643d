/** Reads bits MSB first, with the exp-Golomb codes of H.264/H.265 headers. */
export class BitReader {
  private bit = 0;

  constructor(private readonly bytes: Uint8Array) {}

  u(count: number): number {
    let value = 0;
    for (let i = 0; i < count; i++) {
      const byte = this.bytes[this.bit >> 3];
      if (byte === undefined) throw new RangeError('bitstream ended early');
      value = value * 2 + ((byte >> (7 - (this.bit & 7))) & 1);
      this.bit++;
    }
    return value;
  }

  flag(): boolean {
    return this.u(1) === 1;
  }

  /** Unsigned exp-Golomb, ue(v). */
  ue(): number {
    let zeros = 0;
    while (this.u(1) === 0) {
      if (++zeros > 31) throw new RangeError('exp-Golomb code too long');
    }
    return 2 ** zeros - 1 + this.u(zeros);
  }

  /** Signed exp-Golomb, se(v). */
  se(): number {
    const k = this.ue();
    return k % 2 === 1 ? (k + 1) / 2 : -(k / 2);
  }

  skip(count: number): void {
    this.bit += count;
  }
}

/** Removes emulation-prevention bytes (00 00 03 → 00 00) from a NAL unit's payload. */
export function unescapeRbsp(nal: Uint8Array): Uint8Array {
  const out: number[] = [];
  for (let i = 0; i < nal.length; i++) {
    if (
      i >= 2 &&
      nal[i] === 3 &&
      nal[i - 1] === 0 &&
      nal[i - 2] === 0 &&
      out.length >= 2 &&
      out[out.length - 1] === 0 &&
      out[out.length - 2] === 0
    )
      continue;
    out.push(nal[i]!);
  }
  return Uint8Array.from(out);
}
