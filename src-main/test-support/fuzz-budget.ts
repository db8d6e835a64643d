import type { Parameters as FcParameters } from 'fast-check';

/** Cases each property runs in `npm test`: the same depth on every machine, in well under a second. */
const CASES_IN_NPM_TEST = 300;

/**
 * How much each fuzz property runs. `npm test` gives every property a fixed number of cases;
 * `npm run fuzz -- --minutes N` sets RELAY_FUZZ_MS, and then time decides, for a longer hunt.
 * RELAY_FUZZ_SEED (and RELAY_FUZZ_PATH, both printed by fast-check with a failure) replays one
 * exactly.
 */
export function fuzzBudget(): FcParameters<unknown> {
  if (process.env.RELAY_FUZZ_MS === undefined) return fuzzCases(CASES_IN_NPM_TEST);
  const ms = Number(process.env.RELAY_FUZZ_MS);
  const seed = process.env.RELAY_FUZZ_SEED;
  const path = process.env.RELAY_FUZZ_PATH;
  return {
    // Time decides, not the count: a generous count that the time limit cuts short.
    numRuns: 10_000_000,
    interruptAfterTimeLimit: ms,
    markInterruptAsFailure: false,
    ...(seed ? { seed: Number(seed) } : {}),
    ...(path ? { path } : {}),
  };
}

/**
 * A fixed number of cases in `npm test` (so a new surface gets the same depth on every machine,
 * however slow), and the time budget of `npm run fuzz` when that sets RELAY_FUZZ_MS.
 */
export function fuzzCases(count: number): FcParameters<unknown> {
  if (process.env.RELAY_FUZZ_MS !== undefined) return fuzzBudget();
  const seed = process.env.RELAY_FUZZ_SEED;
  const path = process.env.RELAY_FUZZ_PATH;
  return { numRuns: count, ...(seed ? { seed: Number(seed) } : {}), ...(path ? { path } : {}) };
}

/** The vitest timeout of one fuzz property: its budget and room to shrink a failure. */
export function fuzzTimeout(): number {
  return Number(process.env.RELAY_FUZZ_MS ?? 1_500) * 2 + 30_000;
}

/**
 * Runs `parse` and accepts a value or one of the parser's own errors; any other exception (a
 * TypeError, a RangeError from a bad index) is what the fuzz suite exists to find.
 */
export function valueOrTypedError(parse: () => unknown, ...typed: Array<abstract new (...args: never[]) => Error>): boolean {
  try {
    parse();
    return true;
  } catch (error) {
    if (typed.some((type) => error instanceof type)) return true;
    throw error;
  }
}
