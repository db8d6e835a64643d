import { MantineProvider } from '@mantine/core';
import type { FetchStatus } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ContractFailure } from '../../src-shared/contract/result';
import { QueryState } from './QueryState';

/** The markup a state renders, as the page would hold it (no DOM here: React's server renderer). */
const html = (node: ReactNode) => renderToStaticMarkup(<MantineProvider>{node}</MantineProvider>);

const query = <T,>(state: { data?: T; error?: Error; isPending?: boolean; fetchStatus?: FetchStatus }) => ({
  data: state.data,
  error: state.error ?? null,
  isPending: state.isPending ?? false,
  fetchStatus: state.fetchStatus ?? 'idle',
});

const view = (q: ReturnType<typeof query<string[]>>) =>
  html(
    <QueryState query={q} loading="Reading buckets…" errorTitle="The buckets could not be listed" empty="No buckets yet.">
      {(list) => (
        <ul>
          {list.map((name) => (
            <li key={name}>{name}</li>
          ))}
        </ul>
      )}
    </QueryState>,
  );

describe('the states of one read', () => {
  it('while first read: the loading line, as a status, and nothing else', () => {
    const markup = view(query({ isPending: true, fetchStatus: 'fetching' }));
    expect(markup).toMatch(/role="status"[^>]*>.*Reading buckets…/);
    expect(markup).not.toContain('role="alert"');
    expect(markup).not.toContain('<ul>');
  });

  it('switched off (nothing to read yet): nothing at all', () => {
    expect(view(query({ isPending: true, fetchStatus: 'idle' }))).toBe(html(null));
  });

  it('failed: the error as an alert, with what failed and why', () => {
    const markup = view(query({ error: new ContractFailure('unauthenticated', 'Kodo 401: bad token') }));
    expect(markup).toMatch(/role="alert".*The buckets could not be listed.*Kodo 401: bad token/);
    expect(markup).not.toContain('Reading buckets…');
  });

  it('not answering: the error says the engine is not answering when no title is given', () => {
    const markup = html(
      <QueryState query={query<string[]>({ error: new ContractFailure('unavailable', 'no answer') })} loading="Reading…" />,
    );
    expect(markup).toContain('The console engine is not answering');
  });

  it('answered with nothing: the empty state, never a blank area', () => {
    const markup = view(query({ data: [] }));
    expect(markup).toContain('class="panel empty-state"');
    expect(markup).toContain('No buckets yet.');
    expect(markup).not.toContain('<ul>');
  });

  it('answered: the content', () => {
    expect(view(query({ data: ['media', 'logs'] }))).toContain('<ul><li>media</li><li>logs</li></ul>');
  });

  it('a failed refresh: the error above what was read before, which stays', () => {
    const markup = view(query({ data: ['media'], error: new Error('timed out') }));
    expect(markup.indexOf('role="alert"')).toBeLessThan(markup.indexOf('<li>media</li>'));
  });
});
