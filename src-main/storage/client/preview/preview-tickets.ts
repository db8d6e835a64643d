import { createTicketStore } from '@main/platform/ticket-store';

/** What the console may show through one preview address. */
interface PreviewTarget {
  accountId: string;
  bucket: string;
  key: string;
  /** A Kodo data-processing command applied on the way (`imageView2/...`, `vframe/...`), or none. */
  fop?: string;
}

export interface PreviewTickets {
  issue(target: PreviewTarget, now?: number): { ticket: string; expiresAt: number };
  /** The target of a live ticket, or undefined when it is unknown or expired. */
  find(ticket: string, now?: number): PreviewTarget | undefined;
}

/**
 * Preview addresses are random tickets on the console's own origin that name one object for a
 * while (an `<img>` or `<video>` cannot send the session token). A ticket gives no more than the
 * console page that asked for it already has; it expires, and at most `limit` are kept.
 */
export function createPreviewTickets(ttlMs = 15 * 60_000, limit = 2000): PreviewTickets {
  const store = createTicketStore<PreviewTarget>(ttlMs, limit);
  return {
    issue(target, now) {
      const { ticket, expiresAtMs } = store.issue(target, now);
      return { ticket, expiresAt: expiresAtMs };
    },
    find: (ticket, now) => store.find(ticket, now),
  };
}
