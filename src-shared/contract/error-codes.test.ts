import { describe, expect, it } from 'vitest';
import { isContractErrorCode } from './error-codes';
import { serverFrameSchema } from './wire';

describe('contract error codes', () => {
  it('knows the codes services throw and the transport adds, and nothing else', () => {
    for (const code of [
      'invalid_input',
      'not_found',
      'conflict',
      'unauthenticated',
      'forbidden',
      'unavailable',
      'internal',
      'contract_mismatch',
      'not_connected',
    ])
      expect(isContractErrorCode(code)).toBe(true);
    for (const code of ['unauthorized', 'toString', '', 42]) expect(isContractErrorCode(code)).toBe(false);
  });

  it('reads a code it does not know off the wire as internal, keeping the message', () => {
    const frame = (code: string) =>
      serverFrameSchema.parse({ type: 'result', id: 1, result: { ok: false, error: { code, message: 'said by a newer engine' } } });
    expect(frame('not_found')).toMatchObject({ result: { error: { code: 'not_found' } } });
    expect(frame('quota_exceeded')).toMatchObject({ result: { error: { code: 'internal', message: 'said by a newer engine' } } });
  });
});
