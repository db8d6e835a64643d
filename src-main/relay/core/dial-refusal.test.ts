import { describe, expect, it } from 'vitest';
import { isDialRefusal } from './dial-refusal';

const withCode = (code: string) => Object.assign(new Error(`connect ${code} 127.0.0.1:554`), { code });

describe('isDialRefusal', () => {
  it.each([
    ['a refused connection', withCode('ECONNREFUSED'), true],
    ['a host name that does not resolve', withCode('ENOTFOUND'), true],
    ['a refusal wrapped by a protocol', new Error('rtsp: connect ECONNREFUSED', { cause: withCode('ECONNREFUSED') }), true],
    ['fetch failing on a refused connection', new TypeError('fetch failed', { cause: withCode('ECONNREFUSED') }), true],
    ['a 401 answer', Object.assign(new Error('rtsp: DESCRIBE unauthorized'), { status: 401 }), true],
    ['a 403 answer', Object.assign(new Error('HTTP 403'), { status: 403 }), true],
    ['a 404 answer', Object.assign(new Error('HTTP 404'), { status: 404 }), true],
    ['an error that says itself a retry is useless', Object.assign(new Error('learned exec:'), { permanent: true }), true],
    ['a timeout', withCode('ETIMEDOUT'), false],
    ['a reset', withCode('ECONNRESET'), false],
    ['a temporary name lookup failure', withCode('EAI_AGAIN'), false],
    ['a 503 answer (a camera still starting)', Object.assign(new Error('HTTP 503'), { status: 503 }), false],
    ['a plain error', new Error('no media in 5 s'), false],
    ['not an error at all', 'ECONNREFUSED', false],
  ])('%s → %s', (_name, error, expected) => {
    expect(isDialRefusal(error)).toBe(expected);
  });

  it('stops following causes after a few levels (a cycle cannot hang it)', () => {
    const looped: Error & { cause?: unknown } = new Error('loop');
    looped.cause = looped;
    expect(isDialRefusal(looped)).toBe(false);
  });
});
