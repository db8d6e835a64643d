import { dataBuiltins } from './builtins-data';
import { textBuiltins } from './builtins-text';
import { evaluate } from './evaluator';
import { createFetch, DEFAULT_FETCH_LIMITS, type FetchLimits } from './fetch-function';
import { parseExpression } from './parser';
import type { ExprValue } from './values';

export interface EvaluateOptions {
  /** Stops the evaluation (and any fetch in flight) when aborted. */
  signal: AbortSignal;
  fetchLimits?: FetchLimits;
}

/**
 * Parses and runs an expression in go2rtc's `expr:` language with its builtins, `fetch` and
 * `match`. Errors are `ExprError`s whose message starts with "line L, column C:".
 */
export async function evaluateExpression(text: string, options: EvaluateOptions): Promise<ExprValue> {
  const tree = parseExpression(text);
  // A fresh environment per evaluation: fetch's cookie session lives exactly as long as it.
  const names = new Map(
    [...textBuiltins(), ...dataBuiltins(), createFetch(options.fetchLimits ?? DEFAULT_FETCH_LIMITS)].map((fn) => [fn.name, fn]),
  );
  return evaluate(tree, { lookup: (name) => names.get(name) }, { signal: options.signal });
}
