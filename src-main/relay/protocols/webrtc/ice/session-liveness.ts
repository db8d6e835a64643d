import type { MuxTarget } from './mux-targets';

type Transport = 'udp' | 'tcp';
/** What a session hears from the shared ports. */
export type SessionEvent = 'onRemote' | 'onGone' | 'onRtcp' | 'onFinishedSent';

/**
 * A session's target behind both shared ports, ended only when the viewer has no path left.
 * A browser checks every candidate pair it is offered, UDP and TCP alike, then keeps the one it
 * nominated and drops the others: Chromium closes an unused ICE-TCP connection some 10-30 s in.
 * Each mux sees only its own transport, so its "gone" means that transport is gone; the session
 * ends when every transport that reached it is gone (RFC 7675: consent is per candidate pair).
 */
export function withLiveness(target: Omit<MuxTarget, SessionEvent>, events: Pick<MuxTarget, SessionEvent>): MuxTarget {
  const live = new Set<Transport>();
  let ended = false;
  return {
    ...target,
    ...(events.onRtcp ? { onRtcp: events.onRtcp } : {}),
    ...(events.onFinishedSent ? { onFinishedSent: events.onFinishedSent } : {}),
    onRemote(address, transport) {
      if (ended) return;
      // The first path is the viewer's address in the stats; a later check on another transport
      // is usually a pair the browser will drop.
      if (live.size === 0) events.onRemote?.(address, transport);
      live.add(transport);
    },
    onGone(transport) {
      live.delete(transport);
      if (live.size > 0 || ended) return;
      ended = true;
      events.onGone?.(transport);
    },
  };
}
