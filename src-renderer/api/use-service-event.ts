import { useEffect, useRef } from 'react';

/** A `service.onX` subscription for the life of a component; the latest listener is always called. */
export function useServiceEvent<T>(subscribe: (listener: (payload: T) => void) => () => void, listener: (payload: T) => void): void {
  const latest = useRef(listener);
  latest.current = listener;
  useEffect(() => subscribe((payload) => latest.current(payload)), [subscribe]);
}
