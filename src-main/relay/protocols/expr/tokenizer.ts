import { ExprError, type SourcePosition } from './values';

type TokenKind = 'number' | 'string' | 'identifier' | 'operator' | 'bracket' | 'eof';

export interface Token extends SourcePosition {
  kind: TokenKind;
  /** The text for names, operators and brackets; the decoded value for strings. */
  value: string;
  /** The number for number tokens. */
  number?: number;
}

/** Words that are operators, not names (`not in` is two of them). */
const WORD_OPERATORS = new Set(['and', 'or', 'not', 'in', 'matches', 'contains', 'startsWith', 'endsWith', 'let']);

/** Longest first, so `??` wins over `?` and `**` over `*`. */
const SYMBOL_OPERATORS = [
  '?.',
  '??',
  '..',
  '==',
  '!=',
  '<=',
  '>=',
  '&&',
  '||',
  '**',
  '?',
  '.',
  '<',
  '>',
  '!',
  '*',
  '/',
  '%',
  '^',
  '+',
  '-',
  '=',
  ';',
  ',',
  ':',
  '|',
];

const SIMPLE_ESCAPES: Record<string, string> = {
  n: '\n',
  t: '\t',
  r: '\r',
  a: '\x07',
  b: '\b',
  f: '\f',
  v: '\v',
  '\\': '\\',
  '"': '"',
  "'": "'",
  '`': '`',
};

/** Splits expression text into tokens; comments (`//`, `/* *\/`) and whitespace are dropped. */
export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let line = 1;
  let lineStart = 0;
  const here = (): SourcePosition => ({ line, column: index - lineStart + 1 });
  const advance = (count: number) => {
    for (let i = 0; i < count; i++) {
      if (text[index] === '\n') {
        line++;
        lineStart = index + 1;
      }
      index++;
    }
  };

  while (index < text.length) {
    const char = text[index]!;
    const start = here();
    if (/\s/.test(char)) {
      advance(1);
    } else if (text.startsWith('//', index)) {
      while (index < text.length && text[index] !== '\n') advance(1);
    } else if (text.startsWith('/*', index)) {
      const end = text.indexOf('*/', index + 2);
      if (end < 0) throw new ExprError('comment is not closed (expected */)', start);
      advance(end + 2 - index);
    } else if (/[0-9]/.test(char)) {
      const match = /^(0[xX][0-9a-fA-F_]+|0[oO][0-7_]+|0[bB][01_]+|[0-9][0-9_]*(\.[0-9][0-9_]*)?([eE][+-]?[0-9]+)?)/.exec(
        text.slice(index),
      )!;
      const literal = match[0].replaceAll('_', '');
      const number = /^0[oO]/.test(literal)
        ? parseInt(literal.slice(2), 8)
        : /^0[bB]/.test(literal)
          ? parseInt(literal.slice(2), 2)
          : Number(literal);
      if (!Number.isFinite(number)) throw new ExprError(`number ${match[0]} is too large`, start);
      tokens.push({ kind: 'number', value: match[0], number, ...start });
      advance(match[0].length);
    } else if (char === '"' || char === "'" || char === '`') {
      const { value, length } = readString(text, index, start);
      tokens.push({ kind: 'string', value, ...start });
      advance(length);
    } else if (/[A-Za-z_$]/.test(char)) {
      const word = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(text.slice(index))![0];
      // `var` is accepted as `let`: go2rtc's own examples write it that way.
      const value = word === 'var' ? 'let' : word;
      tokens.push({ kind: WORD_OPERATORS.has(value) ? 'operator' : 'identifier', value, ...start });
      advance(word.length);
    } else if ('()[]{}'.includes(char)) {
      tokens.push({ kind: 'bracket', value: char, ...start });
      advance(1);
    } else {
      const symbol = SYMBOL_OPERATORS.find((op) => text.startsWith(op, index));
      if (!symbol) throw new ExprError(`unexpected character ${JSON.stringify(char)}`, start);
      tokens.push({ kind: 'operator', value: symbol, ...start });
      advance(symbol.length);
    }
  }
  tokens.push({ kind: 'eof', value: '', ...here() });
  return tokens;
}

/** Line and column of an offset, for errors inside a token. */
function positionAt(text: string, offset: number): SourcePosition {
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

/** A quoted string from `start` (the opening quote); backquotes are raw, the others have escapes. */
function readString(text: string, start: number, position: SourcePosition): { value: string; length: number } {
  const quote = text[start]!;
  let value = '';
  let i = start + 1;
  while (i < text.length && text[i] !== quote) {
    if (text[i] !== '\\' || quote === '`') {
      value += text[i++];
      continue;
    }
    const escape = text[i + 1] ?? '';
    if (escape in SIMPLE_ESCAPES) {
      value += SIMPLE_ESCAPES[escape];
      i += 2;
      continue;
    }
    const digits = escape === 'x' ? 2 : escape === 'u' ? 4 : escape === 'U' ? 8 : /[0-7]/.test(escape) ? 3 : 0;
    const code = escape === 'x' || escape === 'u' || escape === 'U' ? text.slice(i + 2, i + 2 + digits) : text.slice(i + 1, i + 1 + digits);
    const valid = digits > 0 && code.length === digits && (/[0-7]/.test(escape) ? /^[0-7]+$/ : /^[0-9a-fA-F]+$/).test(code);
    const codePoint = valid ? parseInt(code, /[0-7]/.test(escape) ? 8 : 16) : NaN;
    if (!valid || codePoint > 0x10ffff) {
      throw new ExprError(`invalid escape \\${escape} in string (use \\n, \\t, \\", \\', \\\\, \\xFF, \\u00e9...)`, positionAt(text, i));
    }
    value += String.fromCodePoint(codePoint);
    i += /[0-7]/.test(escape) ? 1 + digits : 2 + digits;
  }
  if (i >= text.length) throw new ExprError(`string is not closed (expected ${quote})`, position);
  return { value, length: i + 1 - start };
}
