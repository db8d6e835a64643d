import { MantineProvider } from '@mantine/core';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { RelayAwayTile } from './RelayAwayTile';

describe('a tile of an unreachable relay', () => {
  it('says which relay is away, why and since when, names its relay, and plays nothing', () => {
    const sinceMs = Date.UTC(2026, 10, 27, 9, 30);
    const away = { name: 'north', reason: 'connection refused', sinceMs };
    // React's server renderer: the markup the tile holds, no DOM.
    const html = renderToStaticMarkup(
      <MantineProvider>
        <RelayAwayTile
          tile={{ id: 'relay://north/yard', relay: 'north', name: 'yard', videoCodecs: [], unreachable: away }}
          away={away}
          relay="north"
        />
      </MantineProvider>,
    );
    expect(html).toContain(`Relay north unreachable since ${new Date(sinceMs).toLocaleTimeString()}: connection refused`);
    expect(html).toContain('role="status"');
    expect(html).toContain('aria-label="relay north"');
    expect(html).toContain('aria-label="state relay unreachable"');
    expect(html).toContain('>yard<');
    expect(html).not.toContain('<video');
    expect(html).not.toContain('<img');
  });
});
