// The WebTorrent tracker's WebSocket messages (the "announce" action of webtorrent's
// bittorrent-tracker), as go2rtc and its web page use them to pass sealed SDP between peers.

interface SdpEnvelope {
  type: 'offer' | 'answer';
  sdp: string;
}

export interface TrackerMessage {
  action?: string;
  info_hash?: string;
  peer_id?: string;
  numwant?: number;
  offers?: Array<{ offer_id?: string; offer?: Partial<SdpEnvelope> }>;
  interval?: number;
  complete?: number;
  incomplete?: number;
  offer_id?: string;
  offer?: Partial<SdpEnvelope>;
  to_peer_id?: string;
  answer?: Partial<SdpEnvelope>;
}

export function parseTrackerMessage(data: unknown): TrackerMessage | undefined {
  try {
    const value = JSON.parse(String(data)) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as TrackerMessage) : undefined;
  } catch {
    return undefined;
  }
}

/** A peer id as WebTorrent clients make them: 20 characters (go2rtc uses base-36 text). */
export const newPeerId = () => Array.from({ length: 20 }, () => Math.floor(Math.random() * 36).toString(36)).join('');
