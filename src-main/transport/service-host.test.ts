import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineService, method } from '../../src-shared/contract/define-service';
import { ContractFailure } from '../../src-shared/contract/result';
import { createMemoryLogger } from '../platform/logger';
import { createServiceHost } from './service-host';

const echoService = defineService({
  name: 'echo',
  methods: {
    say: method(z.object({ text: z.string().min(1) }), z.object({ said: z.string() })),
    fail: method(z.void(), z.void()),
    crash: method(z.void(), z.void()),
    lie: method(z.void(), z.object({ n: z.number() })),
  },
  events: { onSaid: z.object({ text: z.string() }) },
});

function boundHost() {
  const logger = createMemoryLogger();
  const host = createServiceHost(logger);
  const emit = host.bind(echoService, {
    say: async ({ text }) => ({ said: text.toUpperCase() }),
    fail: async () => {
      throw new ContractFailure('not_found', 'no such thing');
    },
    crash: async () => {
      throw new Error('disk on fire');
    },
    lie: async () => ({ n: 'seven' }) as unknown as { n: number },
  });
  return { host, emit, logger };
}

describe('service host', () => {
  it('validates input and returns values', async () => {
    const { host } = boundHost();
    expect(await host.call('echo', 'say', { text: 'hi' })).toEqual({ ok: true, value: { said: 'HI' } });
    const bad = await host.call('echo', 'say', { text: 42 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.error.code).toBe('invalid_input');
      expect(bad.error.message).toContain('echo.say: text:');
    }
  });

  it('turns thrown errors into error values', async () => {
    const { host } = boundHost();
    expect(await host.call('echo', 'fail', undefined)).toEqual({ ok: false, error: { code: 'not_found', message: 'no such thing' } });
    expect(await host.call('echo', 'crash', undefined)).toEqual({ ok: false, error: { code: 'internal', message: 'disk on fire' } });
    expect((await host.call('echo', 'lie', undefined)).ok).toBe(false);
    expect(await host.call('echo', 'nope', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await host.call('nope', 'say', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
    expect(await host.call('echo', 'constructor', {})).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('pushes validated events to subscribers until they leave', () => {
    const { host, emit, logger } = boundHost();
    const seen: unknown[] = [];
    expect(host.listening('echo', 'onSaid')).toBe(false);
    const sub = host.subscribe('echo', 'onSaid', (payload) => seen.push(payload));
    expect(sub.ok).toBe(true);
    expect(host.listening('echo', 'onSaid')).toBe(true);
    expect(host.listening('echo', 'onOther')).toBe(false);
    expect(host.listening('nobody', 'onSaid')).toBe(false);
    emit('onSaid', { text: 'one' });
    emit('onSaid', { text: 2 } as unknown as { text: string });
    if (sub.ok) sub.value();
    expect(host.listening('echo', 'onSaid')).toBe(false);
    emit('onSaid', { text: 'three' });
    expect(seen).toEqual([{ text: 'one' }]);
    expect(logger.lines.some((l) => l.includes('does not match the contract'))).toBe(true);
    expect(host.subscribe('echo', 'onNothing', () => undefined).ok).toBe(false);
  });

  it('checks nothing while nobody listens (the relay emits its streams every second, console open or not)', () => {
    const { host, emit, logger } = boundHost();
    emit('onSaid', { text: 2 } as unknown as { text: string });
    expect(logger.lines.filter((l) => l.includes('does not match the contract'))).toHaveLength(0);
    const sub = host.subscribe('echo', 'onSaid', () => undefined);
    emit('onSaid', { text: 2 } as unknown as { text: string });
    expect(logger.lines.filter((l) => l.includes('does not match the contract'))).toHaveLength(1);
    if (sub.ok) sub.value();
  });

  it('refuses binding a service twice', () => {
    const { host } = boundHost();
    expect(() => host.bind(echoService, {} as never)).toThrow(/bound twice/);
  });
});
