/** SHA-1's initial state (FIPS 180-4 5.3.1). */
const SHA1_INIT = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0] as const;

/**
 * HMAC-SHA1's outer hash, H(K ^ opad || inner digest), with the pad's block compressed once per
 * key: what is left per packet is a single SHA-1 block (the 20-byte digest and its padding),
 * compressed here in a few hundred integer operations. A one-shot native hash of those 84 bytes
 * costs more in the call than in the hashing (about a microsecond a packet).
 */
export class HmacSha1Outer {
  private readonly padState: Int32Array;
  private readonly schedule = new Int32Array(80);
  private readonly state = new Int32Array(5);

  /** `authKey`: the HMAC key, at most one block (SRTP's is 20 bytes). */
  constructor(authKey: Uint8Array) {
    const pad = new Uint8Array(64).fill(0x5c);
    for (let i = 0; i < authKey.length; i++) pad[i]! ^= authKey[i]!;
    this.state.set(SHA1_INIT);
    this.load(pad, 0, 64);
    this.compress();
    this.padState = this.state.slice();
  }

  /**
   * Writes the first `length` bytes of the outer hash of the inner digest into `out` at `at`.
   * The inner digest comes in hex (40 characters): Node's one-shot `hash` returns a string
   * sooner than a Buffer (about 0.8 microseconds less a call).
   */
  digestHex(innerHex: string, out: Uint8Array, at: number, length: number): void {
    const w = this.schedule;
    for (let i = 0; i < 5; i++) {
      let word = 0;
      for (let c = i * 8; c < i * 8 + 8; c++) word = (word << 4) | hexDigit(innerHex.charCodeAt(c));
      w[i] = word;
    }
    // The padding: a one bit, zeros, and the message length in bits (64 + 20 bytes).
    w[5] = 0x80000000;
    for (let i = 6; i < 15; i++) w[i] = 0;
    w[15] = (64 + 20) * 8;
    this.state.set(this.padState);
    this.compress();
    for (let i = 0; i < length; i++) out[at + i] = (this.state[i >>> 2]! >>> (24 - (i & 3) * 8)) & 0xff;
  }

  private load(bytes: Uint8Array, at: number, length: number): void {
    const w = this.schedule;
    for (let i = 0; i < length / 4; i++) {
      const o = at + i * 4;
      w[i] = (bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!;
    }
  }

  /** FIPS 180-4 6.1.2 on the block in `schedule[0..16)`, into `state`. */
  private compress(): void {
    const w = this.schedule;
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!;
      w[t] = (x << 1) | (x >>> 31);
    }
    const s = this.state;
    let a = s[0]!;
    let b = s[1]!;
    let c = s[2]!;
    let d = s[3]!;
    let e = s[4]!;
    // The four rounds of twenty, each in a loop of its own (no branch per step).
    for (let t = 0; t < 20; t++) {
      const temp = (((a << 5) | (a >>> 27)) + ((b & c) | (~b & d)) + e + 0x5a827999 + w[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    for (let t = 20; t < 40; t++) {
      const temp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0x6ed9eba1 + w[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    for (let t = 40; t < 60; t++) {
      const temp = (((a << 5) | (a >>> 27)) + ((b & c) | (b & d) | (c & d)) + e + 0x8f1bbcdc + w[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    for (let t = 60; t < 80; t++) {
      const temp = (((a << 5) | (a >>> 27)) + (b ^ c ^ d) + e + 0xca62c1d6 + w[t]!) | 0;
      e = d;
      d = c;
      c = (b << 30) | (b >>> 2);
      b = a;
      a = temp;
    }
    s[0] = (s[0]! + a) | 0;
    s[1] = (s[1]! + b) | 0;
    s[2] = (s[2]! + c) | 0;
    s[3] = (s[3]! + d) | 0;
    s[4] = (s[4]! + e) | 0;
  }
}

/** The value of a lowercase hex digit's character code (`hash` writes lowercase). */
function hexDigit(code: number): number {
  return code <= 0x39 ? code - 0x30 : code - 0x57;
}
