import type { GraphExchange } from '@shared/contract/graph-traffic';
import type { GraphExchangeInfo } from '../client/graph-client';
import { redactGraphUrl } from './redact-graph-url';

/**
 * The last exchanges with Graph, kept in memory (a bounded ring: the panel shows what just
 * happened, not an audit log). URLs are redacted as they are recorded, so nothing secret is
 * kept or sent to the renderer.
 */
export class GraphTrafficLog {
  private readonly entries: GraphExchange[] = [];
  private readonly listeners = new Set<(exchange: GraphExchange) => void>();
  private seq = 0;

  constructor(
    private readonly capacity = 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** A recorder for one part of the console, to hand to a Graph client as its onExchange. */
  recorder(source: GraphExchange['source']): (info: GraphExchangeInfo) => void {
    return (info) => this.record(source, info);
  }

  record(source: GraphExchange['source'], info: GraphExchangeInfo): GraphExchange {
    const exchange: GraphExchange = {
      seq: ++this.seq,
      at: new Date(this.now()).toISOString(),
      source,
      method: info.method,
      url: redactGraphUrl(info.url),
      status: info.status,
      durationMs: Math.round(info.durationMs * 10) / 10,
      requestId: info.requestId,
      clientRequestId: info.clientRequestId,
      errorCode: info.errorCode,
    };
    this.entries.push(exchange);
    if (this.entries.length > this.capacity) this.entries.splice(0, this.entries.length - this.capacity);
    for (const listener of this.listeners) listener(exchange);
    return exchange;
  }

  /** Newest first. */
  recent(limit: number): GraphExchange[] {
    return this.entries.slice(-limit).reverse();
  }

  clear(): number {
    const cleared = this.entries.length;
    this.entries.length = 0;
    return cleared;
  }

  subscribe(listener: (exchange: GraphExchange) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}
