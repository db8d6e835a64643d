/** Where one session's werift agent listens on loopback, behind the shared port. */
export interface MuxTarget {
  udpPort?: number;
  tcpPort?: number;
  /** The answer's ICE password (`a=ice-pwd`): the shared UDP port answers consent checks on a session's media path with it. */
  icePassword?: Buffer;
  /** A viewer address reached the session (for its stats: the viewer, not the loopback bridge). */
  onRemote?(address: string, transport: 'udp' | 'tcp'): void;
  /**
   * The viewer has no path left over this transport (UDP: nothing came for the consent expiry,
   * RFC 7675; TCP: its last connection closed). See session-liveness.ts for the whole session.
   */
  onGone?(transport: 'udp' | 'tcp'): void;
  /**
   * An SRTCP datagram the viewer sent to the shared UDP port: true when the session read it
   * itself (it goes no further), false to hand it to werift as any other packet.
   */
  onRtcp?(datagram: Buffer): boolean;
  /**
   * The session's DTLS Finished left the shared UDP port for the viewer (`dtls-finished.ts`).
   * As DTLS server the relay is connected before its Finished has gone out through the bridge,
   * and a viewer drops SRTP that comes before it has its keys.
   */
  onFinishedSent?(): void;
}

/** The sessions behind the shared port, by the ICE ufrag of their answers. */
export type MuxTargets = ReadonlyMap<string, MuxTarget>;
