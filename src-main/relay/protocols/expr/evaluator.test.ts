import { describe, expect, it } from 'vitest';
import { evaluateExpression } from './evaluate-expression';
import { toJson } from './values';

const run = async (text: string) => toJson(await evaluateExpression(text, { signal: new AbortController().signal }));

describe('expr evaluation', () => {
  it('does string operators and builtins', async () => {
    expect(await run('"rtsp://" + "cam" + "/live"')).toBe('rtsp://cam/live');
    expect(await run('"rtsp://cam" startsWith "rtsp:" and "a.m3u8" endsWith ".m3u8" and "token=x" contains "="')).toBe(true);
    expect(await run('"Cam-12" matches "^cam-\\\\d+$"')).toBe(false);
    expect(await run('"Cam-12" matches "(?i)^cam-\\\\d+$"')).toBe(true);
    expect(await run('[len("héllo"), lower("AB"), upper("ab"), trim("  x \\n"), trim("--x--", "-")]')).toEqual([5, 'ab', 'AB', 'x', 'x']);
    expect(await run('[split("a,b,c", ","), split("a,b,c", ",", 2), replace("a-b-c", "-", "+"), join(["a", 1, true], "/")]')).toEqual([
      ['a', 'b', 'c'],
      ['a', 'b,c'],
      'a+b+c',
      'a/1/true',
    ]);
    expect(
      await run('[string(42), string(2.5), string(nil), string([1, "a"]), string({b: 2, a: 1}), int("12"), int(3.9), float("2.5")]'),
    ).toEqual(['42', '2.5', '<nil>', '[1 a]', 'map[a:1 b:2]', 12, 3, 2.5]);
    expect(
      await run(
        '[indexOf("a/b/c", "/"), lastIndexOf("a/b/c", "/"), trimPrefix("rtsp://x", "rtsp://"), trimSuffix("x.m3u8", ".m3u8"), hasPrefix("ab", "a")]',
      ),
    ).toEqual([1, 3, 'x', 'x', true]);
    expect(
      await run('[toBase64("user:pw"), fromBase64("dXNlcjpwdw=="), fromJSON(\'{"a":[1]}\').a[0], keys({k: 1}), max(1, 5, 3), abs(-2)]'),
    ).toEqual(['dXNlcjpwdw==', 'user:pw', 1, ['k'], 5, 2]);
  });

  it('runs go2rtc match: the match and its groups, or nil', async () => {
    const script = 'let url = "rtsp://user:pass@192.168.1.123/cam/realmonitor?x"; let host = match(url, "//[^/]+")[0][2:]; host';
    expect(await run(script)).toBe('user:pass@192.168.1.123');
    expect(await run('match("id=42; name=door", "id=(\\\\d+); name=(?P<name>\\\\w+)")')).toEqual(['id=42; name=door', '42', 'door']);
    expect(await run('match("a\\nB.m3u8", "^[a-z]+\\\\.m3u8$", "mi")')).toEqual(['B.m3u8']);
    expect(await run('match("abc", "x") ?? "none"')).toBe('none');
  });

  it('reads members, indexes and nil-safe chains', async () => {
    expect(await run('let r = {data: {URL: "rtsp://x"}}; r.data.URL')).toBe('rtsp://x');
    expect(await run('let r = {data: nil}; r.data?.URL')).toBe(null);
    expect(await run('let r = {data: nil}; r.data?.URL.deeper[0]')).toBe(null);
    expect(await run('let r = {}; r.missing ?? "default"')).toBe('default');
    expect(await run('let a = nil; a?.[0]')).toBe(null);
    expect(await run('"k" in {k: 1} and 2 in [1, 2]')).toBe(true);
    expect(await run('{a: [1, {b: 2}]} == {a: [1, {b: 2}]}')).toBe(true);
  });

  it('keys of fetched data such as __proto__ are plain keys', async () => {
    expect(
      await run('let m = fromJSON(\'{"__proto__": {"x": 1}, "constructor": 2}\'); [m.__proto__.x, m.constructor, m.toString]'),
    ).toEqual([1, 2, null]);
  });

  it('says what went wrong at runtime and where', async () => {
    const errors: Array<[string, string]> = [
      ['let r = nil;\nr.token', 'line 2, column 3: cannot read "token" of nil (use ?. to allow nil)'],
      ['"port " + 8554', 'line 1, column 9: invalid operation: string + int (use string(x) to turn a value into text)'],
      ['unknown(1)', 'line 1, column 1: unknown name unknown'],
      ['[1, 2][5]', 'line 1, column 7: index 5 is out of range (length 2)'],
      ['"x" ? 1 : 2', 'line 1, column 5: the condition of "? :" must be a bool, got string'],
      ['1 and true', 'line 1, column 3: the left side of and must be a bool, got int'],
      ['len(1, 2)', 'line 1, column 1: len takes 1 argument, got 2'],
      ['int("12abc")', 'line 1, column 1: int: cannot turn string "12abc" into an int'],
      ['let r = {text: "x"}; r.text()', 'line 1, column 24: text is a string, not a function (write .text without "()")'],
      ['match("x", "(")', 'line 1, column 1: invalid regexp "("'],
      ['match("x", "x", "U")', 'regexp flags "U" are not supported'],
      ['5 % 0', 'line 1, column 3: integer divide by zero'],
      ['1..1000000', 'longer than 100000'],
    ];
    for (const [script, message] of errors) await expect(run(script), script).rejects.toThrow(message);
  });

  it('stops when aborted', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(evaluateExpression('fetch("http://127.0.0.1:9/")', { signal: controller.signal })).rejects.toThrow(/aborted/);
  });
});
