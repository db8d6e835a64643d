import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import type { RelayInfo } from '@shared/contract/relays';
import { err } from '@shared/contract/result';
import { ApiProvider } from '@renderer/api/api-context';
import { createConsoleApi } from '@renderer/api/console-api';
import { serviceKey } from '@renderer/api/service-query';
import { RelaysPanel } from './RelaysPanel';

/** The panel's markup over a list main already answered (React's server renderer: no DOM, no calls made). */
function render(list: RelayInfo[]): string {
  const api = createConsoleApi({ call: async () => err('not_found', 'not asked in this test'), subscribe: () => () => undefined });
  const queryClient = new QueryClient();
  queryClient.setQueryData(serviceKey('relays', 'list'), list);
  return renderToStaticMarkup(
    <MantineProvider>
      <QueryClientProvider client={queryClient}>
        <ApiProvider api={api}>
          <RelaysPanel />
        </ApiProvider>
      </QueryClientProvider>
    </MantineProvider>,
  );
}

const text = (html: string) => html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');

describe('RelaysPanel', () => {
  it('shows each relay with its state, login and health; an unreachable one with why and since when', () => {
    const html = render([
      {
        name: 'north',
        url: 'http://10.0.0.5:1984',
        hasLogin: true,
        username: 'admin',
        origin: 'config',
        state: 'reachable',
        sinceMs: 0,
        health: { version: '1.9.9', uptimeSeconds: 90, streams: 3, producers: 2, consumers: 1, bytesIn: 2048, bytesOut: 0 },
      },
      {
        name: 'south',
        url: 'http://10.0.0.6:1984',
        hasLogin: false,
        origin: 'console',
        state: 'unreachable',
        reason: 'connection refused',
        sinceMs: 0,
      },
    ]);
    const shown = text(html);
    expect(shown).toContain('north');
    expect(shown).toContain('login admin · from the config file');
    expect(shown).toContain('Version 1.9.9 Uptime 1 min 30 s Streams 3 Producers 2 Consumers 1 Received 2.0 KiB Sent 0 B');
    expect(shown).toMatch(/south .*no login · added here .*unreachable since .+: connection refused/);
    // The login itself never reaches the page: only whether one is kept.
    expect(html).not.toContain('password');
    expect(html).toContain('aria-label="Remove south"');
    expect(html).toContain('aria-label="Change north"');
  });

  it('says how to add a relay when there is none, with a config example', () => {
    const shown = text(render([]));
    expect(shown).toContain('No remote relays: add one with Add relay');
    expect(shown).toContain('relays: north: url: http://10.0.0.5:1984');
  });
});
