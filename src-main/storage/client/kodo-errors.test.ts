import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { kodoFailure, unreachable } from './kodo-errors';

describe('Kodo errors', () => {
  it('carry the code and a sentence a person can act on', () => {
    expect(kodoFailure(631, { error: 'no such bucket' })).toMatchObject({ code: 'not_found', message: 'Kodo 631: no such bucket' });
    expect(kodoFailure(614, { error: 'file exists' })).toMatchObject({ code: 'conflict', message: 'Kodo 614: a file with that name exists (file exists)' });
    expect(kodoFailure(401, { error: 'bad token' }).message).toBe('Kodo 401: the keys were refused: check the AccessKey and SecretKey, or the token has expired (bad token)');
    expect(kodoFailure(999, 'garbage')).toMatchObject({ code: 'unavailable', message: 'Kodo 999: the service answered with an error' });
    expect(unreachable(new Error('connect ECONNREFUSED'), 'http://127.0.0.1:1')).toMatchObject({ code: 'unavailable', message: 'the storage service at http://127.0.0.1:1 did not answer: connect ECONNREFUSED' });
  });

  it('the client imports nothing of the emulator (tests aside): it must work the same against real Kodo', () => {
    const dir = fileURLToPath(new URL('.', import.meta.url));
    const sources = (readdirSync(dir, { recursive: true }) as string[]).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !file.endsWith('test-support.ts'));
    expect(sources.length).toBeGreaterThan(8);
    for (const file of sources) expect(readFileSync(`${dir}/${file}`, 'utf8'), file).not.toMatch(/from '(\.\.\/)+emulator/);
  });
});
