/** Where one session's werift agent listens on loopback, behind the shared port. */
export interface MuxTarget {
  udpPort?: number;
  tcpPort?: number;
  /** A viewer address reached the session (for its stats: the viewer, not the loopback bridge). */
  onRemote?(address: string, transport: 'udp' | 'tcp'): void;
  /** Nothing came from the session's viewer for the consent expiry (RFC 7675): it is gone. */
  onGone?(): void;
}

/** The sessions behind the shared port, by the ICE ufrag of their answers. */
export type MuxTargets = ReadonlyMap<string, MuxTarget>;
