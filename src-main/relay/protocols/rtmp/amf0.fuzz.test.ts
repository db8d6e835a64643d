import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzCases, fuzzTimeout, valueOrTypedError } from '@main/test-support/fuzz-budget';
import { damagedSample } from '@main/test-support/fuzz-inputs';
import { AmfError, decodeAmf0Values, encodeAmf0Values, MAX_AMF_DEPTH } from './amf0';

// What publishers and servers send in AMF0: connect, publish, onStatus, onMetaData.
const SAMPLES = [
  encodeAmf0Values([
    'connect',
    1,
    { app: 'live', type: 'nonprivate', flashVer: 'FMLE/3.0 (compatible; Lavf59.27.100)', tcUrl: 'rtmp://127.0.0.1:1935/live' },
  ]),
  encodeAmf0Values(['publish', 5, null, 'garage?user=u&pass=p', 'live']),
  encodeAmf0Values([
    'onStatus',
    0,
    null,
    { level: 'error', code: 'NetStream.Publish.BadName', description: 'no', details: [1, 'two', { three: 3 }] },
  ]),
  // @setDataFrame onMetaData as an ECMA array (0x08), and a date (0x0b).
  Buffer.concat([
    encodeAmf0Values(['@setDataFrame', 'onMetaData']),
    Buffer.from([0x08, 0, 0, 0, 1, 0, 5]),
    Buffer.from('width'),
    encodeAmf0Values([320]),
    Buffer.from([0, 0, 9, 0x0b]),
    Buffer.alloc(10),
  ]),
];

/** `depth` containers, each holding the next: a strict array, an object or an ECMA array. */
const nested = (markers: number[]) =>
  Buffer.concat(
    markers.map((kind) =>
      kind === 0
        ? Buffer.from([0x0a, 0, 0, 0, 1])
        : kind === 1
          ? Buffer.from([0x03, 0, 1, 0x61])
          : Buffer.from([0x08, 0, 0, 0, 1, 0, 1, 0x61]),
    ),
  );

describe('fuzz: AMF0', () => {
  it(
    'decoding returns values or throws AmfError, never a TypeError, RangeError or stack overflow',
    () => {
      const input = fc.oneof(
        damagedSample(SAMPLES),
        fc.uint8Array({ maxLength: 400 }).map((b) => Buffer.from(b)),
        // Deep nesting (a short pattern of containers repeated up to 100 000 levels), cut at the
        // end: what overflowed the stack.
        fc
          .tuple(fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 1, maxLength: 8 }), fc.integer({ min: 1, max: 100_000 }), fc.nat())
          .map(([pattern, depth, cut]) => {
            const unit = nested(pattern);
            const bytes = Buffer.alloc(unit.length * Math.ceil(depth / pattern.length)).fill(unit);
            return bytes.subarray(0, bytes.length - (cut % 4));
          }),
      );
      fc.assert(
        fc.property(input, (bytes) => valueOrTypedError(() => decodeAmf0Values(bytes), AmfError)),
        fuzzCases(2_000),
      );
    },
    fuzzTimeout(),
  );

  it(`refuses nesting deeper than ${MAX_AMF_DEPTH} with AmfError, and reads it up to there`, () => {
    const closing = (depth: number) => Buffer.concat([nested(Array(depth).fill(0)), Buffer.from([0x05])]);
    expect(decodeAmf0Values(closing(MAX_AMF_DEPTH))).toHaveLength(1);
    expect(() => decodeAmf0Values(closing(MAX_AMF_DEPTH + 1))).toThrow(new AmfError(`AMF0: values nested deeper than ${MAX_AMF_DEPTH}`));
    // 100 000 levels: a stack overflow (RangeError) before the limit.
    expect(() => decodeAmf0Values(closing(100_000))).toThrow(AmfError);
  });

  it("keeps a key named __proto__ as data, not as the object's prototype", () => {
    const bytes = Buffer.concat([
      Buffer.from([0x03, 0, 9]),
      Buffer.from('__proto__'),
      encodeAmf0Values([{ app: 'injected' }]),
      Buffer.from([0, 0, 9]),
    ]);
    const [object] = decodeAmf0Values(bytes) as [Record<string, unknown>];
    expect(Object.getPrototypeOf(object)).toBe(Object.prototype);
    expect(object.app).toBeUndefined();
    expect(Object.keys(object)).toEqual(['__proto__']);
  });
});
