import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzBudget, fuzzCases, valueOrTypedError } from './fuzz-budget';

class ParseError extends Error {}

/** A parser with the kind of bug the suite hunts: an index past the end for some inputs. */
function buggyParse(bytes: Uint8Array): number {
  if (bytes.length === 0) throw new ParseError('empty');
  if (bytes[0] === 7) return (null as unknown as { length: number }).length;
  return bytes[0]!;
}

describe('fuzz budget', () => {
  it('a parser error of the right type passes; any other exception fails the property, with its seed', () => {
    expect(valueOrTypedError(() => buggyParse(Uint8Array.of()), ParseError)).toBe(true);
    // The planted bug needs a first byte of 7: enough cases that fast-check cannot miss it
    // (300 random arrays miss it about once in 16 runs).
    expect(() =>
      fc.assert(
        fc.property(fc.uint8Array(), (bytes) => valueOrTypedError(() => buggyParse(bytes), ParseError)),
        fuzzCases(20_000),
      ),
    ).toThrow(/Property failed.*seed: -?\d+/s);
  });

  it('fuzzCases runs the given number of cases in npm test, and the time budget under npm run fuzz', () => {
    const before = { ...process.env };
    try {
      delete process.env.RELAY_FUZZ_MS;
      let runs = 0;
      fc.assert(
        fc.property(fc.nat(), () => void runs++),
        fuzzCases(2_000),
      );
      expect(runs).toBe(2_000);
      process.env.RELAY_FUZZ_MS = '250';
      expect(fuzzCases(2_000)).toMatchObject({ interruptAfterTimeLimit: 250 });
    } finally {
      process.env = before;
    }
  });

  it('fuzzBudget runs a fixed number of cases in npm test (the time budget is npm run fuzz only)', () => {
    const before = { ...process.env };
    try {
      delete process.env.RELAY_FUZZ_MS;
      let runs = 0;
      fc.assert(
        fc.property(fc.nat(), () => void runs++),
        fuzzBudget(),
      );
      expect(runs).toBe(300);
      expect(fuzzBudget()).not.toHaveProperty('interruptAfterTimeLimit');
    } finally {
      process.env = before;
    }
  });

  it('takes its time from RELAY_FUZZ_MS and replays RELAY_FUZZ_SEED', () => {
    const before = { ...process.env };
    try {
      process.env.RELAY_FUZZ_MS = '250';
      process.env.RELAY_FUZZ_SEED = '42';
      expect(fuzzBudget()).toMatchObject({ interruptAfterTimeLimit: 250, seed: 42 });
    } finally {
      process.env = before;
    }
  });
});
