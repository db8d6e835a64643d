import { ExprError } from './values';

/** Flags go2rtc's `match` takes (Go's inline flags): i, m, s. */
const ALLOWED_FLAGS = /^[ims]*$/;

/**
 * A Go (RE2) pattern as a JavaScript RegExp: go2rtc configs are written against Go's syntax.
 * Leading inline flags `(?i)` / `(?ms)` become RegExp flags and `(?P<name>` becomes `(?<name>`;
 * the rest of the common syntax is the same in both.
 */
export function compileGoRegExp(pattern: string, flags = ''): RegExp {
  let body = pattern;
  let allFlags = flags;
  const inline = /^\(\?([a-zA-Z]+)\)/.exec(body);
  if (inline) {
    allFlags += inline[1];
    body = body.slice(inline[0].length);
  }
  if (!ALLOWED_FLAGS.test(allFlags)) throw new ExprError(`regexp flags ${JSON.stringify(allFlags)} are not supported (use i, m, s)`);
  body = body.replaceAll('(?P<', '(?<');
  try {
    return new RegExp(body, [...new Set(allFlags)].join(''));
  } catch (error) {
    throw new ExprError(
      `invalid regexp ${JSON.stringify(pattern)}: ${(error as Error).message.replace(/^Invalid regular expression: /, '')}`,
    );
  }
}
