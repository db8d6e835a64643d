import type { DialContext, ProducerConnection } from '../../core/producer';
import { schemeOf, type SchemeRegistry } from '../../core/scheme-registry';
import type { ProtocolContext } from '../protocol-context';
import { evaluateExpression } from './evaluate-expression';
import type { FetchLimits } from './fetch-function';
import { formatValue, isMap, typeName, type ExprValue } from './values';

/** Schemes that run code here; an expression may not hand its result to one of them. */
const CODE_SCHEMES = ['exec', 'echo', 'expr'];

/**
 * Evaluates an `expr:` source and dials the source URL it gives. Exported for tests and for
 * protocols that build on it; `registerExpr` is how the relay uses it.
 */
async function dialExpr(
  source: string,
  context: DialContext,
  schemes: SchemeRegistry,
  fetchLimits?: FetchLimits,
): Promise<ProducerConnection> {
  const text = source.replace(/^\s*expr:/i, '');
  let result: ExprValue;
  try {
    result = await evaluateExpression(text, { signal: context.signal, ...(fetchLimits ? { fetchLimits } : {}) });
  } catch (error) {
    throw new Error(`expr: ${(error as Error).message}`, { cause: error });
  }
  if (typeof result !== 'string') throw new Error(`expr: the expression gave ${describeResult(result)}, not a source URL string`);
  // Fetched text often ends with a newline; no source URL has surrounding spaces.
  const url = result.trim();
  if (!url) throw new Error('expr: the expression gave an empty string, not a source URL');
  const scheme = schemeOf(url);
  const handler = schemes.resolve(url);
  // go2rtc would dial even exec: or another expr: here. We refuse: the URL is usually built from
  // what an HTTP server answered, and exec:/echo: would let that server choose a command to run
  // on this machine (config-file-only code, through the back door); expr: could loop forever.
  if (handler?.runsCode || CODE_SCHEMES.includes(scheme))
    throw new Error(`expr: the expression gave an ${scheme}: source, which may not run commands itself`);
  if (!handler) throw new Error(`expr: the expression gave a source this relay does not support (${scheme || url.slice(0, 40)})`);
  return handler.dial(url, context);
}

/** The wrong result in words; a map shows its keys, not its values, which may be tokens. */
function describeResult(result: ExprValue): string {
  if (result === null) return 'nil';
  if (typeof result === 'number' || typeof result === 'boolean') return `${typeName(result)} ${formatValue(result)}`;
  if (isMap(result)) return `a map (keys: ${[...result.keys()].slice(0, 10).join(', ') || 'none'})`;
  return Array.isArray(result) ? `an array of ${result.length}` : `a ${typeName(result)}`;
}

/**
 * `expr:` sources as go2rtc has them: an expr-lang expression (with `fetch` and `match`) whose
 * string result is the source URL to dial. Config file only: it sends requests and runs logic.
 */
export function registerExpr({ schemes }: ProtocolContext): void {
  schemes.register('expr', { runsCode: true, dial: (source, context) => dialExpr(source, context, schemes) });
}
