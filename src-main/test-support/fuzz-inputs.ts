import fc from 'fast-check';

/** Valid samples with a few bytes changed, cut out or inserted: inputs that get past a parser's first checks. */
export function damagedSample(samples: readonly Buffer[], maxEdits = 8): fc.Arbitrary<Buffer> {
  const edit = fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 }), fc.constantFrom('set', 'cut', 'add'));
  return fc.tuple(fc.constantFrom(...samples), fc.array(edit, { maxLength: maxEdits })).map(([sample, edits]) => {
    const bytes = [...sample];
    for (const [at, value, kind] of edits) {
      const i = bytes.length === 0 ? 0 : at % bytes.length;
      if (kind === 'set') bytes[i] = value;
      else if (kind === 'cut') bytes.splice(i, 1);
      else bytes.splice(i, 0, value);
    }
    return Buffer.from(bytes);
  });
}

/** The bytes cut at the given points (taken modulo the length): what a socket may deliver. */
export function splitAt(bytes: Buffer, cuts: readonly number[]): Buffer[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Buffer[] = [];
  let from = 0;
  for (const point of [...points, bytes.length]) {
    out.push(bytes.subarray(from, point));
    from = point;
  }
  return out.filter((chunk) => chunk.length > 0);
}
