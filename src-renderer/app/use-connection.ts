import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { isDisconnected } from './connection';
import { useUi } from './ui-store-context';

/** False while main is out of reach: forms disable their submit, since the call would be refused. */
export function useConnected(): boolean {
  return useUi((s) => !isDisconnected(s.link));
}

/** How many times main came back after being out of reach (0 until the first outage ends). */
export function useReconnects(): number {
  return useUi((s) => s.link.reconnects);
}

/**
 * Refetches what the page shows once main is back: reads made while it was away were refused,
 * and events pushed meanwhile were missed. (TanStack Query's own refetch-on-reconnect follows the
 * browser's network state, not this socket.)
 */
export function useRefetchOnReconnect(): void {
  const queryClient = useQueryClient();
  const reconnects = useReconnects();
  useEffect(() => {
    if (reconnects > 0) void queryClient.invalidateQueries();
  }, [reconnects, queryClient]);
}
