import { describe, expect, it } from 'vitest';
import { evaluateExpression } from './evaluate-expression';
import { parseExpression } from './parser';
import { tokenize } from './tokenizer';
import { toJson } from './values';

const run = async (text: string) => toJson(await evaluateExpression(text, { signal: new AbortController().signal }));

describe('expr tokenizer', () => {
  it('reads both quote kinds with escapes, raw strings, numbers and comments', () => {
    const tokens = tokenize(`"a\\"b\\n" 'it\\'s' \`raw\\n\` 0x1F 1_000 2.5e3 0b101 0o17 // comment\n /* block */ x`);
    expect(tokens.map((t) => (t.kind === 'number' ? t.number : t.value))).toEqual([
      'a"b\n',
      "it's",
      'raw\\n',
      31,
      1000,
      2500,
      5,
      15,
      'x',
      '',
    ]);
    expect(tokens.find((t) => t.value === 'x')).toMatchObject({ line: 2, column: 14 });
  });

  it('decodes \\x, \\u, \\U and octal escapes', () => {
    expect(tokenize(`"\\x41\\u00e9\\U0001F600\\101"`)[0]!.value).toBe('Aé😀A');
  });

  it('says where a string or comment is left open, and which escape is wrong', () => {
    expect(() => tokenize(`let a = 1;\n  "abc`)).toThrow('line 2, column 3: string is not closed (expected ")');
    expect(() => tokenize('1 /* x')).toThrow('line 1, column 3: comment is not closed');
    expect(() => tokenize('"ab\\q"')).toThrow(/line 1, column 4: invalid escape \\q/);
    expect(() => tokenize('a @ b')).toThrow('line 1, column 3: unexpected character "@"');
  });
});

describe('expr parser', () => {
  it('follows expr-lang precedence', async () => {
    expect(await run('1 + 2 * 3')).toBe(7);
    expect(await run('(1 + 2) * 3')).toBe(9);
    expect(await run('2 ** 3 ** 2')).toBe(512); // right-associative
    expect(await run('10 - 4 - 3')).toBe(3); // left-associative
    expect(await run('-2 ** 2')).toBe(-4); // ** binds tighter than unary minus
    expect(await run('1 + 2 == 3 and 2 < 3')).toBe(true);
    expect(await run('true or false and false')).toBe(true);
    expect(await run('not true == false')).toBe(true); // (not true) == false
    expect(await run('!false && true')).toBe(true);
    expect(await run('7 % 4 * 2')).toBe(6);
  });

  it('parses let bindings, ternaries and ?: / ??', async () => {
    expect(await run('let a = 2; let b = a * 3; a + b')).toBe(8);
    expect(await run('let a = 1; let a = a + 1; a')).toBe(2);
    expect(await run('1 > 2 ? "x" : 2 > 1 ? "y" : "z"')).toBe('y');
    expect(await run('nil ?: "fallback"')).toBe('fallback');
    expect(await run('nil ?? nil ?? "third"')).toBe('third');
    expect(await run('let x = "v"; x ?? "default"')).toBe('v');
    expect(await run('var x = 3; x;')).toBe(3); // go2rtc's examples write var and a trailing ;
  });

  it('parses arrays, maps with every key form, trailing commas, members, indexes and slices', async () => {
    expect(await run('[1, "two", [3],]')).toEqual([1, 'two', [3]]);
    expect(await run('{a: 1, "b c": 2, 3: "x", (lower("K")): true,}')).toEqual({ a: 1, 'b c': 2, '3': 'x', k: true });
    expect(await run('let m = {a: {b: [10, 20, 30]}}; m.a.b[1] + m["a"]["b"][-1]')).toBe(50);
    expect(await run('"rtsp://host/path"[7:11]')).toBe('host');
    expect(await run('let s = "abcdef"; [s[:2], s[4:], s[-2:], s[:]]')).toEqual(['ab', 'ef', 'ef', 'abcdef']);
    expect(await run('[1, 2, 3, 4][1:3]')).toEqual([2, 3]);
    expect(await run('1..4')).toEqual([1, 2, 3, 4]);
  });

  it('parses not in, the pipe and multi-line scripts with comments', async () => {
    expect(await run('"x" not in ["a", "b"]')).toBe(true);
    expect(await run('"abc" not contains "z"')).toBe(true);
    expect(await run('"Rtsp" | lower() | replace("r", "R")')).toBe('Rtsp');
    expect(await run('let host = "cam"; // the camera\n/* then */\n"rtsp://" + host')).toBe('rtsp://cam');
  });

  it('says where parsing failed and what it expected', () => {
    expect(() => parseExpression('let = 1; 2')).toThrow('line 1, column 5: expected a name after let but found "="');
    expect(() => parseExpression('let a = 1 a')).toThrow('line 1, column 11: expected ";" after the value of a but found name a');
    expect(() => parseExpression('(1 + 2')).toThrow(
      'line 1, column 7: expected ")" to close "(" at line 1, column 1 but found the end of the expression',
    );
    expect(() => parseExpression('f(1,\n  2 3)')).toThrow(
      'line 2, column 5: expected "," or ")" to close the arguments opened at line 1, column 2 but found number 3',
    );
    expect(() => parseExpression('{a 1}')).toThrow('line 1, column 4: expected ":" after the map key but found number 1');
    expect(() => parseExpression('1 +')).toThrow('line 1, column 4: expected a value');
    expect(() => parseExpression('"a" "b"')).toThrow(
      'line 1, column 5: expected an operator or the end of the expression but found string "b"',
    );
    expect(() => parseExpression('a ? b')).toThrow('line 1, column 6: expected ":" in "condition ? a : b"');
    expect(() => parseExpression('a ?? b + c')).toThrow('line 1, column 8: "??" and "+" cannot be mixed: add parentheses');
    expect(() => parseExpression('a.1')).toThrow('line 1, column 3: expected a field name after "."');
    expect(() => parseExpression('('.repeat(200) + '1' + ')'.repeat(200))).toThrow(/nests more than 100 levels/);
  });
});
