import { describe, expect, it } from 'vitest';
import { LOCAL_RELAY } from '@shared/contract/relays';
import { readRelaysSection, RelayUrlError, splitRelayUrl } from './relays-config';

describe('the relays: section', () => {
  it('splits the login off an address and keeps the rest as the console may see it', () => {
    expect(splitRelayUrl('http://user:p%40ss@10.0.0.5:1984/')).toEqual({
      url: 'http://10.0.0.5:1984',
      login: { username: 'user', password: 'p@ss' },
    });
    expect(splitRelayUrl(' https://relay-south.example:1984/go2rtc/?x=1#y ')).toEqual({ url: 'https://relay-south.example:1984/go2rtc' });
    expect(splitRelayUrl('http://[::1]:1984')).toEqual({ url: 'http://[::1]:1984' });
    for (const bad of ['ftp://x', 'file:///etc/passwd', 'javascript:alert(1)', '10.0.0.5:1984', '']) {
      expect(() => splitRelayUrl(bad)).toThrow(RelayUrlError);
    }
  });

  it('reads relays in the file order and skips each wrong entry with a reason', () => {
    const read = readRelaysSection({
      north: 'http://user:pass@10.0.0.5:1984',
      south: 'https://relay-south.example:1984',
      [LOCAL_RELAY]: 'http://127.0.0.1:1984',
      'bad name': 'http://x',
      east: 7,
      west: 'exec:rm -rf /',
      NORTH: 'http://10.0.0.6:1984',
    });
    expect(read.relays).toEqual([
      { name: 'north', url: 'http://10.0.0.5:1984', login: { username: 'user', password: 'pass' } },
      { name: 'south', url: 'https://relay-south.example:1984' },
    ]);
    expect(read.problems).toEqual([
      'relays.local: "local" is the embedded relay',
      'relays.bad name: a relay name is letters, digits, - and _',
      "relays.east: expected the relay's API address, e.g. http://10.0.0.5:1984",
      'relays.west: a relay address is http:// or https://, not exec:',
      'relays.NORTH: another relay has this name',
    ]);
    expect(readRelaysSection(undefined)).toEqual({ relays: [], problems: [] });
    expect(readRelaysSection(['http://x']).problems).toHaveLength(1);
  });
});
