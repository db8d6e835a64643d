/** Writes bits MSB first into a buffer that grows as needed (FLAC frames are a few KiB). */
export class BitWriter {
  private bytes: Uint8Array;
  private bit = 0;

  constructor(capacity = 1024) {
    this.bytes = new Uint8Array(capacity);
  }

  /** The low `count` bits of a 32-bit `value` (count <= 32; negative values in two's complement). */
  bits(value: number, count: number): void {
    for (let i = count - 1; i >= 0; i--) this.bitAt((value >>> i) & 1);
  }

  /** `count` zero bits, then a one: the quotient of a Rice code. */
  unary(count: number): void {
    for (let i = 0; i < count; i++) this.bitAt(0);
    this.bitAt(1);
  }

  /** Zero bits up to the next byte boundary. */
  align(): void {
    while (this.bit & 7) this.bitAt(0);
  }

  /** Bytes written so far (the last one padded with zeros when not full). */
  get length(): number {
    return Math.ceil(this.bit / 8);
  }

  finish(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }

  private bitAt(value: number): void {
    const index = this.bit >> 3;
    if (index >= this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    if (value) this.bytes[index]! |= 0x80 >> (this.bit & 7);
    this.bit++;
  }
}
