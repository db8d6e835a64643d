import { describe, expect, it } from 'vitest';
import { healthFacts, relayStateText, unreachableSentence } from './relay-state-text';

const at = (ms: number) => `t${ms}`;

describe('relay state text', () => {
  it('says which relay is unreachable, since when and why', () => {
    expect(unreachableSentence({ name: 'north', reason: 'connection refused', sinceMs: 5 }, at)).toBe(
      'Relay north unreachable since t5: connection refused',
    );
    expect(unreachableSentence({ name: 'north', sinceMs: 7 }, at)).toBe('Relay north unreachable since t7');
  });

  it.each([
    [{ state: 'reachable' as const, sinceMs: 1 }, 'reachable'],
    [{ state: 'checking' as const, sinceMs: 1 }, 'checking'],
    [{ state: 'unreachable' as const, sinceMs: 3, reason: 'HTTP 401' }, 'unreachable since t3: HTTP 401'],
    [{ state: 'unreachable' as const, sinceMs: 3 }, 'unreachable since t3'],
  ])('%j → %s', (relay, text) => {
    expect(relayStateText(relay, at)).toBe(text);
  });

  it('lists the health a relay reports, leaving out what it does not', () => {
    const facts = healthFacts({
      version: '1.9.9',
      uptimeSeconds: 3725,
      streams: 2,
      producers: 1,
      consumers: 3,
      bytesIn: 1536,
      bytesOut: 0,
    });
    expect(facts).toEqual([
      { label: 'Version', value: '1.9.9' },
      { label: 'Uptime', value: '1 h 2 min' },
      { label: 'Streams', value: '2' },
      { label: 'Producers', value: '1' },
      { label: 'Consumers', value: '3' },
      { label: 'Received', value: '1.5 KiB' },
      { label: 'Sent', value: '0 B' },
    ]);
    expect(healthFacts({ streams: 0, producers: 0, consumers: 0, bytesIn: 0, bytesOut: 0 }).map((f) => f.label)).not.toContain('Uptime');
  });
});
