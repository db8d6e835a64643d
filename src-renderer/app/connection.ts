import type { ConnectionState } from '../api/transport-websocket';

/**
 * What the console knows about its link to main. `disconnectedSince` is when a working link was
 * lost (or the first one failed): the moment the page stopped being able to change anything.
 * `reconnects` counts the times it came back, so views can refetch what they missed.
 */
export interface Connection {
  state: ConnectionState;
  disconnectedSince?: number;
  everOpen: boolean;
  reconnects: number;
}

export const initialConnection: Connection = { state: 'connecting', everOpen: false, reconnects: 0 };

export function nextConnection(previous: Connection, state: ConnectionState, now: number): Connection {
  if (state === 'open') {
    // Calls were refused while it was down (the first one failing counts): views refetch on this.
    const back = previous.disconnectedSince !== undefined;
    return { state, everOpen: true, reconnects: previous.reconnects + (back ? 1 : 0) };
  }
  // The page's first connection being made is not a disconnection; its failure is.
  const lost = previous.everOpen || state === 'closed';
  const since = previous.disconnectedSince ?? (lost ? now : undefined);
  return { ...previous, state, ...(since !== undefined ? { disconnectedSince: since } : {}) };
}

export const isDisconnected = (connection: Connection): boolean => connection.disconnectedSince !== undefined;

/** "14:02:11": the banner says since when, to the second, in the 24-hour clock. */
export const clockTime = (at: number): string => {
  const date = new Date(at);
  return [date.getHours(), date.getMinutes(), date.getSeconds()].map((part) => String(part).padStart(2, '0')).join(':');
};

export const disconnectedMessage = (since: number): string => `Disconnected from the relay since ${clockTime(since)} — reconnecting…`;
