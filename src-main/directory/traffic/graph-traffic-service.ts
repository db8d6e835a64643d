import { graphTrafficService } from '@shared/contract/graph-traffic';
import type { EngineContext } from '../../engine/engine-context';
import type { GraphTrafficLog } from './graph-traffic-log';

/** Binds the `graphTraffic` service: the log's recent exchanges, and each new one pushed as it happens. */
export function bindGraphTraffic(ctx: EngineContext, log: GraphTrafficLog): void {
  const emit = ctx.services.bind(graphTrafficService, {
    recent: async ({ limit }) => log.recent(limit),
    clear: async () => ({ cleared: log.clear() }),
  });
  log.subscribe((exchange) => emit('onExchange', exchange));
}
