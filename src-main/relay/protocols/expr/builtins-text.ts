import { arrayArg, builtin, intArg, stringArg } from './builtin-helpers';
import { compileGoRegExp } from './go-regexp';
import { ExprError, formatValue, type ExprFunction } from './values';

/** Longest text repeat() may build. */
const MAX_TEXT = 1 << 20;

/** Go's strings.SplitN: n < 0 all parts, n == 0 none, n > 0 at most n (the last keeps the rest). */
function splitN(text: string, separator: string, n: number): string[] {
  if (n === 0) return [];
  const parts = separator === '' ? [...text] : text.split(separator);
  if (n < 0 || parts.length <= n) return parts;
  return [...parts.slice(0, n - 1), parts.slice(n - 1).join(separator)];
}

/** Go's strings.Trim(s, cutset): drops any of the cutset's characters from both ends. */
function trimCutset(text: string, cutset: string): string {
  const chars = new Set(cutset);
  const characters = [...text];
  let start = 0;
  let end = characters.length;
  while (start < end && chars.has(characters[start]!)) start++;
  while (end > start && chars.has(characters[end - 1]!)) end--;
  return characters.slice(start, end).join('');
}

/** The string builtins of expr-lang that token and URL building need. */
export function textBuiltins(): ExprFunction[] {
  return [
    builtin('lower', [1, 1], ([s]) => stringArg('lower', s!, 1).toLowerCase()),
    builtin('upper', [1, 1], ([s]) => stringArg('upper', s!, 1).toUpperCase()),
    builtin('trim', [1, 2], ([s, cutset]) =>
      cutset === undefined ? stringArg('trim', s!, 1).trim() : trimCutset(stringArg('trim', s!, 1), stringArg('trim', cutset, 2)),
    ),
    builtin('trimPrefix', [2, 2], ([s, prefix]) => {
      const [text, p] = [stringArg('trimPrefix', s!, 1), stringArg('trimPrefix', prefix!, 2)];
      return text.startsWith(p) ? text.slice(p.length) : text;
    }),
    builtin('trimSuffix', [2, 2], ([s, suffix]) => {
      const [text, p] = [stringArg('trimSuffix', s!, 1), stringArg('trimSuffix', suffix!, 2)];
      return p !== '' && text.endsWith(p) ? text.slice(0, -p.length) : text;
    }),
    builtin('split', [2, 3], ([s, sep, n]) =>
      splitN(stringArg('split', s!, 1), stringArg('split', sep!, 2), n === undefined ? -1 : intArg('split', n, 3)),
    ),
    builtin('replace', [3, 3], ([s, from, to]) =>
      stringArg('replace', s!, 1).replaceAll(stringArg('replace', from!, 2), stringArg('replace', to!, 3)),
    ),
    builtin('indexOf', [2, 2], ([s, sub]) => stringArg('indexOf', s!, 1).indexOf(stringArg('indexOf', sub!, 2))),
    builtin('lastIndexOf', [2, 2], ([s, sub]) => stringArg('lastIndexOf', s!, 1).lastIndexOf(stringArg('lastIndexOf', sub!, 2))),
    builtin('hasPrefix', [2, 2], ([s, p]) => stringArg('hasPrefix', s!, 1).startsWith(stringArg('hasPrefix', p!, 2))),
    builtin('hasSuffix', [2, 2], ([s, p]) => stringArg('hasSuffix', s!, 1).endsWith(stringArg('hasSuffix', p!, 2))),
    builtin('repeat', [2, 2], ([s, n]) => {
      const [text, count] = [stringArg('repeat', s!, 1), intArg('repeat', n!, 2)];
      if (count < 0 || text.length * count > MAX_TEXT) throw new ExprError(`repeat: count ${count} is out of range`);
      return text.repeat(count);
    }),
    // go2rtc's match(text, regexp[, flags]): the match and its groups (Go's FindStringSubmatch), or nil.
    builtin('match', [2, 3], ([s, pattern, flags]) => {
      const found = compileGoRegExp(stringArg('match', pattern!, 2), flags === undefined ? '' : stringArg('match', flags, 3)).exec(
        stringArg('match', s!, 1),
      );
      return found ? found.map((group) => group ?? '') : null;
    }),
    builtin('join', [1, 2], ([list, sep]) =>
      arrayArg('join', list!, 1)
        .map(formatValue)
        .join(sep === undefined ? '' : stringArg('join', sep, 2)),
    ),
  ];
}
