import type { GraphExchange } from '@shared/contract/graph-traffic';

export type TrafficFilter = 'all' | 'failed' | 'directory' | 'calendar';

/** The exchanges a filter keeps: failed means no answer or an HTTP error (a retried 429 counts). */
export function trafficShown(exchanges: readonly GraphExchange[], filter: TrafficFilter): GraphExchange[] {
  switch (filter) {
    case 'failed':
      return exchanges.filter((e) => e.status === 0 || e.status >= 400);
    case 'directory':
    case 'calendar':
      return exchanges.filter((e) => e.source === filter);
    default:
      return [...exchanges];
  }
}
