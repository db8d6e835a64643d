import { describe, expect, it } from 'vitest';
import { clipPlan, wholeFragmentsEnd, type ClipSource } from './clip-plan';

const T = Date.UTC(2026, 10, 27, 8, 0, 0);
const seg = (id: string, startS: number, durationS: number, initId = 'a'): ClipSource => ({
  id,
  startMs: T + startS * 1000,
  durationMs: durationS * 1000,
  initId,
});

describe('clipPlan: which segments make the last N seconds', () => {
  const segments = [seg('s0', 0, 10), seg('s1', 10, 10), seg('s2', 20, 10), seg('open', 30, 4)];

  it('takes the newest pieces back to N seconds before the end, cut inside the first', () => {
    const plan = clipPlan(segments, T + 34_000, 10);
    expect(plan.map((s) => s.source.id)).toEqual(['s2', 'open']);
    expect(plan[0]!.fromSeconds).toBe(4);
    expect(plan[1]!.fromSeconds).toBeUndefined();
  });

  it('starts at a segment without a cut when N reaches its start exactly', () => {
    const plan = clipPlan(segments, T + 34_000, 14);
    expect(plan.map((s) => [s.source.id, s.fromSeconds])).toEqual([
      ['s2', undefined],
      ['open', undefined],
    ]);
  });

  it('takes what there is when less was recorded than asked', () => {
    expect(clipPlan(segments, T + 34_000, 600).map((s) => s.source.id)).toEqual(['s0', 's1', 's2', 'open']);
  });

  it('leaves out older pieces of another picture format', () => {
    const changed = [seg('s0', 0, 10, 'old'), seg('s1', 10, 10, 'new'), seg('s2', 20, 10, 'new')];
    expect(clipPlan(changed, T + 30_000, 30).map((s) => s.source.id)).toEqual(['s1', 's2']);
  });

  it('takes a segment found in the spool and the bucket once, in time order', () => {
    const twice = [seg('s1', 10, 10), seg('s0', 0, 10), seg('s1', 10, 10)];
    expect(clipPlan(twice, T + 20_000, 20).map((s) => s.source.id)).toEqual(['s0', 's1']);
  });

  it('is empty when nothing reaches into the range', () => {
    expect(clipPlan(segments, T + 100_000, 10)).toEqual([]);
    expect(clipPlan([], T, 10)).toEqual([]);
  });
});

const box = (type: string, body: number) => {
  const bytes = new Uint8Array(8 + body);
  new DataView(bytes.buffer).setUint32(0, 8 + body);
  bytes.set(
    [...type].map((c) => c.charCodeAt(0)),
    4,
  );
  return bytes;
};
const join = (...parts: Uint8Array[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
};

describe('wholeFragmentsEnd: what of a segment being written can be read', () => {
  const init = join(box('ftyp', 16), box('moov', 100));
  const fragment = join(box('moof', 40), box('mdat', 500));

  it('ends after the last moof with its mdat', () => {
    const file = join(init, fragment, fragment);
    expect(wholeFragmentsEnd(file)).toBe(file.length);
  });

  it('leaves out an mdat cut short and a moof whose mdat has not come', () => {
    const whole = join(init, fragment);
    expect(wholeFragmentsEnd(join(whole, fragment.subarray(0, 300)))).toBe(whole.length);
    expect(wholeFragmentsEnd(join(whole, box('moof', 40)))).toBe(whole.length);
  });

  it('is 0 before the first fragment is whole', () => {
    expect(wholeFragmentsEnd(init)).toBe(0);
    expect(wholeFragmentsEnd(init.subarray(0, 50))).toBe(0);
    expect(wholeFragmentsEnd(new Uint8Array(0))).toBe(0);
  });
});
